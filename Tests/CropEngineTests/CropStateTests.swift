import CropGeometry
import CropTestSupport
import Testing

@testable import CropEngine

@Suite("CropState operations")
struct CropStateTests {
    func state(_ w: Int = 4000, _ h: Int = 3000, minimum: Double = 1) throws -> CropState {
        try CropState(sourceSize: PixelSize(validWidth: w, height: h), minimumCropSize: minimum)
    }

    func expectRect(
        _ actual: Rect, _ expected: Rect, tolerance: Double = 1e-9,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            actual.isApproximatelyEqual(to: expected, tolerance: tolerance), "\(actual) ≠ \(expected)",
            sourceLocation: sourceLocation)
    }

    // MARK: Validation

    @Test("invalid inputs are rejected and leave the state unchanged")
    func rejectsInvalidInput() throws {
        // A denormal minimum side (FuzzNumericEvents found 2.4e-314) made a zoom overflow into a NaN transform.
        for bad in [Double.nan, .infinity, -1, 0, 2.4e-314, .leastNonzeroMagnitude, 9.9e-7] {
            #expect(throws: GeometryError.self) {
                try CropState(sourceSize: PixelSize(validWidth: 10, height: 10), minimumCropSize: bad)
            }
        }
        #expect(throws: GeometryError.self) { try CropState(sourceSize: PixelSize(validWidth: 1 << 31, height: 10)) }
        #expect(
            try CropState(sourceSize: PixelSize(validWidth: 10, height: 10), minimumCropSize: 1e-6).minimumCropSize
                == 1e-6)
        var s = try state()
        try s.setCrop(Rect(x: 100, y: 100, width: 500, height: 400))
        let before = s
        let nan = Double.nan
        #expect(throws: GeometryError.self) { try s.setStraightenAngle(nan) }
        #expect(throws: GeometryError.self) { try s.setStraightenAngle(45.5) }
        #expect(throws: GeometryError.self) { try s.setStraightenAngle(-.infinity) }
        #expect(throws: GeometryError.self) { try s.straighten(by: .infinity) }
        #expect(throws: GeometryError.self) { try s.moveCrop(by: Point(x: nan, y: 0)) }
        #expect(throws: GeometryError.self) { try s.panPicture(by: Point(x: 0, y: .infinity)) }
        #expect(throws: GeometryError.self) { try s.zoom(by: 0, anchor: .zero) }
        #expect(throws: GeometryError.self) { try s.zoom(by: -2, anchor: .zero) }
        #expect(throws: GeometryError.self) { try s.zoom(by: nan, anchor: .zero) }
        #expect(throws: GeometryError.self) { try s.zoom(by: 2, anchor: Point(x: nan, y: 1)) }
        #expect(throws: GeometryError.self) { try s.resizeCrop(.top, to: Point(x: 1, y: nan)) }
        #expect(throws: GeometryError.self) { try s.drawCrop(from: Point(x: nan, y: 0), to: .zero) }
        #expect(throws: GeometryError.self) { try s.setCrop(Rect(x: 0, y: 0, width: -10, height: 10)) }
        #expect(throws: GeometryError.self) { try s.setCrop(Rect(x: nan, y: 0, width: 10, height: 10)) }
        #expect(throws: GeometryError.self) { try s.setCrop(Rect(x: 0, y: 0, width: 0, height: 10)) }
        #expect(s == before)
    }

    // MARK: Straighten

    @Test("straightening shrinks the whole picture by the closed-form minimal zoom, about its centre")
    func straightenMinimalZoom() throws {
        var s = try state()
        try s.setStraightenAngle(10)
        let (c, sn) = (cos(10 * Double.pi / 180), sin(10 * Double.pi / 180))
        let scale = min(2000 / (2000 * c + 1500 * sn), 1500 / (2000 * sn + 1500 * c))
        expectRect(s.crop, Rect(center: Point(x: 2000, y: 1500), size: Size(width: 4000 * scale, height: 3000 * scale)))
        #expect(abs(scale - 0.822_140) < 1e-6)
        #expect(s.wantedCrop == Rect(x: 0, y: 0, width: 4000, height: 3000))
        // Two corners touch the picture's top and bottom edges exactly, none is outside.
        #expect(s.cropIsInsidePicture(tolerance: 1e-9))
        #expect(
            !s.uprightPicture.contains(
                Rect(center: s.crop.center, size: s.crop.size * 1.000_001),
                tolerance: 1e-9))
        try s.setStraightenAngle(0)
        #expect(s == (try state()))
    }

    @Test("straighten steps stop at ±45°")
    func straightenBy() throws {
        var s = try state()
        try s.straighten(by: 30)
        try s.straighten(by: 30)
        #expect(s.straightenAngle == 45)
        try s.straighten(by: -100)
        #expect(s.straightenAngle == -45)
    }

    @Test("a flip changes the straighten angle's sign on screen; flipping back restores it")
    func flipNegatesAngle() throws {
        var s = try state()
        try s.setStraightenAngle(12)
        try s.setCrop(Rect(x: 600, y: 700, width: 1200, height: 900))
        let before = s
        s.flip(.horizontal)
        #expect(s.straightenAngle == -12)
        expectRect(s.crop, Rect(x: 4000 - 1800, y: 700, width: 1200, height: 900))
        s.flip(.horizontal)
        #expect(s == before)
    }

    // MARK: Crop gestures

    @Test("moving stops at the edges and slides along them")
    func moveSlides() throws {
        var s = try state()
        try s.setCrop(Rect(x: 0, y: 0, width: 1000, height: 1000))
        try s.moveCrop(by: Point(x: -500, y: 300))
        #expect(s.crop == Rect(x: 0, y: 300, width: 1000, height: 1000))
        try s.moveCrop(by: Point(x: 10_000, y: 10_000))
        #expect(s.crop == Rect(x: 3000, y: 2000, width: 1000, height: 1000))
        try s.panPicture(by: Point(x: 200, y: 100))
        #expect(s.crop == Rect(x: 2800, y: 1900, width: 1000, height: 1000))
    }

    @Test("zoom keeps the anchor and stays between the minimum and the largest crop")
    func zoom() throws {
        var s = try state(minimum: 32)
        try s.zoom(by: 2, anchor: Point(x: 1000, y: 1000))
        expectRect(s.crop, Rect(x: 500, y: 500, width: 2000, height: 1500))
        try s.zoom(by: 0.1, anchor: Point(x: 0, y: 0))
        expectRect(s.crop, Rect(x: 0, y: 0, width: 4000, height: 3000))
        try s.zoom(by: 1_000_000, anchor: Point(x: 2000, y: 1500))
        #expect(abs(s.crop.height - 32) < 1e-9 && abs(s.crop.width - 32 * 4 / 3) < 1e-9)
    }

    @Test("each handle resizes with the opposite side fixed", arguments: CropHandle.allCases)
    func resizeHandles(_ handle: CropHandle) throws {
        var s = try state()
        let start = Rect(x: 1000, y: 1000, width: 1000, height: 1000)
        try s.setCrop(start)
        // Drag the handle 300 px outwards on each axis it moves.
        let dx = Double(handle.horizontalDirection) * 300, dy = Double(handle.verticalDirection) * 300
        let target = handle.position(in: start) + Point(x: dx, y: dy)
        try s.resizeCrop(handle, to: target)
        let expected = Rect(
            x: handle.horizontalDirection < 0 ? 700 : 1000, y: handle.verticalDirection < 0 ? 700 : 1000,
            width: handle.horizontalDirection == 0 ? 1000 : 1300, height: handle.verticalDirection == 0 ? 1000 : 1300)
        expectRect(s.crop, expected)
        // Past the opposite side it stops at the minimum size instead of flipping over.
        try s.setCrop(start)
        try s.resizeCrop(
            handle,
            to: handle.position(in: start)
                + Point(
                    x: -5000 * Double(handle.horizontalDirection),
                    y: -5000 * Double(handle.verticalDirection)))
        if handle.horizontalDirection != 0 { #expect(abs(s.crop.width - 1) < 1e-9) }
        if handle.verticalDirection != 0 { #expect(abs(s.crop.height - 1) < 1e-9) }
    }

    @Test("locked resizing keeps the ratio: an edge about the opposite edge's midpoint, a corner to the farther axis")
    func lockedResize() throws {
        var s = try state()
        s.setAspectLock(.square)
        try s.setCrop(Rect(x: 1000, y: 1000, width: 1000, height: 1000))
        try s.resizeCrop(.right, to: Point(x: 2500, y: 0))
        expectRect(s.crop, Rect(x: 1000, y: 750, width: 1500, height: 1500))
        try s.setCrop(Rect(x: 1000, y: 1000, width: 1000, height: 1000))
        try s.resizeCrop(.bottomRight, to: Point(x: 2500, y: 2200))
        expectRect(s.crop, Rect(x: 1000, y: 1000, width: 1500, height: 1500))
        // Limited by the picture's bottom edge: the largest square that fits.
        try s.resizeCrop(.bottomRight, to: Point(x: 9000, y: 9000))
        expectRect(s.crop, Rect(x: 1000, y: 1000, width: 2000, height: 2000))
        #expect(s.outputSize == PixelSize(validWidth: 2000, height: 2000))
    }

    @Test("free corner resizing clamps each axis on its own")
    func freeResizeClampsPerAxis() throws {
        var s = try state()
        try s.setCrop(Rect(x: 1000, y: 1000, width: 1000, height: 1000))
        try s.resizeCrop(.bottomRight, to: Point(x: 9000, y: 1800))
        #expect(s.crop == Rect(x: 1000, y: 1000, width: 3000, height: 800))
    }

    @Test("a new crop is drawn in whichever quadrant the pointer goes, from a start clamped into the picture")
    func drawQuadrants() throws {
        var s = try state()
        let start = Point(x: 2000, y: 1500)
        for (end, expected) in [
            (Point(x: 2500, y: 1800), Rect(x: 2000, y: 1500, width: 500, height: 300)),
            (Point(x: 1500, y: 1800), Rect(x: 1500, y: 1500, width: 500, height: 300)),
            (Point(x: 1500, y: 1200), Rect(x: 1500, y: 1200, width: 500, height: 300)),
            (Point(x: 2500, y: 1200), Rect(x: 2000, y: 1200, width: 500, height: 300)),
        ] {
            try s.drawCrop(from: start, to: end)
            #expect(s.crop == expected)
        }
        try s.drawCrop(from: Point(x: -100, y: -100), to: Point(x: 500, y: 400))
        #expect(s.crop == Rect(x: 0, y: 0, width: 500, height: 400))
        s.setAspectLock(try .ratio(16, 9))
        try s.drawCrop(from: start, to: Point(x: 1000, y: 1400))
        expectRect(s.crop, Rect(x: 1000, y: 1500 - 562.5, width: 1000, height: 562.5))
    }

    // MARK: Turns, flips, aspect

    @Test("a quarter turn keeps the same region selected")
    func rotateKeepsRegion() throws {
        var s = try state()
        try s.setCrop(Rect(x: 0, y: 0, width: 1000, height: 500))
        s.rotate(.clockwise, aspectPolicy: .followPicture)
        #expect(s.uprightSize == PixelSize(validWidth: 3000, height: 4000))
        #expect(s.crop == Rect(x: 2500, y: 0, width: 500, height: 1000))
        #expect(s.quarterTurns == 1 && !s.isFlipped)
        s.rotate(.counterClockwise, aspectPolicy: .followPicture)
        #expect(
            s
                == (try {
                    var t = try state()
                    try t.setCrop(Rect(x: 0, y: 0, width: 1000, height: 500))
                    return t
                }()))
    }

    @Test("turn policies: followPicture turns a 3:2 lock to 2:3, keepOutputRatio keeps 3:2 at the same area")
    func rotationPolicies() throws {
        var s = try state(6000, 4000)
        s.setAspectLock(try .ratio(3, 2))
        try s.zoom(by: 2, anchor: Point(x: 3000, y: 2000))
        expectRect(s.crop, Rect(x: 1500, y: 1000, width: 3000, height: 2000))
        var follow = s
        follow.rotate(.clockwise, aspectPolicy: .followPicture)
        #expect(follow.aspectLock == (try .ratio(2, 3)))
        expectRect(follow.crop, Rect(x: 1000, y: 1500, width: 2000, height: 3000))
        var keep = s
        keep.rotate(.clockwise, aspectPolicy: .keepOutputRatio)
        #expect(keep.aspectLock == (try .ratio(3, 2)))
        expectRect(keep.crop, Rect(x: 500, y: 2000, width: 3000, height: 2000), tolerance: 1e-6)
        // `.original` becomes the explicit pre-turn ratio when the output ratio is kept.
        var original = try state(6000, 4000)
        original.setAspectLock(.original)
        original.rotate(.counterClockwise, aspectPolicy: .keepOutputRatio)
        #expect(original.aspectLock == (try .ratio(3, 2)))
        #expect(original.outputSize.width * 2 == original.outputSize.height * 3)
    }

    @Test("setting a lock picks the largest crop of that ratio, centred on the current crop as far as it fits")
    func setAspectLock() throws {
        var s = try state()
        s.setAspectLock(.square)
        #expect(s.crop == Rect(x: 500, y: 0, width: 3000, height: 3000))
        s.setAspectLock(.free)
        #expect(s.crop == Rect(x: 500, y: 0, width: 3000, height: 3000))
        try s.setCrop(Rect(x: 0, y: 0, width: 1000, height: 1000))
        s.setAspectLock(try .ratio(16, 9))
        #expect(s.crop == Rect(x: 0, y: 0, width: 4000, height: 2250))
        s.swapAspect()
        #expect(s.aspectLock == (try .ratio(9, 16)))
        #expect(s.outputSize.width * 16 == s.outputSize.height * 9)
        s.setAspectLock(.original)
        #expect(s.outputSize == PixelSize(validWidth: 4000, height: 3000))
    }

    @Test("reset crop keeps angle, turns and lock; reset goes back to the untouched state")
    func resets() throws {
        var s = try state()
        s.setAspectLock(.square)
        try s.setStraightenAngle(5)
        s.flip(.vertical)
        try s.setCrop(Rect(x: 10, y: 10, width: 100, height: 100))
        s.resetCrop()
        #expect(s.wantedCrop == Rect(x: 500, y: 0, width: 3000, height: 3000))
        #expect(s.straightenAngle == -5 && s.aspectLock == .square)
        s.reset()
        #expect(s == (try state()))
        #expect(s.isIdentity)
    }

    @Test("the minimum size is capped by the largest square a tiny or steep picture can host")
    func effectiveMinimum() throws {
        var s = try CropState(sourceSize: PixelSize(validWidth: 10, height: 3), minimumCropSize: 50)
        #expect(s.effectiveMinimumCropSize == 3)
        try s.setStraightenAngle(45)
        #expect(abs(s.effectiveMinimumCropSize - 3 / 2.squareRoot()) < 1e-12)
        // The 10:3 crop cannot reach the minimum at 45°: it is the largest of its proportions, and zooming in
        // cannot shrink it further.
        let before = s.crop
        #expect(abs(s.uprightPicture.largestScale(for: before.size) - 1) < 1e-9)
        try s.zoom(by: 100, anchor: Point(x: 5, y: 1.5))
        #expect(s.crop.isApproximatelyEqual(to: before, tolerance: 1e-9))
        // A square crop can: zooming in stops at the minimum.
        try s.setCrop(Rect(x: 4, y: 1, width: 1, height: 1))
        try s.zoom(by: 100, anchor: Point(x: 5, y: 1.5))
        #expect(abs(s.crop.width - s.effectiveMinimumCropSize) < 1e-9)
        #expect(Invariants.all(s) == nil)
    }

    @Test("a crop filling the picture cannot move; a smaller one can")
    func movability() throws {
        var s = try state()
        #expect(!s.canMoveCrop())
        try s.setCrop(Rect(x: 0, y: 0, width: 4000, height: 2000))
        #expect(s.canMoveCrop())
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
