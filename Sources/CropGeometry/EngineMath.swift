// swift-format-ignore-file: AlwaysUseLowerCamelCase
// (fdlibm's constants keep fdlibm's names (pio2_1 …))
/// The sine, cosine and arctangent the pure floors compute with, written in Swift so that the engine gives the same
/// bits natively and in the page's WebAssembly module (where there is no C library, and the browser's `Math.sin`
/// differs from glibc's in the last bit now and then: enough to flip an exact comparison such as "did this drag
/// change the crop"). The algorithms are fdlibm's (Sun Microsystems, 1993, as FreeBSD's msun keeps them): argument
/// reduction by π/2 in three parts, then minimax polynomials on [−π/4, π/4]; every result is within 1 ulp of the
/// exact value (EngineMathTests measures it against the C library over a million arguments).
///
/// Only IEEE 754 additions, multiplications and divisions are used, which every target rounds the same way, and the
/// Swift compiler never fuses them. The pixel floor and the analysis floor keep the platform's functions.
package enum EngineMath {
    /// The sine of `x` radians.
    package static func sin(_ x: Double) -> Double {
        if abs(x) < 0x1p-27 { return x }  // sin x = x to the last bit (and −0 stays −0)
        let (r, n) = reduced(x)
        switch n & 3 {
        case 0: return kernelSin(r.0, r.1)
        case 1: return kernelCos(r.0, r.1)
        case 2: return -kernelSin(r.0, r.1)
        default: return -kernelCos(r.0, r.1)
        }
    }

    /// The cosine of `x` radians.
    package static func cos(_ x: Double) -> Double {
        if abs(x) < 0x1p-27 { return 1 }
        let (r, n) = reduced(x)
        switch n & 3 {
        case 0: return kernelCos(r.0, r.1)
        case 1: return -kernelSin(r.0, r.1)
        case 2: return -kernelCos(r.0, r.1)
        default: return kernelSin(r.0, r.1)
        }
    }

    /// `x` less the nearest multiple `n` of π/2, as a head and a tail (`x = n·π/2 + head + tail`), and `n`.
    /// Accurate for |x| below about 2²⁰·π/2, far beyond any angle the engine turns by; larger arguments still give
    /// a deterministic result.
    private static func reduced(_ x: Double) -> ((Double, Double), Int) {
        guard x.isFinite else { return ((.nan, 0), 0) }
        if abs(x) <= 0.785_398_163_397_448_3 { return ((x, 0), 0) }  // |x| ≤ π/4
        let invPio2 = 6.366_197_723_675_813_824_33e-01
        let pio2_1 = 1.570_796_326_734_125_614_17e+00, pio2_1t = 6.077_100_506_506_192_249_32e-11
        let pio2_2 = 6.077_100_506_303_965_976_60e-11, pio2_2t = 2.022_266_248_795_950_631_54e-21
        let fn = (x * invPio2).rounded(.toNearestOrEven)
        var r = x - fn * pio2_1
        var w = fn * pio2_1t
        // A second step, as fdlibm takes when the first one cancels: always, which is never less accurate.
        let t = r
        w = fn * pio2_2
        r = t - w
        w = fn * pio2_2t - ((t - r) - w)
        let head = r - w
        let tail = (r - head) - w
        let n = abs(fn) < 9.0e15 ? Int(fn) : 0
        return ((head, tail), n)
    }

    /// sin(x + y) for |x| ≤ π/4, y the tail of x.
    private static func kernelSin(_ x: Double, _ y: Double) -> Double {
        let s1 = -1.666_666_666_666_663_243_48e-01, s2 = 8.333_333_333_322_489_461_24e-03
        let s3 = -1.984_126_982_985_794_931_34e-04, s4 = 2.755_731_370_707_006_767_89e-06
        let s5 = -2.505_076_025_340_686_341_95e-08, s6 = 1.589_690_995_211_550_102_21e-10
        let z = x * x, v = z * x
        let r = s2 + z * (s3 + z * (s4 + z * (s5 + z * s6)))
        if y == 0 { return x + v * (s1 + z * r) }
        return x - ((z * (0.5 * y - v * r) - y) - v * s1)
    }

    /// cos(x + y) for |x| ≤ π/4, y the tail of x.
    private static func kernelCos(_ x: Double, _ y: Double) -> Double {
        let c1 = 4.166_666_666_666_660_190_37e-02, c2 = -1.388_888_888_887_410_957_49e-03
        let c3 = 2.480_158_728_947_672_941_78e-05, c4 = -2.755_731_435_139_066_330_35e-07
        let c5 = 2.087_572_321_298_174_827_90e-09, c6 = -1.135_964_755_778_819_482_65e-11
        let z = x * x
        let r = z * (c1 + z * (c2 + z * (c3 + z * (c4 + z * (c5 + z * c6)))))
        let hz = 0.5 * z, w = 1.0 - hz
        return w + (((1.0 - w) - hz) + (z * r - x * y))
    }

    /// The arctangent of `x`, in −π/2…π/2.
    package static func atan(_ x: Double) -> Double {
        let atanHi = [
            4.636_476_090_008_060_935_15e-01, 7.853_981_633_974_482_789_99e-01,
            9.827_937_232_473_290_540_82e-01, 1.570_796_326_794_896_558_00e+00,
        ]
        let atanLo = [
            2.269_877_745_296_168_709_24e-17, 3.061_616_997_868_383_017_93e-17,
            1.390_331_103_123_099_845_16e-17, 6.123_233_995_736_766_035_87e-17,
        ]
        guard !x.isNaN else { return x }
        let ax = abs(x)
        if ax >= 0x1p66 { return x < 0 ? -(atanHi[3] + atanLo[3]) : atanHi[3] + atanLo[3] }
        var t = x
        var id = -1
        if ax < 0.4375 {
            if ax < 0x1p-27 { return x }
        } else if ax < 1.1875 {
            if ax < 0.6875 {
                (id, t) = (0, (2.0 * ax - 1.0) / (2.0 + ax))
            } else {
                (id, t) = (1, (ax - 1.0) / (ax + 1.0))
            }
        } else if ax < 2.4375 {
            (id, t) = (2, (ax - 1.5) / (1.0 + 1.5 * ax))
        } else {
            (id, t) = (3, -1.0 / ax)
        }
        let z = t * t, w = z * z
        let s1 =
            z
            * (3.333_333_333_333_293_180_27e-01 + w
                * (1.428_571_427_250_346_637_11e-01
                    + w
                    * (9.090_887_133_436_506_561_96e-02 + w
                        * (6.661_073_137_387_531_206_69e-02
                            + w * (4.976_877_994_615_932_360_17e-02 + w * 1.628_582_011_536_578_236_23e-02)))))
        let s2 =
            w
            * (-1.999_999_999_987_648_324_76e-01 + w
                * (-1.111_111_040_546_235_578_80e-01
                    + w
                    * (-7.691_876_205_044_829_994_95e-02 + w
                        * (-5.833_570_133_790_573_486_45e-02
                            + w * -3.653_157_274_421_691_552_70e-02))))
        if id < 0 { return t - t * (s1 + s2) }
        let result = atanHi[id] - ((t * (s1 + s2) - atanLo[id]) - t)
        return x < 0 ? -result : result
    }

    /// The angle of the vector `(x, y)` in radians, in −π…π, as C's `atan2(y, x)`.
    package static func atan2(_ y: Double, _ x: Double) -> Double {
        let pi = 3.141_592_653_589_793_116_0e+00, piLo = 1.224_646_799_147_353_177_2e-16
        let piO2 = 1.570_796_326_794_896_558_0e+00, piO4 = 7.853_981_633_974_482_789_9e-01
        if x.isNaN || y.isNaN { return x + y }
        if x == 1.0 { return atan(y) }
        let m = (y.sign == .minus ? 1 : 0) | (x.sign == .minus ? 2 : 0)
        if y == 0 {
            switch m {
            case 0, 1: return y
            case 2: return pi
            default: return -pi
            }
        }
        if x == 0 { return y < 0 ? -piO2 : piO2 }
        if x.isInfinite {
            if y.isInfinite {
                switch m {
                case 0: return piO4
                case 1: return -piO4
                case 2: return 3.0 * piO4
                default: return -3.0 * piO4
                }
            }
            switch m {
            case 0: return 0
            case 1: return -0.0
            case 2: return pi
            default: return -pi
            }
        }
        if y.isInfinite { return y < 0 ? -piO2 : piO2 }
        let k = Int(y.exponent) - Int(x.exponent)
        var z: Double
        var quadrant = m
        if k > 60 {
            z = piO2 + 0.5 * piLo
            quadrant &= 1
        } else if x < 0, k < -60 {
            z = 0
        } else {
            z = atan(abs(y / x))
        }
        switch quadrant {
        case 0: return z
        case 1: return -z
        case 2: return pi - (z - piLo)
        default: return (z - piLo) - pi
        }
    }
}
