import CropGeometry
import CropTestSupport
import Testing

@testable import CropEngine
@testable import CropInteraction

@Suite("Display layout")
struct DisplayLayoutTests {
    @Test("the display layout fits the crop box as large as possible and centred")
    func displayFits() throws {
        var s = try CropState(sourceSize: PixelSize(validWidth: 4000, height: 3000))
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
            let s = try Random.state(&rng)
            let viewport = Size(width: rng.double(50...2000), height: rng.double(50...2000))
            let layout = try s.displayLayout(
                viewportSize: viewport, insets: EdgeInsets(all: rng.double(0...20)),
                maximumBoxFraction: rng.pick([1, 0.8, rng.double(0.05...1)]))
            let plan = s.renderPlan()
            // output → stored → view must be a uniform scale by (view scale × source px per output px) plus a shift.
            let outputToView = plan.transform.concatenating(layout.storedToView)
            let k = layout.scale * plan.scale
            let linearOK =
                abs(outputToView.a - k) <= 1e-9 * k && abs(outputToView.d - k) <= 1e-9 * k
                && abs(outputToView.b) <= 1e-9 * k && abs(outputToView.c) <= 1e-9 * k
            // …that puts the output's centre on the crop box's centre (the output is the crop's centred sub-rect,
            // or its pixel-grid snap, at most half a pixel away).
            let centre = outputToView.apply(
                to: Point(
                    x: Double(plan.outputSize.width) / 2,
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
        var s = try CropState(sourceSize: PixelSize(validWidth: 4000, height: 3000), orientation: .leftBottom)
        try s.setStraightenAngle(7)
        s.flip(.horizontal)
        let layout = try s.displayLayout(viewportSize: Size(width: 640, height: 480))
        let p = Point(x: 123.4, y: 56.7)
        #expect(
            layout.framePoint(fromView: layout.frameToView.apply(to: p)).isApproximatelyEqual(to: p, tolerance: 1e-9))
        let preview = layout.storedPreviewTransform(
            previewSize: Size(width: 1000, height: 750), sourceSize: s.sourceSize)
        #expect(
            preview.apply(to: Point(x: 1000, y: 750))
                .isApproximatelyEqual(to: layout.storedToView.apply(to: Point(x: 4000, y: 3000)), tolerance: 1e-9))
        // The four picture corners are the upright picture's, in view coordinates.
        #expect(layout.pictureCorners.count == 4)
        #expect(layout.pictureCorners[0].isApproximatelyEqual(to: layout.uprightToView.apply(to: .zero)))
    }
}
