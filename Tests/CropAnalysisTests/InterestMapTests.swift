import CropGeometry
import CropPixels
import CropTestSupport
import Testing

@testable import CropAnalysis

/// Synthetic scenes for the smart-crop measures: a background and one object whose box is known.
enum Scene {
    /// A `width × height` RGB picture: `background(x, y)` everywhere, `object(x, y)` inside the disc of `radius` at
    /// (`cx`, `cy`).
    static func make(
        width: Int, height: Int, cx: Int, cy: Int, radius: Int,
        background: (Int, Int) -> (Int, Int, Int), object: (Int, Int) -> (Int, Int, Int)
    ) throws -> PixelBuffer {
        var samples: [UInt8] = []
        samples.reserveCapacity(width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let inside = (x - cx) * (x - cx) + (y - cy) * (y - cy) <= radius * radius
                let (r, g, b) = inside ? object(x, y) : background(x, y)
                samples += [UInt8(clamping: r), UInt8(clamping: g), UInt8(clamping: b)]
            }
        }
        return try PixelBuffer(width: width, height: height, layout: .rgb, samples: samples)
    }

    /// Deterministic noise in −amplitude…amplitude for pixel (x, y).
    static func noise(_ x: Int, _ y: Int, seed: UInt64, amplitude: Int) -> Int {
        var mix = SplitMix64(seed: seed &+ UInt64(y * 65_536 + x))
        return mix.int(-amplitude...amplitude)
    }
}

@Suite("Interest maps and smart windows")
struct InterestMapTests {
    @Test("attention keeps a saturated or skin-coloured object on a plain or textured background (120 seeded scenes)")
    func attentionFindsTheObject() throws {
        var rng = SplitMix64(seed: 15)
        var misses: [String] = []
        for case_ in 0..<120 {
            let (width, height) = rng.bool() ? (480, 240) : (240, 480)
            let radius = rng.int(12...30)
            let cx = rng.int(radius...(width - 1 - radius)), cy = rng.int(radius...(height - 1 - radius))
            let textured = case_ % 2 == 1, seed = UInt64(case_)
            let object: (Int, Int) -> (Int, Int, Int) =
                case_ % 3 == 0
                ? { _, _ in (224, 164, 126) }  // skin-like
                : { _, _ in (200, 40, 30) }  // saturated red
            let image = try Scene.make(
                width: width, height: height, cx: cx, cy: cy, radius: radius,
                background: { x, y in
                    let v = 120 + (textured ? Scene.noise(x, y, seed: seed, amplitude: 12) : 0)
                    return (v, v, v)
                }, object: object)
            let side = Double(Swift.min(width, height))
            let map = try InterestMap(image, measure: .attention)
            let (window, share) = map.bestWindow(Size(width: side, height: side))
            let disc = Rect(
                x: Double(cx - radius), y: Double(cy - radius), width: Double(2 * radius + 1),
                height: Double(2 * radius + 1))
            if !window.contains(disc) { misses.append("case \(case_): object \(disc) window \(window)") }
            #expect(share > 0 && share <= 1)
        }
        #expect(misses.isEmpty, "\(misses.count) of 120 missed: \(misses.prefix(5))")
    }

    @Test("entropy keeps a textured patch on a flat background (60 seeded scenes)")
    func entropyFindsTheTexture() throws {
        var rng = SplitMix64(seed: 16)
        var misses = 0
        for case_ in 0..<60 {
            let (width, height) = rng.bool() ? (400, 200) : (200, 400)
            let radius = rng.int(15...35)
            let cx = rng.int(radius...(width - 1 - radius)), cy = rng.int(radius...(height - 1 - radius))
            let image = try Scene.make(
                width: width, height: height, cx: cx, cy: cy, radius: radius,
                background: { _, _ in (90, 110, 130) },
                object: { x, y in
                    let v = 128 + Scene.noise(x, y, seed: UInt64(case_), amplitude: 80)
                    return (v, v, v)
                })
            let side = Double(Swift.min(width, height))
            let (window, _) = try InterestMap(image, measure: .entropy).bestWindow(Size(width: side, height: side))
            let patch = Rect(
                x: Double(cx - radius), y: Double(cy - radius), width: Double(2 * radius + 1),
                height: Double(2 * radius + 1))
            if !window.contains(patch) { misses += 1 }
        }
        #expect(misses == 0)
    }

    @Test("a flat picture gets the centred window, with no share of interest")
    func flat() throws {
        let image = try PixelBuffer(
            width: 300, height: 100, layout: .rgb, samples: [UInt8](repeating: 77, count: 300 * 100 * 3))
        for measure in InterestMap.Measure.allCases {
            let (window, share) = try InterestMap(image, measure: measure).bestWindow(Size(width: 100, height: 100))
            #expect(window == Rect(x: 100, y: 0, width: 100, height: 100), "\(measure)")
            #expect(share == 0)
        }
    }

    @Test(
        "windows have the asked size, stay inside, and hold at least what any cell-aligned position holds (500 seeded maps)"
    )
    func windowInvariants() {
        var rng = SplitMix64(seed: 17)
        for _ in 0..<500 {
            let (w, h) = (rng.int(1...24), rng.int(1...24))
            let source = Size(width: rng.double(10...900), height: rng.double(10...900))
            let values = (0..<(w * h)).map { _ in Float(rng.bool() ? rng.double(0...1) : 0) }
            let map = InterestMap(measure: .attention, width: w, height: h, sourceSize: source, values: values)
            let size = Size(width: rng.double(1...source.width), height: rng.double(1...source.height))
            let (window, share) = map.bestWindow(size)
            #expect(abs(window.width - size.width) < 1e-9 && abs(window.height - size.height) < 1e-9)
            #expect(window.minX >= 0 && window.minY >= 0)
            #expect(window.maxX <= source.width + 1e-9 && window.maxY <= source.height + 1e-9)
            #expect(share >= 0 && share <= 1)
            // Brute force over every cell-aligned position and the far edges: none holds more.
            let table = SummedArea(map)
            let sx = source.width / Double(w), sy = source.height / Double(h)
            func held(_ x: Double, _ y: Double) -> Double {
                table.integral(x0: x / sx, y0: y / sy, x1: (x + window.width) / sx, y1: (y + window.height) / sy)
            }
            let best = held(window.minX, window.minY)
            let xs =
                (0...w).map { Double($0) * sx }.filter { $0 <= source.width - window.width } + [
                    source.width - window.width
                ]
            let ys =
                (0...h).map { Double($0) * sy }.filter { $0 <= source.height - window.height } + [
                    source.height - window.height
                ]
            for x in xs { for y in ys { #expect(held(x, y) <= best + 1e-9 * Swift.max(1, table.total)) } }
        }
    }

    @Test("the summed-area integral is exact for cut cells")
    func integral() {
        let map = InterestMap(
            measure: .entropy, width: 2, height: 2, sourceSize: Size(width: 2, height: 2), values: [1, 2, 3, 4])
        let table = SummedArea(map)
        #expect(table.total == 10)
        #expect(abs(table.integral(x0: 0.5, y0: 0, x1: 1.5, y1: 1) - (0.5 * 1 + 0.5 * 2)) < 1e-12)
        #expect(abs(table.integral(x0: 0.5, y0: 0.5, x1: 1.5, y1: 1.5) - 2.5) < 1e-12)
        #expect(abs(table.integral(x0: 0, y0: 0, x1: 2, y1: 2) - 10) < 1e-12)
    }

    @Test("transparent pixels carry no interest")
    func alpha() throws {
        // Left half: a loud pattern, fully transparent; right half: a faint pattern, opaque.
        var samples: [UInt8] = []
        for y in 0..<100 {
            for x in 0..<200 {
                let loud = x < 100
                let v = UInt8(clamping: 128 + Scene.noise(x, y, seed: 3, amplitude: loud ? 120 : 20))
                samples += [v, v, v, loud ? 0 : 255]
            }
        }
        let image = try PixelBuffer(width: 200, height: 100, layout: .rgba, samples: samples)
        for measure in InterestMap.Measure.allCases {
            let (window, _) = try InterestMap(image, measure: measure).bestWindow(Size(width: 100, height: 100))
            #expect(window.minX >= 90, "\(measure): \(window)")
        }
    }
}
