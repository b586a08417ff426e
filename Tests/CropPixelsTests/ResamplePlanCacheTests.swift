import CropGeometry
import Testing

@testable import CropPixels

/// The cache of resample plans a service's repeated resizes share: the same resize gets the same plan (not only
/// equal taps), so the same pixels; other resizes get their own; it keeps at most its capacity, and no large plan.
@Suite("ResamplePlanCache")
struct ResamplePlanCacheTests {
    static func plan(
        _ cache: ResamplePlanCache, _ width: Int, _ height: Int, to outWidth: Int, _ outHeight: Int,
        options: ResampleOptions = .default, rect: Rect? = nil
    ) -> ResamplePlan {
        cache.plan(
            format: .rgb8, sourceWidth: width, sourceHeight: height, outputWidth: outWidth, outputHeight: outHeight,
            sourceRect: rect ?? Rect(x: 0, y: 0, width: Double(width), height: Double(height)), options: options)
    }

    @Test("the same resize gets the same plan; another size, filter or source rectangle gets its own")
    func reuse() {
        let cache = ResamplePlanCache(capacity: 4)
        let first = Self.plan(cache, 900, 600, to: 500, 333)
        #expect(Self.plan(cache, 900, 600, to: 500, 333) === first)
        #expect(Self.plan(cache, 900, 600, to: 500, 334) !== first)
        #expect(Self.plan(cache, 900, 600, to: 500, 333, options: ResampleOptions(filter: .bilinear)) !== first)
        #expect(Self.plan(cache, 900, 600, to: 500, 333, rect: Rect(x: 1, y: 0, width: 899, height: 600)) !== first)
        #expect(cache.count == 4)
        // The first plan was used least recently but one (four plans, capacity four): still kept.
        #expect(Self.plan(cache, 900, 600, to: 500, 333) === first)
    }

    @Test("it keeps its capacity, dropping the plan used least recently, and never keeps a large plan")
    func capacityAndSize() {
        let cache = ResamplePlanCache(capacity: 2)
        let a = Self.plan(cache, 900, 600, to: 500, 333)
        let b = Self.plan(cache, 800, 600, to: 400, 300)
        #expect(Self.plan(cache, 900, 600, to: 500, 333) === a)  // a is now the most recent
        _ = Self.plan(cache, 700, 600, to: 350, 300)  // drops b
        #expect(cache.count == 2)
        #expect(Self.plan(cache, 900, 600, to: 500, 333) === a)
        #expect(Self.plan(cache, 800, 600, to: 400, 300) !== b)
        // 6000×4000 → 1920×1280 with Lanczos3: (1920 + 1280) × 21 weights, past the limit.
        let large = ResamplePlanCache(capacity: 2)
        let big = Self.plan(large, 6000, 4000, to: 1920, 1280)
        #expect(big.horizontal.weightCount + big.vertical.weightCount > ResamplePlanCache.maximumWeights)
        #expect(large.count == 0)
        #expect(Self.plan(large, 6000, 4000, to: 1920, 1280) !== big)
    }

    @Test("two streams sharing a cache share the plan and give the same pixels as a resize with its own taps")
    func streamsShareIt() throws {
        let cache = ResamplePlanCache(capacity: 2)
        let image = try ObscuringTests.random(width: 180, height: 120, layout: .rgb, seed: 42)
        let reference = try image.resized(width: 97, height: 61, options: .default)
        for round in 0..<2 {
            let stream = try ResizeStream(
                sourceWidth: 180, sourceHeight: 120, format: .rgb8, outputWidth: 97, outputHeight: 61,
                concurrency: .background, planCache: cache)
            try stream.push(image)
            stream.waitUntilFiltered()
            var output = try PixelBuffer(width: 97, height: 61, format: .rgb8)
            var pulled = 0
            while pulled < 61 { pulled += try stream.pull(into: &output, startRow: pulled) }
            #expect(output == reference, "round \(round)")
            #expect(cache.count == 1)
        }
    }
}
