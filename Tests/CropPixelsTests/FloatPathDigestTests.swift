import CropGeometry
import CropTestSupport
import Testing

@testable import CropPixels

/// The floating-point resampler's output bytes (16-bit images, linear light) stay exactly what they were when these
/// digests were recorded: a change to how the path packs or encodes its samples must not change a single value.
///
/// The filters are the polynomial ones (box, bilinear, Catmull-Rom, Mitchell), whose weights need no libm, so the
/// digests hold on every platform; linear light's tables come from `pow`, so its cases run on Linux only.
@Suite("Float path digests")
struct FloatPathDigestTests {
    /// 64-bit FNV-1a of the samples.
    static func digest(_ image: PixelBuffer) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for v in image.samples {
            h = (h ^ UInt64(v & 0xFFFF)) &* 0x0000_0100_0000_01B3
        }
        return h
    }

    /// Seeded resizes: every 16-bit layout, reductions and an enlargement, widths whose rows end mid-group.
    static func sixteenBitDigests() throws -> [UInt64] {
        let formats: [PixelFormat] = [.gray16, .grayAlpha16, .rgb16, .rgba16]
        let filters: [ResamplingFilter] = [.box, .bilinear, .catmullRom, .mitchell]
        var rng = SplitMix64(seed: 0xF10A7)
        var digests: [UInt64] = []
        for (i, format) in formats.enumerated() {
            for (k, filter) in filters.enumerated() {
                let w = 19 + 13 * i + 7 * k, h = 11 + 3 * k
                let image = try randomBuffer(width: w, height: h, format: format, seed: rng.next())
                let options = ResampleOptions(filter: filter, maxThreads: 1)
                digests.append(digest(try image.resized(width: w / 3 + 1, height: h / 2 + 1, options: options)))
                digests.append(digest(try image.resized(width: w + 5, height: h + 2, options: options)))
            }
        }
        return digests
    }

    /// Seeded linear-light resizes of 8-bit layouts.
    static func linearDigests() throws -> [UInt64] {
        let formats: [PixelFormat] = [.gray8, .grayAlpha8, .rgb8, .rgba8]
        var rng = SplitMix64(seed: 0x11EA5)
        var digests: [UInt64] = []
        for (i, format) in formats.enumerated() {
            let w = 37 + 11 * i, h = 17
            let image = try randomBuffer(width: w, height: h, format: format, seed: rng.next())
            let options = ResampleOptions(filter: .catmullRom, linearLight: true, maxThreads: 1)
            digests.append(digest(try image.resized(width: w / 4 + 1, height: h / 3 + 1, options: options)))
        }
        return digests
    }

    @Test("16-bit resizes give the recorded bytes")
    func sixteenBit() throws {
        let expected: [UInt64] = [
            12_627_958_676_656_083_192, 18_213_224_970_536_991_878, 17_287_470_290_450_728_460,
            5_227_731_434_870_597_211,
            12_530_567_407_985_090_946, 3_439_286_628_550_799_303, 3_525_974_696_098_071_731, 5_822_568_440_017_773_003,
            8_520_486_164_915_642_476,
            9_578_555_502_894_509_384, 308_216_519_284_667_815, 8_189_365_792_578_087_260, 17_557_930_490_002_412_607,
            11_569_987_805_619_047_146,
            14_801_163_532_257_331_160, 18_410_956_889_806_844_013, 14_069_164_413_357_677_672,
            9_427_936_226_674_048_300,
            649_763_677_831_585_566, 6_853_856_559_182_432_380, 10_939_444_905_992_769_712, 6_245_757_087_644_532_701,
            11_765_402_904_192_289_300,
            2_082_690_235_496_611_630, 14_927_931_556_225_328_547, 10_410_018_364_313_415_396,
            1_879_089_872_893_407_701,
            14_540_851_590_910_364_987, 11_544_112_398_539_270_130, 17_287_122_026_896_972_924,
            11_677_724_100_653_786_827,
            15_139_887_214_182_156_761,
        ]
        let digests = try Self.sixteenBitDigests()
        #expect(digests == expected, "digests: \(digests)")
    }

    #if os(Linux)
        @Test("linear-light resizes give the recorded bytes (glibc's pow)")
        func linearLight() throws {
            let expected: [UInt64] = [
                14_932_803_617_271_027_168, 1_371_124_839_229_475_892, 5_818_682_638_576_637_197,
                5_847_384_192_414_306_072,
            ]
            let digests = try Self.linearDigests()
            #expect(digests == expected, "digests: \(digests)")
        }
    #endif
}
