import CropCodecs
import CropGeometry
import CropPixels
import CropTestSupport
import Foundation
import Testing

@testable import CropKit

/// ``tiltedScene(width:height:degrees:seed:lines:)`` as a lossless PNG.
func tiltedPNG(degrees: Double, seed: UInt64 = 5, lines: Bool = true) throws -> [UInt8] {
    try ImageCodec.encode(
        tiltedScene(width: 480, height: 320, degrees: degrees, seed: seed, lines: lines), as: .png,
        options: EncodeOptions())
}

@Suite("Automatic straighten in the pipeline")
struct AutoStraightenTests {
    @Test("autoStraighten applies the estimate: the crop state's angle is the measured one, within 0.2° of the turn")
    func applies() throws {
        let png = try tiltedPNG(degrees: -7.3)
        let pipeline = ImagePipeline()
        let estimate = try pipeline.estimateStraighten(.data(png))
        #expect(abs(estimate.angle - -7.3) < 0.2 && estimate.isConfident(), "\(estimate)")
        let result = try pipeline.run(.data(png), [.autoStraighten()])
        #expect(result.report.autoStraighten == estimate)
        #expect(result.report.cropState.straightenAngle == estimate.angle)
        #expect(result.report.warnings.isEmpty, "\(result.report.warnings)")
        // Still no fill: the crop shrank to stay inside the turned picture, keeping its proportions.
        #expect(result.size.width < 480 && abs(Double(result.size.width) / Double(result.size.height) - 1.5) < 0.01)
        // The header-only preview agrees with the run.
        #expect(try pipeline.cropState(.data(png), [.autoStraighten()]) == result.report.cropState)
    }

    @Test("a flip before it mirrors the angle; a quarter turn does not change it")
    func mirrored() throws {
        let png = try tiltedPNG(degrees: 4)
        let pipeline = ImagePipeline()
        let angle = try pipeline.estimateStraighten(.data(png)).angle
        let flipped = try pipeline.cropState(.data(png), [.flip(.horizontal), .autoStraighten()])
        #expect(flipped.straightenAngle == -angle)
        let turned = try pipeline.cropState(.data(png), [.turn(.clockwise), .autoStraighten()])
        #expect(turned.straightenAngle == angle)
        let added = try pipeline.cropState(.data(png), [.straighten(1), .autoStraighten()])
        #expect(abs(added.straightenAngle - (angle + 1)) < 1e-9)
    }

    @Test("without straight lines it leaves the picture level and says why")
    func leavesAlone() throws {
        let png = try tiltedPNG(degrees: 6, lines: false)
        let result = try ImagePipeline().run(.data(png), [.autoStraighten()])
        #expect(result.report.cropState.straightenAngle == 0)
        #expect(result.size == PixelSize(validWidth: 480, height: 320))
        let estimate = try #require(result.report.autoStraighten)
        #expect(!estimate.isConfident())
        #expect(result.report.warnings == [.autoStraightenNotApplied(estimate, minimumConfidence: 0.5)])
        #expect(result.report.warnings[0].description.contains("left as it is"))
        // A lower bar applies whatever was found.
        let forced = try ImagePipeline().run(.data(png), [.autoStraighten(minimumConfidence: 0)])
        #expect(forced.report.cropState.straightenAngle == estimate.angle)
    }

    @Test("bad chains fail before decoding: two autoStraighten steps, a confidence outside 0…1")
    func validation() throws {
        let png = try tiltedPNG(degrees: 0)
        for operations: [ImageOperation] in [
            [.autoStraighten(), .autoStraighten()], [.autoStraighten(minimumConfidence: 1.5)],
            [.autoStraighten(minimumConfidence: .nan)],
        ] {
            #expect(throws: CropKitError.self) { try ImagePipeline().run(.data(png), operations) }
        }
    }
}
