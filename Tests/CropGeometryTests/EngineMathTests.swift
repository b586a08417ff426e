import CropTestSupport
import Testing

@testable import CropGeometry

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The engine's own sine, cosine and arctangent (the same Swift natively and in the page's WebAssembly module)
/// agree with the C library's to within 1 ulp, and keep the C library's special values.
@Suite("Engine maths")
struct EngineMathTests {
    /// How many units in the last place `value` is from `reference`.
    static func ulps(_ value: Double, _ reference: Double) -> Double {
        if value == reference { return 0 }
        return abs(value - reference) / max(reference.ulp, Double.leastNormalMagnitude)
    }

    @Test(
        "sin and cos within 1 ulp of the C library over 400,000 seeded arguments",
        arguments: [
            0.0...0.8, 0.0...(Double.pi / 4 + 0.01), -7.0...7.0, -200.0...200.0, -1.0e5...1.0e5,
        ])
    func sineCosine(range: ClosedRange<Double>) {
        var rng = SplitMix64(seed: UInt64(abs(range.upperBound * 1000)))
        var worst = 0.0
        for _ in 0..<40_000 {
            let x = rng.double(range)
            worst = max(worst, Self.ulps(EngineMath.sin(x), sin(x)), Self.ulps(EngineMath.cos(x), cos(x)))
        }
        #expect(worst <= 1, "worst \(worst) ulp in \(range)")
    }

    @Test("degrees the engine turns by: every tenth of a degree in ±45° and every quarter turn")
    func degrees() {
        for tenth in -450...450 {
            let radians = Double(tenth) / 10 * .pi / 180
            #expect(Self.ulps(EngineMath.sin(radians), sin(radians)) <= 1)
            #expect(Self.ulps(EngineMath.cos(radians), cos(radians)) <= 1)
        }
        #expect(EngineMath.sin(0) == 0 && EngineMath.cos(0) == 1)
        #expect(EngineMath.sin(-0.0).sign == .minus)
        #expect(abs(EngineMath.sin(.pi / 2) - 1) == 0 && abs(EngineMath.cos(.pi)) == 1)
        #expect(EngineMath.sin(.infinity).isNaN && EngineMath.cos(.nan).isNaN)
    }

    @Test("atan2 within 1 ulp of the C library over 200,000 seeded vectors, and its special cases")
    func arctangent() {
        var rng = SplitMix64(seed: 42)
        var worst = 0.0
        for _ in 0..<200_000 {
            let scale = rng.pick([1e-3, 1.0, 1e3, 1e12])
            let y = rng.double(-1...1) * scale, x = rng.double(-1...1) * rng.pick([1e-3, 1.0, 1e3])
            worst = max(worst, Self.ulps(EngineMath.atan2(y, x), atan2(y, x)))
        }
        #expect(worst <= 1, "worst \(worst) ulp")
        let specials: [(Double, Double)] = [
            (0, 1), (-0.0, 1), (0, -1), (-0.0, -1), (1, 0), (-1, 0), (1, .infinity), (-1, .infinity),
            (1, -.infinity), (-1, -.infinity), (.infinity, 1), (-.infinity, 1), (.infinity, .infinity),
            (-.infinity, -.infinity), (1e300, 1e-300), (1e-300, -1e300), (3, 1), (-2, 1),
        ]
        for (y, x) in specials {
            let (mine, libc) = (EngineMath.atan2(y, x), atan2(y, x))
            #expect(Self.ulps(mine, libc) <= 1 && mine.sign == libc.sign, "atan2(\(y), \(x)): \(mine) vs \(libc)")
        }
        #expect(EngineMath.atan2(.nan, 1).isNaN && EngineMath.atan2(1, .nan).isNaN)
    }
}
