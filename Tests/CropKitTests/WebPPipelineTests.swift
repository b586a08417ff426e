import CropCodecs
import CropTestSupport
import Foundation
import Testing

@testable import CropKit

@Suite("Pipelines with WebP in and out")
struct WebPPipelineTests {
    /// 120×180 stored with EXIF orientation 6 (cwebp -q 80 -metadata exif), so 180×120 displayed.
    static let photo = ImageSource.file(Fixtures.path("landscape-6.webp"))

    @Test(
        "a WebP source shrinks on load like a JPEG and comes out upright, close to the full decode resized",
        arguments: [(90, 1), (45, 2), (22, 4)])
    func shrinkOnLoad(_ width: Int, _ scale: Int) throws {
        let result = try ImagePipeline().run(Self.photo, [.resize(width: width)])
        #expect(result.report.decodeScale == scale)
        #expect(result.size == PixelSize(validWidth: width, height: (width * 120 + 90) / 180))
        let full = try ImagePipeline(shrinkOnLoad: false).run(Self.photo, [.resize(width: width)])
        #expect(meanDifference(result.pixels, full.pixels) < 3, "mean \(meanDifference(result.pixels, full.pixels))")
    }

    @Test("a straightened crop of a JPEG written as WebP: exact size, upright, EXIF orientation 1, ICC kept")
    func jpegToWebP() throws {
        try withScratchFolder { folder in
            let output = folder + "/out.webp"
            let written = try ImagePipeline().run(
                Fixtures.landscape(6), [.straighten(5), .aspect(try .ratio(3, 2))],
                to: .file(output))
            let bytes = try FileIO.readFile(atPath: output)
            #expect(try ImageFormat.detect(bytes) == .webp)
            let decoded = try ImageCodec.decode(bytes)
            #expect(
                decoded.pixels.width == written.report.size.width && decoded.pixels.height == written.report.size.height
            )
            #expect(written.report.size.width * 2 == written.report.size.height * 3)
            #expect(decoded.metadata.orientation == .up)
            let reference = try ImagePipeline().run(
                Fixtures.landscape(6), [.straighten(5), .aspect(try .ratio(3, 2))]
            ).pixels
            // Lossy WebP at its default quality, 80: about 4 levels.
            #expect(
                meanDifference(decoded.pixels, reference) < 5.5, "mean \(meanDifference(decoded.pixels, reference))")
        }
    }

    @Test("lossless WebP output keeps every pixel of the render")
    func losslessOutput() throws {
        let steps: [ImageOperation] = [.crop(Rect(x: 10, y: 5, width: 100, height: 60))]
        let encoded = try ImagePipeline().run(
            Self.photo, steps, to: .data(SaveOptions(format: .webp, lossless: true)))
        let rendered = try ImagePipeline().run(Self.photo, steps).pixels
        let decoded = try ImageCodec.decode(encoded.bytes).pixels
        #expect(decoded.width == 100 && decoded.height == 60)
        #expect(maxDifference(decoded, rendered) == 0)
    }
}
