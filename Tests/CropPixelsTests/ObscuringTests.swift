import CropPixels
import Testing

/// `PixelBuffer.obscuring`: a blur or pixelation inside a rectangle, nothing outside it.
@Suite("Obscuring a region")
struct ObscuringTests {
    static func random(width: Int, height: Int, layout: ChannelLayout, seed: UInt64) throws -> PixelBuffer {
        var state = seed
        let samples = (0..<width * height * layout.channelCount).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        return try PixelBuffer(width: width, height: height, layout: layout, samples: samples)
    }

    @Test(
        "over 200 seeded rectangles and both styles: pixels outside are untouched, inside are smoothed",
        arguments: [ChannelLayout.rgb, .rgba, .gray])
    func outsideUntouched(_ layout: ChannelLayout) throws {
        let image = try Self.random(width: 37, height: 29, layout: layout, seed: 7)
        var state: UInt64 = 99
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1
            return Int(state >> 33) % n
        }
        for round in 0..<200 {
            let x = next(45) - 4, y = next(35) - 4, w = next(30), h = next(30)
            let style: PixelBuffer.ObscureStyle =
                round % 2 == 0 ? .blur(sigma: 1 + Double(next(5))) : .pixelate(block: 1 + next(6))
            let result = image.obscuring(x: x, y: y, width: w, height: h, style: style)
            for py in 0..<image.height {
                for px in 0..<image.width where !(px >= x && px < x + w && py >= y && py < y + h) {
                    #expect(result.pixel(x: px, y: py) == image.pixel(x: px, y: py))
                }
            }
        }
    }

    @Test("a flat picture stays flat; pixelation gives each square its mean; a blur lowers the noise")
    func values() throws {
        let flat = try PixelBuffer(width: 20, height: 20, layout: .rgb, samples: [UInt8](repeating: 77, count: 1200))
        #expect(flat.obscuring(x: 2, y: 3, width: 10, height: 10, style: .blur(sigma: 3)) == flat)
        let noise = try Self.random(width: 40, height: 40, layout: .gray, seed: 3)
        let squares = noise.obscuring(x: 0, y: 0, width: 4, height: 4, style: .pixelate(block: 4))
        let mean = (0..<16).map { noise.pixel(x: $0 % 4, y: $0 / 4)[0] }.reduce(0, +)
        #expect(abs(squares.pixel(x: 0, y: 0)[0] * 16 - mean) <= 8)
        #expect(squares.pixel(x: 3, y: 3) == squares.pixel(x: 0, y: 0))
        let blurred = noise.obscuring(x: 10, y: 10, width: 20, height: 20, style: .blur(sigma: 4))
        func spread(_ image: PixelBuffer) -> Double {
            let values = (10..<30).flatMap { y in (10..<30).map { x in Double(image.pixel(x: x, y: y)[0]) } }
            let m = values.reduce(0, +) / Double(values.count)
            return (values.map { ($0 - m) * ($0 - m) }.reduce(0, +) / Double(values.count)).squareRoot()
        }
        #expect(spread(blurred) < spread(noise) / 4, "\(spread(blurred)) against \(spread(noise))")
    }
}
