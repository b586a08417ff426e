import CropTestSupport
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

    /// One chain per streaming path: resample stream straight to the encoder, pixel copy, collected then
    /// permuted or post-processed, straightened (band scheduler).
    static let chains: [(String, [ImageOperation])] = [
        ("thumbnail (resample stream → encoder)", [.thumbnail(32)]),
        ("resize 1:1 (pixel copy → encoder)", [.resize(height: 10_000)]),
        ("round corners (collected, post-processed)", [.roundCorners(.circle)]),
        ("turn (collected, permuted)", [.turn(.clockwise)]),
        (
            "fit with padding (collected)",
            [.resize(ResizeRequest(.box(PixelSize(validWidth: 40, height: 40)), mode: .pad(background: .white)))]
        ),
        ("straighten 7.5° (band scheduler)", [.straighten(7.5)]),
        (
            "straighten 3° reduced (band scheduler, pre-shrink)",
            [.straighten(3), .fit(within: PixelSize(validWidth: 20, height: 20))]
        ),
        ("straighten, then round (band scheduler, collected)", [.straighten(-4), .roundCorners(.pixels(5))]),
    ]

    /// Runs `chain` to one of the three sinks and returns the error it threw.
    static func failure(
        _ pipeline: ImagePipeline, _ source: ImageSource, _ chain: [ImageOperation], sink: Int, file: String
    ) -> CropKitError? {
        do {
            switch sink {
            case 0: _ = try pipeline.run(source, chain, to: .image)
            case 1: _ = try pipeline.run(source, chain, to: .data(SaveOptions(format: .png)))
            default: _ = try pipeline.run(source, chain, to: .file(file))
            }
            return nil
        } catch {
            return error
        }
    }

    @Test(
        "every streaming path ends with the decoder's error, 8 times per path, thread mode and sink",
        arguments: cases)
    func everyPathFailsCleanly(_ corrupt: Case) throws {
        let source = ImageSource.file(Fixtures.path("corrupt/\(corrupt.name)"))
        try withScratchFolder { dir in
            for maxThreads in [1, 0] {
                let pipeline = ImagePipeline(strict: corrupt.strict, maxThreads: maxThreads)
                for (name, chain) in Self.chains {
                    for sink in 0..<3 {
                        for _ in 0..<8 {
                            let error = Self.failure(pipeline, source, chain, sink: sink, file: dir + "/out.png")
                            #expect(
                                error?.description.contains(corrupt.message) == true,
                                "\(name), sink \(sink): \(error.map(String.init(describing:)) ?? "no error")")
                            #expect(!FileManager.default.fileExists(atPath: dir + "/out.png"))
                        }
                    }
                }
            }
        }
    }

    @Test("whole-image decode and transcoding fail the same way", arguments: cases)
    func wholeImage(_ corrupt: Case) throws {
        let source = ImageSource.file(Fixtures.path("corrupt/\(corrupt.name)"))
        for _ in 0..<8 {
            let error = #expect(throws: CropKitError.self) {
                _ = try Image(source: source, strict: corrupt.strict)
            }
            #expect(error?.description.contains(corrupt.message) == true)
            let transcoded = #expect(throws: CropKitError.self) {
                _ = try ImagePipeline(strict: corrupt.strict).transcode(source, to: .data(SaveOptions(format: .png)))
            }
            #expect(transcoded?.description.contains(corrupt.message) == true)
        }
    }
}
