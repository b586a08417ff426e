import CropGeometry
import CropPixels
import CropTestSupport
import Testing

@testable import CropAnalysis

@Suite("Gravity on the analysis floor")
struct GravityTests {
    /// A 300×100 grey picture with a saturated red disc of radius 14 at (`cx`, 50).
    static func scene(cx: Int) throws -> PixelBuffer {
        try Scene.make(
            width: 300, height: 100, cx: cx, cy: 50, radius: 14,
            background: { _, _ in (120, 120, 120) }, object: { _, _ in (200, 40, 30) })
    }

    @Test(
        "window(_:in:) places a fixed place and a focal point as place(_:in:) does, and a smart gravity where InterestMap finds the object (60 seeded discs)"
    )
    func windowEvaluatesEveryGravity() throws {
        var rng = SplitMix64(seed: 32)
        for _ in 0..<60 {
            let cx = rng.int(20...279)
            let image = try Self.scene(cx: cx)
            let size = Size(width: 100, height: 100)
            let bounds = Rect(x: 0, y: 0, width: 300, height: 100)
            for fixed in [
                Gravity.topLeft, .center, .bottomRight, .focus(Point(x: 0.8, y: 0.5)), .pixelFocus(Point(x: 40, y: 50)),
            ] {
                #expect(try fixed.window(size, in: image) == fixed.place(size, in: bounds))
            }
            for smart in [Gravity.attention, .entropy] {
                let window = try smart.window(size, in: image)
                #expect(window.size == size)
                // The disc (cx ± 14) lies inside the window, which place(_:in:) alone would put at 100…200.
                #expect(
                    window.minX <= Double(cx - 14) && window.maxX >= Double(cx + 15), "\(smart) cx \(cx): \(window)")
                let measure = try #require(InterestMap.measure(for: smart))
                #expect(window == (try InterestMap(image, measure: measure).bestWindow(size).rect))
            }
        }
    }

    @Test("resized(mode: .fill) keeps the window window(_:in:) chose: the red disc stays whole in a 60×60 fill")
    func fillUsesTheWindow() throws {
        let image = try Self.scene(cx: 40)
        let filled = try image.resized(width: 60, height: 60, mode: .fill(gravity: .attention))
        #expect(filled.width == 60 && filled.height == 60)
        // The disc's centre (40, 50) maps into the window; at 0.6 scale its red core must be in the output.
        var red = 0
        for y in 0..<60 {
            for x in 0..<60 where filled.pixel(x: x, y: y)[0] > 170 && filled.pixel(x: x, y: y)[1] < 80 { red += 1 }
        }
        // A whole disc of radius 14 at 0.6 scale covers about π·8.4² ≈ 220 pixels; a centred fill would show none.
        #expect(red > 180, "red pixels \(red)")
        let centred = try image.resized(width: 60, height: 60, mode: .fill(gravity: .center))
        var centredRed = 0
        for y in 0..<60 {
            for x in 0..<60 where centred.pixel(x: x, y: y)[0] > 170 && centred.pixel(x: x, y: y)[1] < 80 {
                centredRed += 1
            }
        }
        #expect(centredRed == 0)
    }
}
