import Testing
@testable import CropGeometry

@Suite("Render plan and display layout")
struct RenderPlanTests {
    @Test("an axis-aligned crop snaps to the source pixel grid and copies pixels exactly, in every orientation",
          arguments: Orientation.allCases)
    func snappedAxisAlignedCrop(_ orientation: Orientation) throws {
        var s = try CropState(sourceSize: PixelSize(300, 200), orientation: orientation)
        let upright = s.uprightSize
        try s.setCrop(Rect(x: 10.3, y: 20.6, width: 100.5, height: 50.2))
        let plan = s.renderPlan()
        #expect(plan.outputSize == PixelSize(100, 50))
        // Centre (60.55, 45.7) less half the output, rounded: origin (11, 21).
        #expect(plan.uprightRect == Rect(x: 11, y: 21, width: 100, height: 50))
        #expect(plan.isAxisAligned && plan.isPixelExact && plan.scale == 1)
        #expect(plan.orientation == orientation)
        let sourceRect = try #require(plan.sourceRect)
        #expect(sourceRect == orientation.storedRect(fromDisplayed: plan.uprightRect, storedSize: Size(width: 300, height: 200)))
        #expect(upright == orientation.displayedSize(of: PixelSize(300, 200)))
        // Output pixel centres land on source pixel centres inside the source rect.
        for (i, j) in [(0, 0), (99, 0), (0, 49), (99, 49), (37, 12)] {
            let p = plan.transform.apply(to: Point(x: Double(i) + 0.5, y: Double(j) + 0.5))
            #expect(p.x - 0.5 == (p.x - 0.5).rounded() && p.y - 0.5 == (p.y - 0.5).rounded())
            #expect(sourceRect.contains(p))
        }
    }

    @Test("a maximum output size scales down uniformly and exactly, never up")
    func maximumOutputSize() throws {
        var s = try CropState(sourceSize: PixelSize(4000, 3000))
        let plan = s.renderPlan(maximumOutputSize: PixelSize(1000, 1000))
        #expect(plan.outputSize == PixelSize(1000, 750))
        #expect(plan.scale == 4)
        #expect(plan.transform == AffineTransform2D(a: 4, b: 0, c: 0, d: 4, tx: 0, ty: 0))
        #expect(!plan.isPixelExact)
        #expect(s.renderPlan(maximumOutputSize: PixelSize(9000, 9000)).outputSize == PixelSize(4000, 3000))
        s.setAspectLock(try .ratio(16, 9))
        let locked = s.renderPlan(maximumOutputSize: PixelSize(1001, 1001)).outputSize
        #expect(locked == PixelSize(992, 558))  // 62·(16, 9)
    }

    @Test("a straightened plan maps the output onto the straightened crop")
    func straightenedPlan() throws {
        var s = try CropState(sourceSize: PixelSize(4000, 3000), orientation: .rightTop)
        try s.setStraightenAngle(-20)
        let plan = s.renderPlan()
        #expect(!plan.isAxisAligned && plan.sourceRect == nil)
        // The output centre maps to the picture centre (a centred crop); its corners into the source.
        let centre = plan.outputToUpright.apply(to: Point(x: Double(plan.outputSize.width) / 2,
                                                          y: Double(plan.outputSize.height) / 2))
        #expect(centre.isApproximatelyEqual(to: Point(x: 1500, y: 2000), tolerance: 1e-9))
        #expect(Invariants.noFillPixels(s) == nil)
        // The output x axis points along the picture turned clockwise by 20° (the picture turned back).
        let axis = plan.outputToUpright.applyLinear(to: Point(x: 1, y: 0))
        #expect(axis.isApproximatelyEqual(to: Point(x: cos(20 * Double.pi / 180), y: -sin(20 * Double.pi / 180)),
                                          tolerance: 1e-12))
    }

    @Test("the display layout fits the crop box as large as possible and centred")
    func displayFits() throws {
        var s = try CropState(sourceSize: PixelSize(4000, 3000))
        try s.setCrop(Rect(x: 0, y: 0, width: 3000, height: 2500))
        let layout = try s.displayLayout(viewportSize: Size(width: 900, height: 700), insets: EdgeInsets(all: 50))
        #expect(layout.scale == 0.24)
        #expect(layout.cropBox.isApproximatelyEqual(to: Rect(x: 90, y: 50, width: 720, height: 600), tolerance: 1e-9))
        #expect(throws: GeometryError.self) {
            try s.displayLayout(viewportSize: Size(width: 100, height: 100), insets: EdgeInsets(all: 50))
        }
        #expect(throws: GeometryError.self) { try s.displayLayout(viewportSize: Size(width: .nan, height: 100)) }
        #expect(throws: GeometryError.self) {
            try s.displayLayout(viewportSize: Size(width: 100, height: 100), insets: EdgeInsets(top: -1))
        }
    }

    @Test("the display transform equals the render plan's up to a scale, with any context margin (10,000 states)")
    func displayMatchesRenderPlan() throws {
        var rng = SplitMix64(seed: 11)
        for i in 0..<10_000 {
            let s = Random.state(&rng)
            let viewport = Size(width: rng.double(50...2000), height: rng.double(50...2000))
            let layout = try s.displayLayout(viewportSize: viewport, insets: EdgeInsets(all: rng.double(0...20)),
                                             maximumBoxFraction: rng.pick([1, 0.8, rng.double(0.05...1)]))
            let plan = s.renderPlan()
            // output → stored → view must be a uniform scale by (view scale × source px per output px) plus a shift.
            let outputToView = plan.transform.concatenating(layout.storedToView)
            let k = layout.scale * plan.scale
            let linearOK = abs(outputToView.a - k) <= 1e-9 * k && abs(outputToView.d - k) <= 1e-9 * k
                && abs(outputToView.b) <= 1e-9 * k && abs(outputToView.c) <= 1e-9 * k
            // …that puts the output's centre on the crop box's centre (the output is the crop's centred sub-rect,
            // or its pixel-grid snap, at most half a pixel away).
            let centre = outputToView.apply(to: Point(x: Double(plan.outputSize.width) / 2,
                                                      y: Double(plan.outputSize.height) / 2))
            let centred = centre.distance(to: layout.cropBox.center) <= (0.75 + 1e-6) * layout.scale
            if !(linearOK && centred) {
                Issue.record("case \(i): \(outputToView) vs scale \(k); centre \(centre) vs \(layout.cropBox.center)")
                return
            }
        }
    }

    @Test("the view-to-frame mapping inverts frame-to-view; the stored preview transform composes a scale")
    func layoutMappings() throws {
        var s = try CropState(sourceSize: PixelSize(4000, 3000), orientation: .leftBottom)
        try s.setStraightenAngle(7)
        s.flip(.horizontal)
        let layout = try s.displayLayout(viewportSize: Size(width: 640, height: 480))
        let p = Point(x: 123.4, y: 56.7)
        #expect(layout.framePoint(fromView: layout.frameToView.apply(to: p)).isApproximatelyEqual(to: p, tolerance: 1e-9))
        let preview = layout.storedPreviewTransform(previewSize: Size(width: 1000, height: 750), sourceSize: s.sourceSize)
        #expect(preview.apply(to: Point(x: 1000, y: 750))
            .isApproximatelyEqual(to: layout.storedToView.apply(to: Point(x: 4000, y: 3000)), tolerance: 1e-9))
        // The four picture corners are the upright picture's, in view coordinates.
        #expect(layout.pictureCorners.count == 4)
        #expect(layout.pictureCorners[0].isApproximatelyEqual(to: layout.uprightToView.apply(to: .zero)))
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
