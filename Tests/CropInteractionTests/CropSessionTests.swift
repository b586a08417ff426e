import CropGeometry
import CropTestSupport
import Foundation
import Testing

@testable import CropEngine
@testable import CropInteraction

/// Scripted event sequences. A 4000×3000 picture in a 900×700 viewport with 50-point insets and no context margin
/// (`maximumBoxFraction` 1, so the insets alone set the box): the whole picture fits the 800×600 area at scale 0.2,
/// so the box starts at (50, 50, 800, 600) and view (x, y) is frame (5(x − 50), 5(y − 50)). The context margin
/// has its own tests below.
@Suite("CropSession")
struct CropSessionTests {
    func session(_ state: CropState? = nil, preview: PixelSize? = nil, boxFraction: Double = 1) throws
        -> CropSession
    {
        try CropSession(
            state: state ?? CropState(sourceSize: PixelSize(validWidth: 4000, height: 3000), minimumCropSize: 10),
            viewportSize: Size(width: 900, height: 700), insets: EdgeInsets(all: 50),
            configuration: .init(
                touchRadius: 20, handleSize: 16, tapSlop: 4, historyLimit: 50, previewSize: preview,
                maximumBoxFraction: boxFraction))
    }

    func drag(_ s: inout CropSession, id: Int = 1, _ points: [Point], intent: PointerIntent = .auto) throws {
        try s.handle(.pointerDown(id: id, location: points[0], intent: intent))
        for p in points.dropFirst() { try s.handle(.pointerMove(id: id, location: p)) }
        try s.handle(.pointerUp(id: id, location: points.last!))
    }

    func expectRect(_ a: Rect, _ b: Rect, _ tolerance: Double = 1e-6, sourceLocation: SourceLocation = #_sourceLocation)
    {
        #expect(a.isApproximatelyEqual(to: b, tolerance: tolerance), "\(a) ≠ \(b)", sourceLocation: sourceLocation)
    }

    @Test("the initial view state fits the whole picture and draws a stored-orientation preview")
    func initialViewState() throws {
        let s = try session(preview: PixelSize(validWidth: 1000, height: 750))
        let v = s.viewState
        expectRect(v.cropBox, Rect(x: 50, y: 50, width: 800, height: 600))
        #expect(v.imageSize == PixelSize(validWidth: 1000, height: 750))
        #expect(
            v.imageTransform.isApproximatelyEqual(to: AffineTransform2D(a: 0.8, b: 0, c: 0, d: 0.8, tx: 50, ty: 50)))
        #expect(v.handles.count == 8 && v.handles[0].handle == .topLeft)
        expectRect(v.handles[0].rect, Rect(x: 42, y: 42, width: 16, height: 16))
        #expect(!v.showsGrid && !v.canUndo && !v.canRedo && v.gesture == .none && v.mode == .crop)
        #expect(
            v.outputSize == PixelSize(validWidth: 4000, height: 3000) && v.angle == 0 && v.quarterTurns == 0
                && !v.flipped)
    }

    @Test("drag inside a box that cannot move draws a new one; the view is frozen during and re-fits after")
    func drawThenRefit() throws {
        var s = try session()
        try s.handle(.pointerDown(id: 1, location: Point(x: 250, y: 200), intent: .auto))
        let during = try s.handle(.pointerMove(id: 1, location: Point(x: 450, y: 400)))
        #expect(during.gesture == .drawing && during.showsGrid)
        expectRect(s.state.crop, Rect(x: 1000, y: 750, width: 1000, height: 1000))
        expectRect(during.cropBox, Rect(x: 250, y: 200, width: 200, height: 200))  // frozen view: the box moves
        let after = try s.handle(.pointerUp(id: 1, location: Point(x: 450, y: 400)))
        expectRect(after.cropBox, Rect(x: 150, y: 50, width: 600, height: 600))  // re-fitted: scale 0.6
        #expect(after.canUndo && !after.showsGrid && after.gesture == .none)
        #expect(after.outputSize == PixelSize(validWidth: 1000, height: 1000))
    }

    @Test(
        "a finger (intent touch): a handle grabs within a 44-point square around each corner, a tap or a short slip outside leaves the crop, a real drag outside draws; a mouse's near-miss draws and its tap resets"
    )
    func fingerRules() throws {
        var s = try session()
        try drag(&s, [Point(x: 250, y: 200), Point(x: 450, y: 400)])  // box (150, 50, 600, 600)
        let start = s.state.crop, box = s.viewState.cropBox
        // 21 points out from the top-left corner along both axes: inside its 44-point square, outside the mouse's
        // 20-point reach (21·√2 ≈ 29.7).
        let nearMiss = Point(x: box.minX - 21, y: box.minY - 21)
        try s.handle(.pointerDown(id: 3, location: nearMiss, intent: .touch))
        let grabbed = try s.handle(.pointerMove(id: 3, location: Point(x: nearMiss.x + 30, y: nearMiss.y + 30)))
        #expect(grabbed.gesture == .resizing, "\(grabbed.gesture)")
        try s.handle(.pointerCancel(id: 3))
        #expect(s.state.crop == start)
        // The same press from a mouse draws a new box.
        try s.handle(.pointerDown(id: 4, location: nearMiss, intent: .auto))
        #expect(
            try s.handle(.pointerMove(id: 4, location: Point(x: nearMiss.x - 30, y: nearMiss.y + 30))).gesture
                == .drawing)
        try s.handle(.pointerCancel(id: 4))
        // A finger's tap and a 12-point slip outside the box change nothing; a 40-point drag draws.
        let outside = Point(x: box.minX - 60, y: box.midY)
        try drag(&s, [outside, Point(x: outside.x + 1, y: outside.y)], intent: .touch)
        #expect(s.state.crop == start && !s.viewState.canRedo)
        try drag(&s, [outside, Point(x: outside.x - 12, y: outside.y)], intent: .touch)
        #expect(s.state.crop == start)
        try drag(&s, [outside, Point(x: outside.x - 40, y: outside.y + 40)], intent: .touch)
        #expect(s.state.crop != start)
        // A mouse's tap outside resets to the whole picture.
        try s.handle(.undo)
        #expect(s.state.crop == start)
        try drag(&s, [outside, Point(x: outside.x + 1, y: outside.y)])
        expectRect(s.state.crop, Rect(x: 0, y: 0, width: 4000, height: 3000))
        // Every point of the 44-point square around each corner grabs that corner for a finger.
        for corner in [CropHandle.topLeft, .topRight, .bottomLeft, .bottomRight] {
            var t = try session()
            try drag(&t, [Point(x: 250, y: 200), Point(x: 450, y: 400)])
            let c = corner.position(in: t.viewState.cropBox)
            for dx in stride(from: -22.0, through: 22, by: 11) {
                for dy in stride(from: -22.0, through: 22, by: 11) {
                    var u = t
                    try u.handle(.pointerDown(id: 9, location: Point(x: c.x + dx, y: c.y + dy), intent: .touch))
                    let v = try u.handle(.pointerMove(id: 9, location: Point(x: c.x + dx + 25, y: c.y + dy + 25)))
                    #expect(v.gesture == .resizing, "\(corner) at (\(dx), \(dy)): \(v.gesture)")
                }
            }
        }
    }

    @Test("drag outside draws in any direction; drag inside moves from the drag start; a tap outside resets")
    func drawMoveTap() throws {
        var s = try session()
        // crop (1000, 750, 1000, 1000), box (150, 50, 600, 600)
        try drag(&s, [Point(x: 250, y: 200), Point(x: 450, y: 400)])
        // Move: many moves, only the last counts. +60, +30 view points at scale 0.6 = +100, +50 pixels.
        try s.handle(.pointerDown(id: 2, location: Point(x: 450, y: 350), intent: .auto))
        try s.handle(.pointerMove(id: 2, location: Point(x: 800, y: 10)))
        let moving = try s.handle(.pointerMove(id: 2, location: Point(x: 510, y: 380)))
        #expect(moving.gesture == .moving)
        expectRect(moving.cropBox, Rect(x: 210, y: 80, width: 600, height: 600))
        try s.handle(.pointerUp(id: 2, location: Point(x: 510, y: 380)))
        expectRect(s.state.crop, Rect(x: 1100, y: 800, width: 1000, height: 1000))
        expectRect(s.viewState.cropBox, Rect(x: 150, y: 50, width: 600, height: 600))
        // Draw from the margin left of the box, up and to the left.
        try drag(&s, [Point(x: 100, y: 500), Point(x: 70, y: 400)])
        // View x 70…100 is 80…50 points left of the box's edge (frame 1100): frame 966.7…1016.7.
        expectRect(s.state.crop, Rect(x: 1100 - 80 / 0.6, y: 800 + 350 / 0.6, width: 30 / 0.6, height: 100 / 0.6))
        // A tap outside the box resets the crop to the whole picture.
        let box = s.viewState.cropBox
        try drag(&s, [Point(x: box.minX - 30, y: box.minY), Point(x: box.minX - 29, y: box.minY + 1)])
        #expect(s.state.crop == Rect(x: 0, y: 0, width: 4000, height: 3000))
        // Four undo steps: tap, draw, move, draw.
        for _ in 0..<4 { try s.handle(.undo) }
        #expect(s.state == (try CropState(sourceSize: PixelSize(validWidth: 4000, height: 3000), minimumCropSize: 10)))
        #expect(!s.canUndo && s.canRedo)
        try s.handle(.redo)
        expectRect(s.state.crop, Rect(x: 1000, y: 750, width: 1000, height: 1000))
    }

    @Test("a handle drag resizes with the opposite corner fixed")
    func handleResize() throws {
        var s = try session()
        try drag(&s, [Point(x: 852, y: 648), Point(x: 652, y: 548)])  // bottom-right handle, grabbed 2 points off
        expectRect(s.state.crop, Rect(x: 0, y: 0, width: 3000, height: 2500))
        expectRect(s.viewState.cropBox, Rect(x: 90, y: 50, width: 720, height: 600))  // re-fit at scale 0.24
        // The top edge handle, anywhere along the edge.
        try drag(&s, [Point(x: 300, y: 52), Point(x: 300, y: 100)])
        expectRect(s.state.crop, Rect(x: 0, y: 48 / 0.24, width: 3000, height: 2500 - 48 / 0.24))
    }

    @Test("a two-finger pinch zooms about the midpoint, which stays under the fingers, as one undo step")
    func pinch() throws {
        var s = try session()
        try s.handle(.pointerDown(id: 1, location: Point(x: 300, y: 300), intent: .auto))
        try s.handle(.pointerDown(id: 2, location: Point(x: 500, y: 300), intent: .auto))
        // Frame point under the midpoint (400, 300): (1750, 1250).
        try s.handle(.pointerMove(id: 1, location: Point(x: 200, y: 300)))
        let v = try s.handle(.pointerMove(id: 2, location: Point(x: 600, y: 300)))
        #expect(v.gesture == .pinching && v.showsGrid)
        expectRect(s.state.crop, Rect(x: 875, y: 625, width: 2000, height: 1500))
        expectRect(v.cropBox, Rect(x: 50, y: 50, width: 800, height: 600))  // the box stays, the picture zooms
        #expect(
            s.layout.frameToView.apply(to: Point(x: 1750, y: 1250)).isApproximatelyEqual(
                to: Point(x: 400, y: 300), tolerance: 1e-9))
        // Moving both fingers pans: the frame point follows the midpoint.
        try s.handle(.pointerMove(id: 1, location: Point(x: 220, y: 320)))
        try s.handle(.pointerMove(id: 2, location: Point(x: 620, y: 320)))
        #expect(
            s.layout.frameToView.apply(to: Point(x: 1750, y: 1250)).isApproximatelyEqual(
                to: Point(x: 420, y: 320), tolerance: 1e-9))
        try s.handle(.pointerUp(id: 2, location: Point(x: 620, y: 320)))
        try s.handle(.pointerMove(id: 1, location: Point(x: 10, y: 10)))  // the remaining finger does nothing
        try s.handle(.pointerUp(id: 1, location: Point(x: 10, y: 10)))
        try s.handle(.undo)
        #expect(s.state.crop == Rect(x: 0, y: 0, width: 4000, height: 3000))
        #expect(!s.canUndo)
    }

    @Test("wheel zoom keeps the anchor fixed on screen; a run of wheel events is one undo step")
    func wheelZoom() throws {
        var s = try session()
        let anchor = Point(x: 300, y: 200)
        let framePoint = s.layout.framePoint(fromView: anchor)
        for _ in 0..<3 { try s.handle(.zoom(factor: 1.25, anchor: anchor)) }
        #expect(s.viewState.gesture == .zooming && !s.viewState.showsGrid)
        #expect(s.layout.frameToView.apply(to: framePoint).isApproximatelyEqual(to: anchor, tolerance: 1e-9))
        #expect(abs(s.state.crop.width - 4000 / 1.953125) < 1e-9)
        try s.handle(.undo)
        #expect(s.state.crop == Rect(x: 0, y: 0, width: 4000, height: 3000))
    }

    @Test("pan mode and the pan intent drag the picture under the fixed box")
    func panning() throws {
        var s = try session()
        try s.handle(.zoom(factor: 2, anchor: Point(x: 450, y: 350)))  // crop (1000, 750, 2000, 1500), scale 0.4
        try s.handle(.mode(.pan))
        try drag(&s, [Point(x: 400, y: 300), Point(x: 440, y: 320)])  // the picture moves right/down 40, 20
        expectRect(s.state.crop, Rect(x: 900, y: 700, width: 2000, height: 1500))
        expectRect(s.viewState.cropBox, Rect(x: 50, y: 50, width: 800, height: 600))
        try s.handle(.mode(.crop))
        try drag(&s, [Point(x: 400, y: 300), Point(x: 360, y: 300)], intent: .pan)
        expectRect(s.state.crop, Rect(x: 1000, y: 700, width: 2000, height: 1500))
        // In crop mode the same drag would have moved the box the other way.
        try drag(&s, [Point(x: 400, y: 300), Point(x: 360, y: 300)])
        expectRect(s.state.crop, Rect(x: 900, y: 700, width: 2000, height: 1500))
    }

    @Test("a slider drag is one undo step with the grid showing; ±0.1° steps return exactly to 0")
    func straighten() throws {
        var s = try session()
        for angle in [1.0, 4.0, 9.5] {
            let v = try s.handle(.straighten(angle: angle, isFinal: false))
            #expect(v.showsGrid && v.gesture == .straightening && v.angle == angle)
        }
        let end = try s.handle(.straighten(angle: 10, isFinal: true))
        #expect(!end.showsGrid && end.gesture == .none && end.angle == 10 && end.canUndo)
        #expect(Invariants.all(s.state) == nil)
        try s.handle(.undo)
        #expect(s.state.straightenAngle == 0 && !s.canUndo)
        for _ in 0..<3 { try s.handle(.straightenBy(delta: 0.1)) }
        #expect(s.state.straightenAngle == 0.3)
        for _ in 0..<3 { try s.handle(.straightenBy(delta: -0.1)) }
        #expect(s.state == (try CropState(sourceSize: PixelSize(validWidth: 4000, height: 3000), minimumCropSize: 10)))
    }

    @Test("discrete controls are one undo step each, undone in reverse order")
    func discreteControls() throws {
        var s = try session()
        var states = [s.state]
        let events: [CropEvent] = [
            .aspect(try .ratio(2, 3)), .rotate(.clockwise, aspectPolicy: .followPicture), .flip(.vertical),
            .swapAspect, .rotate(.counterClockwise, aspectPolicy: .keepOutputRatio), .nudge(dx: 1, dy: 0),
            .nudge(dx: 0, dy: 1), .resetCrop, .reset,
        ]
        for event in events {
            try s.handle(event)
            if case .nudge(_, 1) = event { states.removeLast() }  // consecutive nudges merge into one step
            states.append(s.state)
        }
        #expect(s.state.aspectLock == .free)
        for expected in states.reversed().dropFirst() {
            try s.handle(.undo)
            #expect(s.state == expected)
        }
        #expect(!s.canUndo)
        try s.handle(.undo)  // nothing left: a no-op
        #expect(s.state == states[0])
    }

    @Test("invalid events throw and change nothing; cancel undoes the gesture; stray pointers are ignored")
    func robustness() throws {
        var s = try session()
        try s.handle(.zoom(factor: 2, anchor: Point(x: 450, y: 350)))
        let before = s.viewState
        for event: CropEvent in [
            .pointerDown(id: 1, location: Point(x: .nan, y: 0), intent: .auto), .straighten(angle: 50, isFinal: true),
            .zoom(factor: 0, anchor: .zero), .zoom(factor: 2, anchor: Point(x: .infinity, y: 0)),
            .nudge(dx: .nan, dy: 0), .viewport(size: Size(width: 80, height: 80), insets: EdgeInsets(all: 50)),
            .straightenBy(delta: .infinity),
        ] {
            #expect(throws: GeometryError.self) { try s.handle(event) }
            #expect(s.viewState == before)
        }
        try s.handle(.pointerMove(id: 9, location: Point(x: 1, y: 1)))  // never went down
        try s.handle(.pointerDown(id: 1, location: Point(x: 400, y: 300), intent: .auto))
        try s.handle(.pointerMove(id: 1, location: Point(x: 440, y: 300)))
        #expect(s.state != before.recipe.applied)
        try s.handle(.pointerCancel(id: 1))
        #expect(
            s.viewState.cropBox == before.cropBox && s.state.crop == Rect(x: 1000, y: 750, width: 2000, height: 1500))
        // A third finger is ignored.
        try s.handle(.pointerDown(id: 1, location: Point(x: 300, y: 300), intent: .auto))
        try s.handle(.pointerDown(id: 2, location: Point(x: 500, y: 300), intent: .auto))
        try s.handle(.pointerDown(id: 3, location: Point(x: 450, y: 400), intent: .auto))
        try s.handle(.pointerMove(id: 3, location: Point(x: 10, y: 10)))
        #expect(s.state.crop == Rect(x: 1000, y: 750, width: 2000, height: 1500))
    }

    @Test("the image transform draws the crop region exactly under the crop box, straightened and turned")
    func imageTransformMatchesBox() throws {
        var state = try CropState(
            sourceSize: PixelSize(validWidth: 3000, height: 4000), orientation: .rightTop, minimumCropSize: 10)
        try state.setStraightenAngle(-8)
        state.flip(.horizontal)
        state.rotate(.clockwise, aspectPolicy: .followPicture)
        try state.setCrop(Rect(x: 500, y: 700, width: 1200, height: 900))
        let s = try session(state, preview: PixelSize(validWidth: 750, height: 1000))
        let v = s.viewState
        let toStored = state.orientation.inverseTransform(storedSize: state.sourceSize.size)
        for (corner, boxCorner) in zip(state.crop.corners, v.cropBox.corners) {
            let stored = toStored.apply(to: state.uprightPicture.toPicture(corner))
            let preview = Point(x: stored.x * 0.25, y: stored.y * 0.25)
            #expect(v.imageTransform.apply(to: preview).isApproximatelyEqual(to: boxCorner, tolerance: 1e-6))
        }
    }

    @Test("the history keeps at most its limit")
    func historyLimit() throws {
        var s = try session()
        for i in 0..<60 { try s.handle(.flip(i % 2 == 0 ? .horizontal : .vertical)) }
        var undone = 0
        while s.canUndo {
            try s.handle(.undo)
            undone += 1
        }
        #expect(undone == 50)
    }
}

extension Recipe {
    /// The recipe applied to the test picture (for comparisons).
    fileprivate var applied: CropState {
        (try? CropState(recipe: self, sourceSize: PixelSize(validWidth: 4000, height: 3000), minimumCropSize: 10))!
    }
}
