import CPixelKernels
import CropGeometry
import CropTestSupport
import Foundation
import Testing

@testable import CropPixels

/// The AVX2 kernels compute the same integers as the portable Swift kernels they replace.
@Suite("SIMD kernels")
struct SIMDKernelsTests {
    /// Whether `/proc/cpuinfo` lists AVX2 (nil where there is no such file).
    static var cpuinfoListsAVX2: Bool? {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return nil }
        guard let flags = text.split(separator: "\n").first(where: { $0.hasPrefix("flags") }) else { return nil }
        return flags.split(separator: " ").contains("avx2")
    }

    @Test("the run-time check finds AVX2 exactly when the processor reports it")
    func detection() throws {
        let info = Self.cpuinfoListsAVX2
        try #require(info != nil, "needs /proc/cpuinfo")
        let listed = info == true
        #expect(KernelSet.fastest == (listed && KernelSet.avx2Built ? .avx2 : .portable))
        #expect((ck_pixel_kernels_avx2() != 0) == (listed && KernelSet.avx2Built))
    }

    /// Resizes `image` with both kernel sets and returns the largest sample difference and where it is.
    static func compare(
        _ image: PixelBuffer, width: Int, height: Int, from rect: Rect?, filter: ResamplingFilter, threads: Int
    ) throws -> (difference: Int, at: Int) {
        var portable = ResampleOptions(filter: filter, maxThreads: threads)
        portable.kernels = .portable
        var avx2 = portable
        avx2.kernels = .avx2
        let a =
            try rect.map { try image.resized(width: width, height: height, from: $0, options: portable) }
            ?? image.resized(width: width, height: height, options: portable)
        let b =
            try rect.map { try image.resized(width: width, height: height, from: $0, options: avx2) }
            ?? image.resized(width: width, height: height, options: avx2)
        #expect(a.width == width && a.height == height && b.width == width && b.height == height)
        var worst = (difference: 0, at: -1)
        for (i, (x, y)) in zip(a.samples, b.samples).enumerated() where abs(x - y) > worst.difference {
            worst = (abs(x - y), i)
        }
        return worst
    }

    @Test(
        "AVX2 and portable fixed-point resizes are identical over seeded random images, sizes, filters and formats",
        .enabled(if: KernelSet.fastest == .avx2, "the processor has no AVX2"))
    func identical() throws {
        let formats: [PixelFormat] = [.gray8, .grayAlpha8, .rgb8, .rgba8]
        let filters: [ResamplingFilter] = [.box, .bilinear, .catmullRom, .mitchell, .lanczos3]
        var rng = SplitMix64(seed: 0x5EED_A7C2)
        for trial in 0..<160 {
            let format = formats[trial % formats.count]
            let filter = filters[Int(rng.next() % UInt64(filters.count))]
            let sw = 1 + Int(rng.next() % 300), sh = 1 + Int(rng.next() % 90)
            // Mostly reductions (up to 12×, where the horizontal taps run to 36 pairs), some enlargements.
            let factor =
                rng.next() % 4 == 0 ? 0.3 + Double(rng.next() % 100) / 100 : 1 + Double(rng.next() % 1100) / 100
            let ow = max(1, Int(Double(sw) / factor)), oh = max(1, Int(Double(sh) / factor))
            // Noise saturates Lanczos' and Catmull-Rom's overshoot; bands of extremes clamp at both ends.
            var image = try randomBuffer(width: sw, height: sh, format: format, seed: rng.next())
            if trial % 3 == 0 {
                image = try makeBuffer(width: sw, height: sh, format: format) { x, y, c in
                    (x / 2 + y / 3 + c) % 2 == 0 ? 255 : (c == format.channelCount - 1 && format.hasAlpha ? 1 : 0)
                }
            }
            let rect: Rect? =
                trial % 4 == 1 && sw > 4 && sh > 4
                ? Rect(x: 1.25, y: 0.5, width: Double(sw) - 2.75, height: Double(sh) - 1.5) : nil
            let threads = 1 + trial % 2
            let (difference, at) = try Self.compare(
                image, width: ow, height: oh, from: rect, filter: filter, threads: threads)
            #expect(
                difference == 0,
                "trial \(trial): \(format) \(sw)×\(sh) → \(ow)×\(oh) \(filter), \(threads) threads: sample \(at) off by \(difference)"
            )
        }
    }

    @Test(
        "AVX2 and portable agree on a photo-sized reduction whose rows end mid-vector",
        .enabled(if: KernelSet.fastest == .avx2, "the processor has no AVX2"))
    func wideRows() throws {
        // 1001 × 3 samples is not a multiple of 16: the vertical kernel's last vector is partial.
        for format in [PixelFormat.rgb8, .rgba8] {
            let image = try randomBuffer(width: 3127, height: 61, format: format, seed: 7)
            let (difference, at) = try Self.compare(
                image, width: 1001, height: 19, from: nil, filter: .lanczos3, threads: 2)
            #expect(difference == 0, "\(format): sample \(at) off by \(difference)")
        }
    }
}
