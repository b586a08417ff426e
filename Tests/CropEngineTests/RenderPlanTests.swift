import CropGeometry
import CropTestSupport
import Foundation
import Testing

@testable import CropEngine

@Suite("Render plan")
struct RenderPlanTests {
    @Test(
        "an axis-aligned crop snaps to the source pixel grid and copies pixels exactly, in every orientation",
        arguments: Orientation.allCases)
    func snappedAxisAlignedCrop(_ orientation: Orientation) throws {
        var s = try CropState(sourceSize: PixelSize(validWidth: 300, height: 200), orientation: orientation)
        let upright = s.uprightSize
        try s.setCrop(Rect(x: 10.3, y: 20.6, width: 100.5, height: 50.2))
        let plan = s.renderPlan()
        #expect(plan.outputSize == PixelSize(validWidth: 100, height: 50))
        // Centre (60.55, 45.7) less half the output, rounded: origin (11, 21).
        #expect(plan.uprightRect == Rect(x: 11, y: 21, width: 100, height: 50))
        #expect(plan.isAxisAligned && plan.isPixelExact && plan.scale == 1)
        #expect(plan.orientation == orientation)
        let sourceRect = try #require(plan.sourceRect)
        #expect(
            sourceRect
                == orientation.storedRect(fromDisplayed: plan.uprightRect, storedSize: Size(width: 300, height: 200)))
        #expect(upright == orientation.displayedSize(of: PixelSize(validWidth: 300, height: 200)))
        // Output pixel centres land on source pixel centres inside the source rect.
        for (i, j) in [(0, 0), (99, 0), (0, 49), (99, 49), (37, 12)] {
            let p = plan.transform.apply(to: Point(x: Double(i) + 0.5, y: Double(j) + 0.5))
            #expect(p.x - 0.5 == (p.x - 0.5).rounded() && p.y - 0.5 == (p.y - 0.5).rounded())
            #expect(sourceRect.contains(p))
        }
    }

    @Test("a maximum output size scales down uniformly and exactly, never up")
    func maximumOutputSize() throws {
        var s = try CropState(sourceSize: PixelSize(validWidth: 4000, height: 3000))
        let plan = s.renderPlan(maximumOutputSize: PixelSize(validWidth: 1000, height: 1000))
        #expect(plan.outputSize == PixelSize(validWidth: 1000, height: 750))
        #expect(plan.scale == 4)
        #expect(plan.transform == AffineTransform2D(a: 4, b: 0, c: 0, d: 4, tx: 0, ty: 0))
        #expect(!plan.isPixelExact)
        #expect(
            s.renderPlan(maximumOutputSize: PixelSize(validWidth: 9000, height: 9000)).outputSize
                == PixelSize(validWidth: 4000, height: 3000))
        s.setAspectLock(try .ratio(16, 9))
        let locked = s.renderPlan(maximumOutputSize: PixelSize(validWidth: 1001, height: 1001)).outputSize
        #expect(locked == PixelSize(validWidth: 992, height: 558))  // 62·(16, 9)
    }

    @Test("a straightened plan maps the output onto the straightened crop")
    func straightenedPlan() throws {
        var s = try CropState(sourceSize: PixelSize(validWidth: 4000, height: 3000), orientation: .rightTop)
        try s.setStraightenAngle(-20)
        let plan = s.renderPlan()
        #expect(!plan.isAxisAligned && plan.sourceRect == nil)
        // The output centre maps to the picture centre (a centred crop); its corners into the source.
        let centre = plan.outputToUpright.apply(
            to: Point(
                x: Double(plan.outputSize.width) / 2,
                y: Double(plan.outputSize.height) / 2))
        #expect(centre.isApproximatelyEqual(to: Point(x: 1500, y: 2000), tolerance: 1e-9))
        #expect(Invariants.noFillPixels(s) == nil)
        // The output x axis points along the picture turned clockwise by 20° (the picture turned back).
        let axis = plan.outputToUpright.applyLinear(to: Point(x: 1, y: 0))
        #expect(
            axis.isApproximatelyEqual(
                to: Point(x: cos(20 * Double.pi / 180), y: -sin(20 * Double.pi / 180)),
                tolerance: 1e-12))
    }
}
