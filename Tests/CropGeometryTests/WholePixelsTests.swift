import CropGeometry
import CropTestSupport
import Testing

@Suite("A preview rectangle in whole source pixels")
struct WholePixelsTests {
    @Test(
        "2,000 seeded random cases: integral, inside the source, holding the scaled rectangle, each edge less than a pixel out; nil only when nothing is inside"
    )
    func invariants() {
        var rng = SplitMix64(seed: 0x5EED_0C0F)
        for _ in 0..<2000 {
            let to = PixelSize(
                validWidth: Int.random(in: 1...9000, using: &rng), height: Int.random(in: 1...9000, using: &rng))
            let from = PixelSize(
                validWidth: Int.random(in: 1...1200, using: &rng), height: Int.random(in: 1...1200, using: &rng))
            let x = Double.random(in: -200...Double(from.width), using: &rng)
            let y = Double.random(in: -200...Double(from.height), using: &rng)
            let rect = Rect(
                x: x, y: y, width: Double.random(in: 0.01...Double(from.width), using: &rng),
                height: Double.random(in: 0.01...Double(from.height), using: &rng))
            let sx = Double(to.width) / Double(from.width), sy = Double(to.height) / Double(from.height)
            let exact = Rect(x: rect.minX * sx, y: rect.minY * sy, width: rect.width * sx, height: rect.height * sy)
            let inside =
                exact.maxX > 0 && exact.maxY > 0 && exact.minX < Double(to.width) && exact.minY < Double(to.height)
            guard let whole = rect.wholePixels(scaledFrom: from, to: to) else {
                #expect(!inside, "\(rect) in \(from) → \(to)")
                continue
            }
            #expect(whole == whole.integral(tolerance: 0))
            #expect(
                whole.minX >= 0 && whole.minY >= 0 && whole.maxX <= Double(to.width) && whole.maxY <= Double(to.height))
            #expect(whole.minX <= max(0, exact.minX) + 1e-6 && whole.maxX >= min(Double(to.width), exact.maxX) - 1e-6)
            #expect(whole.minY <= max(0, exact.minY) + 1e-6 && whole.maxY >= min(Double(to.height), exact.maxY) - 1e-6)
            #expect(max(0, exact.minX) - whole.minX < 1 && whole.maxX - min(Double(to.width), exact.maxX) < 1)
            #expect(max(0, exact.minY) - whole.minY < 1 && whole.maxY - min(Double(to.height), exact.maxY) < 1)
        }
    }

    @Test(
        "a 60×40 preview of 6000×4000: (10, 10, 5.5, 5) is source (1000, 1000, 550, 500); a sliver becomes one pixel; outside is nil"
    )
    func examples() {
        let preview = PixelSize(validWidth: 60, height: 40), source = PixelSize(validWidth: 6000, height: 4000)
        #expect(
            Rect(x: 10, y: 10, width: 5.5, height: 5).wholePixels(scaledFrom: preview, to: source)
                == Rect(x: 1000, y: 1000, width: 550, height: 500))
        #expect(
            Rect(x: 10.001, y: 0, width: 0.001, height: 40).wholePixels(scaledFrom: preview, to: source)
                == Rect(x: 1000, y: 0, width: 1, height: 4000))
        #expect(Rect(x: 61, y: 0, width: 5, height: 5).wholePixels(scaledFrom: preview, to: source) == nil)
        #expect(
            Rect(x: -5, y: -5, width: 10, height: 10).wholePixels(scaledFrom: preview, to: source)
                == Rect(x: 0, y: 0, width: 500, height: 500))
    }
}
