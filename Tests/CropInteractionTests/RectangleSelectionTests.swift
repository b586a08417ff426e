import CropGeometry
import CropTestSupport
import Testing

@testable import CropEngine
@testable import CropInteraction

/// Scripted touch sequences. The 400×300 image is shown aspect-fit in a 200×200 view: scale ½, frame
/// (0, 25, 200, 150), so view (x, y) is image (2x, 2(y − 25)).
@Suite("RectangleSelection")
struct RectangleSelectionTests {
    func model(_ lock: AspectLock = .free, mode: ContentMode = .aspectFit, minimum: Double = 1) throws
        -> RectangleSelection
    {
        try RectangleSelection(
            imageSize: PixelSize(validWidth: 400, height: 300), viewBounds: Rect(x: 0, y: 0, width: 200, height: 200),
            contentMode: mode,
            aspectLock: lock, configuration: .init(touchRadius: 10, tapSlop: 3, minimumSize: minimum))
    }

    func drag(_ m: inout RectangleSelection, _ points: [Point]) throws {
        try m.handle(.began(points[0]))
        for p in points.dropFirst() { try m.handle(.moved(p)) }
        try m.handle(.ended(points.last!))
    }

    @Test("dragging draws a rectangle anchored at the press in each of the four quadrants, in full-resolution pixels")
    func fourQuadrants() throws {
        let start = Point(x: 100, y: 100)  // image (200, 150)
        for (end, expected) in [
            (Point(x: 150, y: 130), Rect(x: 200, y: 150, width: 100, height: 60)),
            (Point(x: 50, y: 130), Rect(x: 100, y: 150, width: 100, height: 60)),
            (Point(x: 50, y: 70), Rect(x: 100, y: 90, width: 100, height: 60)),
            (Point(x: 150, y: 70), Rect(x: 200, y: 90, width: 100, height: 60)),
        ] {
            var m = try model()
            // Wander through the other quadrants first: only the final position counts.
            try drag(&m, [start, Point(x: 20, y: 180), Point(x: 190, y: 30), end])
            #expect(m.selection == expected)
            #expect(m.interaction == .idle)
        }
    }

    @Test("a drawn rectangle is clamped to the image's frame in the view")
    func drawClamped() throws {
        var m = try model()
        try drag(&m, [Point(x: 150, y: 10), Point(x: 250, y: 250)])  // starts above the image, ends off the view
        #expect(m.selection == Rect(x: 300, y: 0, width: 100, height: 300))
    }

    @Test("dragging inside moves the rectangle from the drag's start, stopping at the image edges")
    func move() throws {
        var m = try model()
        try m.setSelection(Rect(x: 100, y: 100, width: 100, height: 50))
        // Many small moves then back to a net (+10, +5) view points: (+20, +10) image pixels.
        try drag(&m, [Point(x: 75, y: 87), Point(x: 76, y: 88), Point(x: 120, y: 60), Point(x: 85, y: 92)])
        #expect(m.selection == Rect(x: 120, y: 110, width: 100, height: 50))
        try drag(&m, [Point(x: 85, y: 92), Point(x: 500, y: -500)])
        #expect(m.selection == Rect(x: 300, y: 0, width: 100, height: 50))
        // Returning to the start restores exactly.
        try m.handle(.began(Point(x: 175, y: 37)))
        try m.handle(.moved(Point(x: 10, y: 190)))
        try m.handle(.ended(Point(x: 175, y: 37)))
        #expect(m.selection == Rect(x: 300, y: 0, width: 100, height: 50))
    }

    @Test("a tap outside clears the selection; a tap inside keeps it; a cancelled drag restores it")
    func tapAndCancel() throws {
        var m = try model()
        let r = Rect(x: 100, y: 100, width: 100, height: 50)
        try m.setSelection(r)
        try drag(&m, [Point(x: 75, y: 87), Point(x: 76, y: 88)])  // within the tap slop, inside: a tap
        #expect(m.selection == r)
        try m.handle(.began(Point(x: 75, y: 87)))
        try m.handle(.moved(Point(x: 100, y: 100)))
        try m.handle(.cancelled)
        #expect(m.selection == r)
        try drag(&m, [Point(x: 180, y: 150), Point(x: 181, y: 151)])
        #expect(m.selection == nil)
    }

    @Test("each handle resizes with the opposite side fixed, within the touch radius", arguments: CropHandle.allCases)
    func handles(_ handle: CropHandle) throws {
        var m = try model()
        let r = Rect(x: 100, y: 100, width: 200, height: 100)  // view (50, 75, 100, 50)
        try m.setSelection(r)
        let viewBox = try #require(m.selectionInView)
        // Press a few points off the handle (within the radius), drag 10 view points outwards.
        let press = handle.position(in: viewBox) + Point(x: 3, y: -2)
        #expect(m.hitTest(press) == .handle(handle))
        let out = Point(x: Double(handle.horizontalDirection) * 10, y: Double(handle.verticalDirection) * 10)
        try drag(&m, [press, press + out])
        let grow = 20.0  // image pixels
        let expected = Rect(
            x: r.minX - (handle.horizontalDirection < 0 ? grow : 0),
            y: r.minY - (handle.verticalDirection < 0 ? grow : 0),
            width: r.width + (handle.horizontalDirection != 0 ? grow : 0),
            height: r.height + (handle.verticalDirection != 0 ? grow : 0))
        #expect(m.selection == expected)
    }

    @Test("the aspect lock and the minimum size apply to drawing and resizing")
    func lockAndMinimum() throws {
        var m = try model(.square, minimum: 40)
        try drag(&m, [Point(x: 100, y: 100), Point(x: 150, y: 110)])
        #expect(m.selection == Rect(x: 200, y: 150, width: 100, height: 100))
        try drag(&m, [Point(x: 20, y: 40), Point(x: 22, y: 44)])  // a tiny drag still gives the minimum
        let tiny = try #require(m.selection)
        #expect(tiny.width == 40 && tiny.height == 40)
        m.setAspectLock(try .ratio(16, 9))
        let wide = try #require(m.selection)
        #expect(wide.size == Size(width: 400, height: 225))
    }

    @Test("aspect-fill clamps to the visible part of the image; scale-to-fill maps each axis")
    func contentModes() throws {
        var fill = try model(mode: .aspectFill)  // scale 2/3: the image is 266.7 × 200, 133.3 hidden
        #expect(fill.visibleImageRect?.isApproximatelyEqual(to: Rect(x: 50, y: 0, width: 300, height: 300)) == true)
        try drag(&fill, [Point(x: 5, y: 5), Point(x: -50, y: -50)])
        let r = try #require(fill.selection)
        #expect(r.isApproximatelyEqual(to: Rect(x: 50, y: 0, width: 7.5, height: 7.5), tolerance: 1e-9))
        var stretch = try model(mode: .scaleToFill)  // x ½, y ⅔
        try drag(&stretch, [Point(x: 0, y: 0), Point(x: 100, y: 100)])
        #expect(stretch.selection?.isApproximatelyEqual(to: Rect(x: 0, y: 0, width: 200, height: 150)) == true)
    }

    @Test("NaN input throws and changes nothing; invalid setup is rejected")
    func rejectsInvalidInput() throws {
        var m = try model()
        try m.setSelection(Rect(x: 1, y: 1, width: 10, height: 10))
        let before = m
        #expect(throws: GeometryError.self) { try m.handle(.began(Point(x: .nan, y: 0))) }
        #expect(m == before)
        #expect(throws: GeometryError.self) {
            try RectangleSelection(
                imageSize: PixelSize(validWidth: 4, height: 4), viewBounds: Rect(x: 0, y: 0, width: -1, height: 1))
        }
        #expect(throws: GeometryError.self) {
            try RectangleSelection(
                imageSize: PixelSize(validWidth: 4, height: 4), viewBounds: Rect(x: 0, y: 0, width: 10, height: 10),
                configuration: .init(minimumSize: .nan))
        }
    }
}

@Suite("ZoomViewport")
struct ZoomViewportTests {
    /// A 400×300 image under a 200×200 frame at (50, 50) in a 300×300 viewport.
    func viewport(_ mode: ZoomViewport.MinimumZoom = .cover) throws -> ZoomViewport {
        try ZoomViewport(
            imageSize: PixelSize(validWidth: 400, height: 300), viewportSize: Size(width: 300, height: 300),
            cropFrame: Rect(x: 50, y: 50, width: 200, height: 200), minimumZoom: mode, maximumScale: 4)
    }

    @Test("the minimum zoom covers or fits the frame, centred")
    func minimumZoom() throws {
        let cover = try viewport(.cover)
        #expect(cover.zoomScale == 2.0 / 3.0)
        #expect(
            cover.imageFrame.isApproximatelyEqual(
                to: Rect(
                    x: 16.666666666666668, y: 50, width: 266.6666666666667,
                    height: 200), tolerance: 1e-9))
        #expect(cover.cropRect.isApproximatelyEqual(to: Rect(x: 50, y: 0, width: 300, height: 300), tolerance: 1e-9))
        let fit = try viewport(.fit)
        #expect(fit.zoomScale == 0.5)
        // Smaller than the frame vertically: centred, like a scroll view's content inset.
        #expect(fit.imageFrame == Rect(x: 50, y: 75, width: 200, height: 150))
        #expect(fit.cropRect == Rect(x: 0, y: 0, width: 400, height: 300))
    }

    @Test("a pinch keeps the image point under its anchor fixed, computed from the gesture's start")
    func pinchAnchoring() throws {
        var v = try viewport()
        let anchor = Point(x: 120, y: 110)
        let imagePoint = try #require(v.imageToView.inverted()).apply(to: anchor)
        try v.handle(.began(anchor: anchor))
        try v.handle(.changed(translation: .zero, scale: 1.7))
        try v.handle(.changed(translation: .zero, scale: 2.5))
        #expect(v.zoomScale == 2.0 / 3.0 * 2.5)
        #expect(v.imageToView.apply(to: imagePoint).isApproximatelyEqual(to: anchor, tolerance: 1e-9))
        // Fingers moving together: the point follows the centroid.
        try v.handle(.changed(translation: Point(x: 10, y: -5), scale: 2.5))
        #expect(
            v.imageToView.apply(to: imagePoint).isApproximatelyEqual(
                to: anchor + Point(x: 10, y: -5),
                tolerance: 1e-9))
        try v.handle(.ended)
        // A wheel zoom about another point.
        let other = Point(x: 200, y: 200), p2 = try #require(v.imageToView.inverted()).apply(to: other)
        try v.handle(.zoom(factor: 1.2, anchor: other))
        #expect(v.imageToView.apply(to: p2).isApproximatelyEqual(to: other, tolerance: 1e-9))
    }

    @Test("zoom stops at its limits and the image never leaves the frame uncovered")
    func limitsAndPanning() throws {
        var v = try viewport()
        try v.zoom(by: 100, anchor: Point(x: 150, y: 150))
        #expect(v.zoomScale == 4)
        try v.zoom(by: 0.0001, anchor: Point(x: 0, y: 0))
        #expect(v.zoomScale == 2.0 / 3.0)
        try v.pan(by: Point(x: 500, y: 500))
        #expect(v.imageOrigin == Point(x: 50, y: 50))  // left and top edges meet the frame's
        try v.pan(by: Point(x: -5000, y: 0))
        #expect(v.imageFrame.maxX == 250)
        #expect(v.cropRect.isApproximatelyEqual(to: Rect(x: 100, y: 0, width: 300, height: 300), tolerance: 1e-9))
        // A cancelled gesture returns to where it began.
        let before = v
        try v.handle(.began(anchor: Point(x: 100, y: 100)))
        try v.handle(.changed(translation: Point(x: 40, y: 0), scale: 2))
        try v.handle(.cancelled)
        #expect(v == before)
    }

    @Test("showing a rect and resizing the viewport keep the image under the frame")
    func showAndResize() throws {
        var v = try viewport()
        try v.show(Rect(x: 100, y: 100, width: 100, height: 100))
        #expect(v.zoomScale == 2)
        #expect(v.cropRect.isApproximatelyEqual(to: Rect(x: 100, y: 100, width: 100, height: 100), tolerance: 1e-9))
        try v.resize(
            viewportSize: Size(width: 600, height: 600), cropFrame: Rect(x: 100, y: 100, width: 400, height: 400))
        #expect(v.zoomScale == 4)
        #expect(v.cropRect.isApproximatelyEqual(to: Rect(x: 100, y: 100, width: 100, height: 100), tolerance: 1e-9))
        #expect(throws: GeometryError.self) { try v.zoom(by: .nan, anchor: .zero) }
        #expect(throws: GeometryError.self) { try v.handle(.changed(translation: .zero, scale: -1)) }
    }
}
