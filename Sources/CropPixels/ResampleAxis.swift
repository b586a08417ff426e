/// The taps of a one-dimensional resampling: for each output index, the first source index and the normalised
/// weights of the consecutive source samples it reads.
struct ResampleAxis {
    /// Output samples.
    let outCount: Int
    /// The largest number of taps of any output sample (the row stride of ``weights``).
    let stride: Int
    /// First source index read by each output sample.
    private(set) var first: [Int]
    /// Number of source samples read by each output sample (at least 1).
    private(set) var count: [Int]
    /// `outCount × stride` weights; those past `count[i]` are zero. Each row sums to one.
    private(set) var weights: [Double]

    /// Computes the taps for `outSize` samples covering source coordinates `in0…in1` of a source of `inSize`
    /// samples, following Pillow's `precompute_coeffs` (see ``ResampleOptions`` for the rule).
    init(filter: ResamplingFilter, inSize: Int, outSize: Int, in0: Double, in1: Double) {
        let scale = (in1 - in0) / Double(outSize)
        outCount = outSize
        if filter == .nearest {
            stride = 1
            first = (0..<outSize).map { i in
                let x = (in0 + (Double(i) + 0.5) * scale).rounded(.down)
                return Swift.min(Swift.max(Int(x), 0), inSize - 1)
            }
            count = Array(repeating: 1, count: outSize)
            weights = Array(repeating: 1, count: outSize)
            return
        }
        let filterScale = Swift.max(scale, 1)
        let support = filter.support * filterScale
        let taps = Swift.min(Int(support.rounded(.up)) * 2 + 1, inSize)
        stride = taps
        first = Array(repeating: 0, count: outSize)
        count = Array(repeating: 0, count: outSize)
        weights = Array(repeating: 0, count: outSize * taps)
        let inverse = 1 / filterScale
        for i in 0..<outSize {
            let center = in0 + (Double(i) + 0.5) * scale
            // Pillow truncates towards zero, then clamps to the source.
            var lo = Swift.max(Int(center - support + 0.5), 0)
            var hi = Swift.min(Int(center + support + 0.5), inSize)
            if hi - lo > taps { hi = lo + taps }
            var total = 0.0
            for x in lo..<Swift.max(hi, lo) {
                let w = filter.weight((Double(x) - center + 0.5) * inverse)
                weights[i * taps + x - lo] = w
                total += w
            }
            if hi <= lo || total == 0 {
                // Degenerate (a sliver of a box outside every kernel): fall back to the nearest sample.
                lo = Swift.min(Swift.max(Int(center.rounded(.down)), 0), inSize - 1)
                hi = lo + 1
                for k in 0..<taps { weights[i * taps + k] = 0 }
                weights[i * taps] = 1
                total = 1
            }
            for k in 0..<(hi - lo) { weights[i * taps + k] /= total }
            first[i] = lo
            count[i] = hi - lo
        }
    }

    /// The taps of outputs `range` only (output `range.lowerBound` becomes output 0).
    init(slicing axis: ResampleAxis, _ range: Range<Int>) {
        outCount = range.count
        stride = axis.stride
        first = Array(axis.first[range])
        count = Array(axis.count[range])
        weights = Array(axis.weights[(range.lowerBound * axis.stride)..<(range.upperBound * axis.stride)])
    }

    /// The source samples read by outputs `outputs`: from the lowest first tap to past the highest last tap.
    func sourceRange(for outputs: Range<Int>) -> Range<Int> {
        guard !outputs.isEmpty else { return 0..<0 }
        var lo = Int.max, hi = Int.min
        for i in outputs {
            lo = Swift.min(lo, first[i])
            hi = Swift.max(hi, first[i] + count[i])
        }
        return lo..<hi
    }

    /// How many weights are stored: `outCount × stride`.
    var weightCount: Int { weights.count }

    /// The weights of output `i`.
    func weights(of i: Int) -> ArraySlice<Double> {
        weights[(i * stride)..<(i * stride + count[i])]
    }
}

/// Fixed-point weights for the 8-bit path: 14-bit coefficients summing exactly to `1 << 14`, grouped in pairs
/// (`UInt32`: the even tap in the low half, the odd one in the high half) for `pmaddwd`-style multiply-adds.
struct FixedTaps {
    /// Fractional bits of a coefficient.
    static let bits: Int32 = 14
    static let one: Int32 = 1 << bits

    /// Index of the first pair's first sample: a source index (rows) or a pair index into a packed column
    /// window (columns, see ``init(_:alignedTo:)``).
    var start: [Int32]
    /// Pairs per output.
    var pairs: [Int32]
    /// Offset of each output's first pair in ``coefficients``.
    var offset: [Int32]
    /// Packed coefficient pairs.
    var coefficients: [UInt32]

    /// Converts `axis` to pairs. With `alignedTo`, pairs start at even offsets from that source index and
    /// ``start`` holds the pair index from there (columns); without it, pairs start at each output's first tap
    /// and ``start`` holds the source index (rows).
    init(_ axis: ResampleAxis, alignedTo base: Int? = nil) {
        start = []
        pairs = []
        offset = []
        coefficients = []
        start.reserveCapacity(axis.outCount)
        pairs.reserveCapacity(axis.outCount)
        offset.reserveCapacity(axis.outCount)
        coefficients.reserveCapacity(axis.outCount * (axis.stride / 2 + 2))
        var q = [Int32](repeating: 0, count: axis.stride + 2)
        for i in 0..<axis.outCount {
            let w = axis.weights(of: i)
            Self.quantize(w, into: &q)
            var first = axis.first[i]
            var n = w.count
            var shift = 0
            if let base, (first - base) & 1 == 1 {
                // Start one sample early with a zero weight so that pairs line up with the packed columns.
                shift = 1
                first -= 1
                n += 1
            }
            let pairCount = (n + 1) / 2
            offset.append(Int32(coefficients.count))
            start.append(Int32(base.map { (first - $0) / 2 } ?? first))
            pairs.append(Int32(pairCount))
            for p in 0..<pairCount {
                let k0 = 2 * p - shift, k1 = 2 * p + 1 - shift
                let c0 = k0 >= 0 && k0 < w.count ? q[k0] : 0
                let c1 = k1 >= 0 && k1 < w.count ? q[k1] : 0
                coefficients.append(UInt32(UInt16(bitPattern: Int16(c0))) | UInt32(UInt16(bitPattern: Int16(c1))) << 16)
            }
        }
    }

    /// Rounds normalised weights to 14-bit integers that sum exactly to `1 << 14` (the rounding error goes to the
    /// largest weight), so a constant image stays exactly constant.
    static func quantize(_ w: ArraySlice<Double>, into q: inout [Int32]) {
        var total: Int32 = 0
        var largest = 0
        for (k, v) in w.enumerated() {
            let c = Int32((v * Double(one)).rounded())
            q[k] = Swift.min(Swift.max(c, -32767), 32767)
            total += q[k]
            if v > w[w.startIndex + largest] { largest = k }
        }
        q[largest] = Swift.min(Swift.max(q[largest] + one - total, -32767), 32767)
    }
}

/// Single-precision weights for the floating-point path, one output after another.
struct FloatTaps {
    var start: [Int32]
    var count: [Int32]
    var offset: [Int32]
    var coefficients: [Float]

    init(_ axis: ResampleAxis) {
        start = axis.first.map { Int32($0) }
        count = axis.count.map { Int32($0) }
        offset = []
        coefficients = []
        offset.reserveCapacity(axis.outCount)
        for i in 0..<axis.outCount {
            offset.append(Int32(coefficients.count))
            coefficients.append(contentsOf: axis.weights(of: i).map { Float($0) })
        }
    }
}
