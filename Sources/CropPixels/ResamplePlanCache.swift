import CropGeometry

/// The last few resample plans made, for work that makes the same resize again and again: an image service fitting
/// every photo of a camera in 500 px computes the same Lanczos taps for each request (a sine pair per tap, then the
/// fixed-point pairs), a few percent of a small photo's request. A plan is immutable, so a cached one is shared by
/// any number of resizes at once. Only plans with few taps are kept (at most ``maximumWeights`` weights: 0.5 MB,
/// about 0.7 MB with their fixed-point pairs), so the shared cache of four stays under 3 MB.
package final class ResamplePlanCache: @unchecked Sendable {
    // @unchecked Sendable: `entries` is only touched with `lock` held.
    /// Everything a plan is made from.
    struct Key: Hashable {
        var format: PixelFormat
        var sourceWidth: Int
        var sourceHeight: Int
        var outputWidth: Int
        var outputHeight: Int
        var sourceRect: Rect
        var options: ResampleOptions
    }

    /// The cache the resizes use.
    package static let shared = ResamplePlanCache(capacity: 4)
    /// The most weights (both axes) of a plan that is kept.
    static let maximumWeights = 1 << 16

    private let capacity: Int
    private let lock = Lock()
    private var entries: [(key: Key, plan: ResamplePlan)] = []  // most recently used last

    /// A cache of at most `capacity` plans.
    package init(capacity: Int) {
        self.capacity = capacity
    }

    /// How many plans are kept.
    package var count: Int { lock.locked { entries.count } }

    /// The plan for resizing the `sourceRect` part of a `sourceWidth × sourceHeight` image to `outputWidth ×
    /// outputHeight`: a kept one if the same resize was planned lately, else a new one (kept if small).
    func plan(
        format: PixelFormat, sourceWidth: Int, sourceHeight: Int, outputWidth: Int, outputHeight: Int,
        sourceRect: Rect, options: ResampleOptions
    ) -> ResamplePlan {
        let key = Key(
            format: format, sourceWidth: sourceWidth, sourceHeight: sourceHeight, outputWidth: outputWidth,
            outputHeight: outputHeight, sourceRect: sourceRect, options: options)
        if let plan = lock.locked({ () -> ResamplePlan? in
            guard let index = entries.firstIndex(where: { $0.key == key }) else { return nil }
            let entry = entries.remove(at: index)
            entries.append(entry)
            return entry.plan
        }) {
            return plan
        }
        let plan = ResamplePlan(
            format: format, sourceWidth: sourceWidth, sourceHeight: sourceHeight, outputWidth: outputWidth,
            outputHeight: outputHeight, sourceRect: sourceRect, options: options)
        if plan.horizontal.weightCount + plan.vertical.weightCount <= Self.maximumWeights {
            lock.locked {
                guard !entries.contains(where: { $0.key == key }) else { return }
                if entries.count == capacity { entries.removeFirst() }
                entries.append((key, plan))
            }
        }
        return plan
    }
}
