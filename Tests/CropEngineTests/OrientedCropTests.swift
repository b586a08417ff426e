import CropGeometry
import CropTestSupport
import Testing

@testable import CropEngine

/// `CropState.setCrop(orientedRect:)`: a rectangle chosen on the picture as shown becomes the crop of a turned,
/// flipped or straightened state, centred on the same content, over seeded random states.
@Suite("Setting the crop from a rectangle of the picture as shown")
struct OrientedCropTests {
    /// A random rectangle inside the oriented picture of `s`, at least 1% of it on each side.
    static func rect(in s: CropState, _ rng: inout SplitMix64) -> Rect {
        let size = s.orientedSize.size
        let w = rng.double(size.width / 100...size.width), h = rng.double(size.height / 100...size.height)
        return Rect(x: rng.double(0...(size.width - w)), y: rng.double(0...(size.height - h)), width: w, height: h)
    }

    @Test("2,000 random states: turns, flip, angle and lock kept, centred on the rectangle's content, every invariant")
    func randomStates() throws {
        var rng = SplitMix64(seed: 41)
        for i in 0..<2000 {
            var s = try CopyCropTests.edited(&rng)
            let before = s, rect = Self.rect(in: s, &rng)
            try s.setCrop(orientedRect: rect)
            let context = "case \(i): \(rect) on \(before)"
            #expect(Invariants.all(s) == nil, "\(context): \(Invariants.all(s) ?? "")")
            #expect(s.userOrientation == before.userOrientation && s.aspectLock == before.aspectLock, "\(context)")
            #expect(s.straightenAngle == before.straightenAngle, "\(context)")
            // The content under the crop's centre is the rectangle's centre, unless the minimum size had to move it.
            let atMinimum = min(s.crop.width, s.crop.height) <= s.effectiveMinimumCropSize + 1e-6
            let centre = s.userTransform.apply(to: rect.center)
            #expect(
                atMinimum || s.cropContentCenter.isApproximatelyEqual(to: centre, tolerance: 1e-6),
                "\(context): content centre \(s.cropContentCenter), wanted \(centre)")
            // Never larger than the rectangle (in upright axes), unless grown to the minimum.
            let shown = s.userOrientation.swapsDimensions ? rect.size.transposed : rect.size
            #expect(
                atMinimum || (s.crop.width <= shown.width + 1e-6 && s.crop.height <= shown.height + 1e-6),
                "\(context): crop \(s.crop.size) larger than \(shown)")
            if Invariants.all(s) != nil { return }
        }
    }

    @Test("unturned and level, a rectangle inside the picture becomes the crop exactly; a lock takes its largest part")
    func levelIsExact() throws {
        var s = try CropState(sourceSize: PixelSize(validWidth: 3000, height: 2000))
        try s.setCrop(orientedRect: Rect(x: 100, y: 200, width: 1000, height: 700))
        #expect(s.crop == Rect(x: 100, y: 200, width: 1000, height: 700))
        s.setAspectLock(.ratio(try AspectRatio(1, 1)))
        try s.setCrop(orientedRect: Rect(x: 100, y: 200, width: 1000, height: 700))
        #expect(s.crop.isApproximatelyEqual(to: Rect(x: 250, y: 200, width: 700, height: 700), tolerance: 1e-9))
    }

    @Test("on a turned and flipped picture, the crop shows the same content as on the untouched one, turned with it")
    func turnedShowsSameContent() throws {
        let rect = Rect(x: 2000, y: 300, width: 800, height: 1200)
        for turns in 0..<4 {
            for flip in [false, true] {
                var untouched = try CropState(sourceSize: PixelSize(validWidth: 3000, height: 2000))
                try untouched.setCrop(orientedRect: rect)
                var edited = try CropState(sourceSize: PixelSize(validWidth: 3000, height: 2000))
                for _ in 0..<turns { edited.rotate(.clockwise, aspectPolicy: .followPicture) }
                if flip { edited.flip(.horizontal) }
                try edited.setCrop(orientedRect: rect)
                // Turning and flipping the untouched state afterwards must give the same crop.
                for _ in 0..<turns { untouched.rotate(.clockwise, aspectPolicy: .followPicture) }
                if flip { untouched.flip(.horizontal) }
                #expect(
                    edited.crop.isApproximatelyEqual(to: untouched.crop, tolerance: 1e-9),
                    "\(turns) turns, flip \(flip): \(edited.crop) vs \(untouched.crop)")
            }
        }
    }

    @Test("straightened, the crop keeps the rectangle's centre and shrinks about it to fit, with no fill")
    func straightenedShrinksAboutCentre() throws {
        var s = try CropState(sourceSize: PixelSize(validWidth: 3000, height: 2000))
        s.setAspectLock(.ratio(try AspectRatio(1, 1)))
        try s.setStraightenAngle(8)
        let rect = Rect(x: 0, y: 0, width: 2000, height: 2000)  // the left square: reaches a corner when turned
        try s.setCrop(orientedRect: rect)
        #expect(s.cropContentCenter.isApproximatelyEqual(to: Point(x: 1000, y: 1000), tolerance: 1e-6))
        #expect(s.crop.width < 2000 && abs(s.crop.width - s.crop.height) < 1e-6)
        #expect(Invariants.all(s) == nil)
    }

    @Test("a rectangle outside the picture, empty or not finite is refused and changes nothing")
    func refusals() throws {
        var s = try CropState(sourceSize: PixelSize(validWidth: 300, height: 200))
        try s.setCrop(orientedRect: Rect(x: 10, y: 10, width: 50, height: 50))
        let before = s
        for bad in [
            Rect(x: 400, y: 10, width: 50, height: 50), Rect(x: 10, y: 10, width: 0, height: 50),
            Rect(x: .nan, y: 10, width: 50, height: 50),
        ] {
            #expect(throws: GeometryError.self) { try s.setCrop(orientedRect: bad) }
            #expect(s == before)
        }
    }
}
