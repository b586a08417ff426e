/// The integer box pre-shrink of the general path: for reductions of 6× and more, the source is first averaged in
/// `k × k` blocks (`k = ⌊reduction / 3⌋`), so that the stretched rotation kernel still does the last 3–6× (which
/// keeps the box's poor stop band from aliasing: leaving only 2× to the kernel measurably does) but reads `k²`
/// times fewer taps. Colour is averaged weighted by alpha (the premultiplied average), so transparent pixels do
/// not darken their neighbours. The last block of a row or column averages the pixels that exist.
enum BoxShrink {
    /// The pre-shrink factor for a transform whose output pixels span `fx × fy` source pixels (1: none).
    static func factor(fx: Double, fy: Double) -> Int {
        let f = Swift.min(fx, fy)
        // Below 6× the stretched kernel alone is about as fast as averaging the whole source first.
        return f >= 6 ? Int(f / 3) : 1
    }

    /// Averages blocks of `factor × factor` pixels of `source` (rows of a picture `pictureHeight` rows high) into
    /// shrunk rows `rows`.
    ///
    /// - Complexity: O(source pixels read), on `threads` threads.
    static func shrink(
        _ source: SourceRows, pictureHeight: Int, factor k: Int, rows: Range<Int>, threads: Int
    ) -> PixelBuffer {
        let width = (source.width + k - 1) / k
        var out = PixelBuffer(derivedWidth: width, height: rows.count, format: source.format)
        out.withUnsafeMutableRows { dst in
            let chunks = Parallel.chunks(0..<rows.count, parts: threads)
            Parallel.forEach(chunks.count) { t in
                if source.format.depth == .eight {
                    shrinkRows(UInt8.self, source, pictureHeight, k, rows, chunks[t], dst)
                } else {
                    shrinkRows(UInt16.self, source, pictureHeight, k, rows, chunks[t], dst)
                }
            }
        }
        return out
    }

    /// Shrinks rows `chunk` (indices into `rows`): column sums of each block's rows first, then block sums.
    private static func shrinkRows<T: FixedWidthInteger & UnsignedInteger>(
        _: T.Type, _ src: SourceRows, _ pictureHeight: Int, _ k: Int,
        _ rows: Range<Int>, _ chunk: Range<Int>, _ dst: UnsafePixelRows
    ) {
        let c = src.format.channelCount, alpha = src.format.hasAlpha
        let colours = alpha ? c - 1 : c
        let sourceWidth = src.width, width = dst.width
        // Per source column: the alpha-weighted sum of each colour channel, then the sum of alpha.
        let stride = colours + 1
        var columns = [Int](repeating: 0, count: sourceWidth * stride)
        columns.withUnsafeMutableBufferPointer { sums in
            for r in chunk {
                let y0 = (rows.lowerBound + r) * k, y1 = Swift.min(y0 + k, pictureHeight)
                for i in 0..<sums.count { sums[i] = 0 }
                for y in y0..<y1 {
                    let row = UnsafeMutablePointer(mutating: src.row(y).assumingMemoryBound(to: T.self))
                    switch (c, alpha) {
                    case (1, _): accumulate(row, into: sums, width: sourceWidth, channels: 1, alpha: false)
                    case (2, _): accumulate(row, into: sums, width: sourceWidth, channels: 2, alpha: true)
                    case (3, _): accumulate(row, into: sums, width: sourceWidth, channels: 3, alpha: false)
                    default: accumulate(row, into: sums, width: sourceWidth, channels: 4, alpha: true)
                    }
                }
                let out = dst.row(r).assumingMemoryBound(to: T.self)
                for bx in 0..<width {
                    let x0 = bx * k, x1 = Swift.min(x0 + k, sourceWidth)
                    var total = SIMD4<Int>(), weight = 0
                    for x in x0..<x1 {
                        for ch in 0..<colours { total[ch] += sums[x * stride + ch] }
                        weight += sums[x * stride + colours]
                    }
                    let o = out + bx * c
                    for ch in 0..<colours {
                        o[ch] = weight > 0 ? T(truncatingIfNeeded: (2 * total[ch] + weight) / (2 * weight)) : 0
                    }
                    if alpha {
                        let n = (y1 - y0) * (x1 - x0)
                        o[c - 1] = T(truncatingIfNeeded: (2 * weight + n) / (2 * n))
                    }
                }
            }
        }
    }

    /// Adds one row's alpha-weighted colours and alphas (or pixel counts) to the column sums.
    @inline(__always)
    private static func accumulate<T: FixedWidthInteger & UnsignedInteger>(
        _ row: UnsafeMutablePointer<T>, into sums: UnsafeMutableBufferPointer<Int>, width: Int, channels c: Int,
        alpha: Bool
    ) {
        let colours = alpha ? c - 1 : c, stride = colours + 1
        for x in 0..<width {
            let p = row + x * c, s = x * stride
            let a = alpha ? Int(p[c - 1]) : 1
            for ch in 0..<colours { sums[s + ch] += Int(p[ch]) * a }
            sums[s + colours] += a
        }
    }
}
