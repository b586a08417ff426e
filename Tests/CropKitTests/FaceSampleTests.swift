import CropGeometry
import CropPixels
import Testing

@testable import CropKit

/// The copy a face detector sees: the bilinear sampler of a turned picture gives the turned pixels exactly.
@Suite("Face sample")
struct FaceSampleTests {
    @Test("a quarter-turned stored picture samples to its displayed pixels exactly", arguments: [2, 3, 4, 5, 6, 7, 8])
    func turned(_ tag: Int) throws {
        let width = 13, height = 7
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15 &* UInt64(tag)
        let samples = (0..<width * height * 3).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        let stored = try PixelBuffer(width: width, height: height, layout: .rgb, samples: samples)
        let orientation = Orientation(rawValue: tag)!
        let shown = orientation.displayedSize(of: PixelSize(validWidth: width, height: height))
        let transform = orientation.inverseTransform(storedSize: Size(width: Double(width), height: Double(height)))
        let copy = try ImagePipeline.sample(
            stored, decodedAt: 1, transform: transform, natural: shown, width: shown.width, height: shown.height,
            bilinear: true)
        let expected = stored.applyingOrientation(orientation)
        #expect(copy.width == expected.width && copy.height == expected.height)
        #expect(copy.samples == expected.samples)
    }
}
