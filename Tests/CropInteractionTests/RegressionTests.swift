import CropGeometry
import CropTestSupport
import Foundation
import Testing

@testable import CropEngine
@testable import CropInteraction

/// One test per bug that the best-known crop components ship, named after the bug.
@Suite("Regressions")
struct RegressionTests {
    @Test("untouched 4032×3024 comes back 4032×3019")
    func untouchedPhotoKeepsItsSize() throws {
        for orientation in Orientation.allCases {
            let state = try CropState(sourceSize: PixelSize(validWidth: 4032, height: 3024), orientation: orientation)
            let plan = state.renderPlan()
            let upright = orientation.displayedSize(of: PixelSize(validWidth: 4032, height: 3024))
            #expect(plan.outputSize == upright)
            #expect(plan.isPixelExact)
            #expect(plan.sourceRect == Rect(x: 0, y: 0, width: 4032, height: 3024))
            #expect(plan.transform == orientation.inverseTransform(storedSize: Size(width: 4032, height: 3024)))
            // Through a recipe made on a preview, and through an 'original' lock, still exact.
            var preview = try CropState(sourceSize: PixelSize(validWidth: 1008, height: 756), orientation: orientation)
            preview.setAspectLock(.original)
            let back = try CropState(
                recipe: Recipe(json: preview.recipe.json()), sourceSize: PixelSize(validWidth: 4032, height: 3024),
                orientation: orientation)
            #expect(back.outputSize == upright)
            #expect(back.renderPlan().isPixelExact)
        }
        // And with every view-driven no-op: an editor session opened and closed with a tap inside.
        var session = try CropSession(
            state: CropState(sourceSize: PixelSize(validWidth: 4032, height: 3024)),
            viewportSize: Size(width: 390, height: 844))
        try session.handle(.pointerDown(id: 1, location: Point(x: 195, y: 400), intent: .auto))
        try session.handle(.pointerUp(id: 1, location: Point(x: 195, y: 400)))
        #expect(session.state.outputSize == PixelSize(validWidth: 4032, height: 3024))
    }

    @Test("1:1 crop comes out 514×513")
    func squareCropIsSquare() throws {
        var state = try CropState(sourceSize: PixelSize(validWidth: 4032, height: 3024))
        state.setAspectLock(.square)
        try state.setCrop(Rect(x: 100.3, y: 50.7, width: 514.6, height: 513.4))
        #expect(state.outputSize == PixelSize(validWidth: 513, height: 513))
        // Drawn in a view at a scale that makes every coordinate fractional, then straightened.
        var selection = try RectangleSelection(
            imageSize: PixelSize(validWidth: 4032, height: 3024), viewBounds: Rect(x: 0, y: 0, width: 333, height: 777),
            aspectLock: .square)
        try selection.handle(.began(Point(x: 10.3, y: 300.1)))
        try selection.handle(.moved(Point(x: 52.9, y: 341.7)))
        try selection.handle(.ended(Point(x: 52.9, y: 341.7)))
        let drawn = try #require(selection.selection)
        try state.setCrop(drawn)
        try state.setStraightenAngle(3.3)
        #expect(state.outputSize.width == state.outputSize.height)
        let scaled = state.renderPlan(maximumOutputSize: PixelSize(validWidth: 333, height: 777)).outputSize
        #expect(scaled.width == scaled.height)
    }

    @Test("restored crop loses its flip")
    func restoredCropKeepsItsFlip() throws {
        var state = try CropState(sourceSize: PixelSize(validWidth: 3000, height: 2000), orientation: .rightTop)
        state.flip(.horizontal)
        state.rotate(.clockwise, aspectPolicy: .followPicture)
        try state.setCrop(Rect(x: 100, y: 200, width: 900, height: 1200))
        try state.setStraightenAngle(-7.5)
        let restored = try CropState(
            recipe: Recipe(json: state.recipe.json()), sourceSize: state.sourceSize,
            orientation: .rightTop)
        #expect(restored.isFlipped)
        #expect(restored.userOrientation == state.userOrientation)
        #expect(restored.straightenAngle == -7.5)
        #expect(restored.crop.isApproximatelyEqual(to: state.crop, tolerance: 1e-9))
        #expect(restored.renderPlan().transform.isApproximatelyEqual(to: state.renderPlan().transform, tolerance: 1e-9))
        #expect(restored.outputSize == state.outputSize)
    }

    @Test("black corners after rotation")
    func noBlackCornersAfterRotation() throws {
        for angle in [0.1, 1, 10, -10, 33.3, 45, -45] {
            var state = try CropState(sourceSize: PixelSize(validWidth: 4032, height: 3024))
            try state.setStraightenAngle(angle)
            #expect(Invariants.noFillPixels(state) == nil)
            // Every border pixel centre of the output samples inside the source.
            let plan = state.renderPlan()
            let (w, h) = (plan.outputSize.width, plan.outputSize.height)
            var border: [Point] = []
            for i in 0..<w {
                border += [Point(x: Double(i) + 0.5, y: 0.5), Point(x: Double(i) + 0.5, y: Double(h) - 0.5)]
            }
            for j in 0..<h {
                border += [Point(x: 0.5, y: Double(j) + 0.5), Point(x: Double(w) - 0.5, y: Double(j) + 0.5)]
            }
            let inside = border.allSatisfy { corner in
                let p = plan.transform.apply(to: corner)
                return p.x >= 0 && p.y >= 0 && p.x <= 4032 && p.y <= 3024
            }
            #expect(inside)
            // …and it is the largest such crop: 0.1 % more would show fill.
            #expect(Invariants.minimalZoom(state) == nil)
        }
    }

    @Test("rotating turns a locked 2:3 into 3:2 without asking")
    func rotatingKeepsTheLockedRatioWhenAsked() throws {
        var state = try CropState(sourceSize: PixelSize(validWidth: 4000, height: 6000))
        try state.setAspectLock(.ratio(2, 3))
        #expect(state.outputSize == PixelSize(validWidth: 4000, height: 6000))
        var kept = state
        kept.rotate(.clockwise, aspectPolicy: .keepOutputRatio)
        #expect(kept.aspectLock == (try .ratio(2, 3)))
        // The 2:3 crop of the turned region's area (4000×6000) is too tall for the 6000×4000 picture, so the minimal
        // zoom shrinks it to 2666.7×4000, which renders as the largest exact 2:3 multiple, 1333·(2, 3).
        #expect(
            kept.crop.isApproximatelyEqual(
                to: Rect(
                    x: 1666.6666666666667, y: 0, width: 2666.6666666666665,
                    height: 4000), tolerance: 1e-9))
        #expect(kept.outputSize == PixelSize(validWidth: 2666, height: 3999))
        var followed = state
        followed.rotate(.clockwise, aspectPolicy: .followPicture)
        #expect(followed.aspectLock == (try .ratio(3, 2)))
        #expect(followed.outputSize == PixelSize(validWidth: 6000, height: 4000))
        // There is no default policy: the only way to turn is to say which.
        let rotate: (inout CropState, QuarterTurn, RotationAspectPolicy) -> Void = { $0.rotate($1, aspectPolicy: $2) }
        rotate(&state, .counterClockwise, .keepOutputRatio)
        #expect(state.aspectLock == (try .ratio(2, 3)))
    }

    @Test("output cut at view resolution")
    func outputIsNotCutAtViewResolution() throws {
        // A phone-sized view, a preview a sixth of the original, a box drawn with the finger.
        let state = try CropState(sourceSize: PixelSize(validWidth: 6000, height: 4000), minimumCropSize: 16)
        var session = try CropSession(
            state: state, viewportSize: Size(width: 390, height: 300), insets: EdgeInsets(all: 15),
            configuration: .init(previewSize: PixelSize(validWidth: 1000, height: 667)))
        let box = session.viewState.cropBox
        try session.handle(.pointerDown(id: 7, location: Point(x: box.minX + 60, y: box.minY + 40), intent: .auto))
        try session.handle(.pointerMove(id: 7, location: Point(x: box.minX + 300, y: box.minY + 200)))
        let view = try session.handle(.pointerUp(id: 7, location: Point(x: box.minX + 300, y: box.minY + 200)))
        // The box was 240×160 view points; the output is its size in source pixels (6000/360 = 16.67× larger).
        let scale = 6000 / box.width
        #expect(abs(Double(view.outputSize.width) - 240 * scale) <= 1)
        #expect(abs(Double(view.outputSize.height) - 160 * scale) <= 1)
        #expect(view.outputSize.width > 3000)
        #expect(session.state.renderPlan().scale == 1)
    }
}
