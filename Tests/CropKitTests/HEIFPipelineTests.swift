import CropTestSupport
import Testing

@testable import CropKit

@Suite("Pipelines with a HEIC source")
struct HEIFPipelineTests {
    /// 203×133, 4:2:0 (heif-enc -q 60; see the codec fixtures' README).
    static let photo = ImageSource.file(Fixtures.path("odd420.heic"))

    @Test(
        "a HEIC shrinks on load like a JPEG, close to the full decode resized",
        arguments: [(100, 1), (50, 2), (25, 4), (12, 8)])
    func shrinkOnLoad(_ width: Int, _ scale: Int) throws {
        let result = try ImagePipeline().run(Self.photo, [.resize(width: width)])
        #expect(result.report.decodeScale == scale)
        #expect(result.size == PixelSize(validWidth: width, height: (width * 133 + 101) / 203))
        let full = try ImagePipeline(shrinkOnLoad: false).run(Self.photo, [.resize(width: width)])
        #expect(full.report.decodeScale == 1)
        #expect(meanDifference(result.pixels, full.pixels) < 3, "mean \(meanDifference(result.pixels, full.pixels))")
    }
}
