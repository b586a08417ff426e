import Foundation
import Testing

@testable import CropKit

/// Files that fail partway down the picture, through every streaming path of the pipeline, in every concurrency mode,
/// many times over. Each run must end with the decoder's error: no trap (a trap ends the whole test process), no
/// other error, no output file. Regression for the teardown race that `ResizeStream`'s background worker had.
@Suite("Corrupt mid-stream input")
struct CorruptMidStreamTests {
    /// A corrupt file, whether it needs strict mode to fail, and the words its error must contain.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var strict: Bool
        var message: String
        var testDescription: String { name }
    }

    static let cases = [
        Case(name: "png-bad-filter-thumbnail.png", strict: false, message: "bad adaptive filter value"),
        Case(name: "png-bad-filter-thumbnail-2.png", strict: false, message: "bad adaptive filter value"),
        Case(name: "bad-filter-row120.png", strict: false, message: "bad adaptive filter value"),
        Case(name: "bad-filter-row120-rgba.png", strict: false, message: "bad adaptive filter value"),
        Case(name: "truncated-baseline.jpg", strict: true, message: "Premature end of JPEG data"),
    ]

    /// One operation per streaming path: resample stream straight to the encoder, pixel copy, collected then
    /// permuted or post-processed, straightened (band scheduler), and whole-image decode.
    static let operations: [(String, @Sendable (ImagePipeline, ImageSource, Destination, SaveOptions) throws -> Void)] = [
        ("thumbnail (resample stream → encoder)", { p, s, d, o in _ = try p.thumbnail(s, ThumbnailRequest(side: 32), to: d, options: o) }),
        ("resize 1:1 (pixel copy → encoder)", { p, s, d, o in _ = try p.resize(s, ResizeRequest(.height(10_000)), to: d, options: o) }),
        ("round corners (collected, post-processed)", { p, s, d, o in _ = try p.roundCorners(s, radius: .circle, to: d, options: o) }),
        ("fit with padding (collected)", { p, s, d, o in
            _ = try p.resize(s, ResizeRequest(.box(PixelSize(validWidth: 40, height: 40)), mode: .pad(background: .white, alignment: .center)), to: d, options: o)
        }),
        ("straighten 7.5° (band scheduler)", { p, s, d, o in
            _ = try p.render(s, .recipe(try Recipe(cropSize: Size(width: 0.6, height: 0.6), angle: 7.5)), to: d, options: o)
        }),
        ("straighten 3° reduced (band scheduler, pre-shrink)", { p, s, d, o in
            _ = try p.render(s, .recipe(try Recipe(cropSize: Size(width: 0.6, height: 0.6), angle: 3)), maximumSize: PixelSize(validWidth: 20, height: 20), to: d, options: o)
        }),
    ]

    @Test("every streaming path ends with the decoder's error, 8 times per path, thread mode and destination",
          arguments: cases)
    func everyPathFailsCleanly(_ corrupt: Case) throws {
        let source = ImageSource.file(Fixtures.path("corrupt/\(corrupt.name)"))
        try withScratchFolder { dir in
            for maxThreads in [1, 0] {
                let pipeline = ImagePipeline(strict: corrupt.strict, maxThreads: maxThreads)
                for (name, operation) in Self.operations {
                    for destination in [Destination.image, .data, .file(dir + "/out.png")] {
                        for _ in 0..<8 {
                            let error = #expect(throws: CropKitError.self, "\(name) → \(destination)") {
                                try operation(pipeline, source, destination, SaveOptions(format: .png))
                            }
                            #expect(error?.description.contains(corrupt.message) == true,
                                    "\(name): \(error.map(String.init(describing:)) ?? "no error")")
                            #expect(!FileManager.default.fileExists(atPath: dir + "/out.png"))
                        }
                    }
                }
            }
        }
    }

    @Test("whole-image decode and conversion fail the same way", arguments: cases)
    func wholeImage(_ corrupt: Case) throws {
        let path = Fixtures.path("corrupt/\(corrupt.name)")
        for _ in 0..<8 {
            let error = #expect(throws: CropKitError.self) {
                _ = try Image(source: .file(path), strict: corrupt.strict)
            }
            #expect(error?.description.contains(corrupt.message) == true)
            let converted = #expect(throws: CodecError.self) {
                _ = try ImageConversion.convert(
                    try FileIO.readFile(atPath: path), to: .png,
                    options: ConversionOptions(decode: DecodeOptions(strict: corrupt.strict)))
            }
            #expect(converted?.description.contains(corrupt.message) == true)
        }
    }
}
