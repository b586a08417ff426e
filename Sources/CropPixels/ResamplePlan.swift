import CropGeometry

/// Everything about one resize that stays fixed while it runs: the sizes, the per-column and per-row taps, and the
/// window of source columns the horizontal pass reads. Shared read-only by every engine working on the resize.
final class ResamplePlan: @unchecked Sendable {
    // @unchecked Sendable: every stored property is a `let` set in `init`; the engines only read the plan.
    /// Which arithmetic the passes use, with the taps each needs.
    enum Kind {
        /// Copies whole pixels (``ResamplingFilter/nearest``): exact for every format.
        case nearest
        /// 8-bit samples in fixed point.
        case fixed8(horizontal: FixedTaps, vertical: FixedTaps)
        /// 16-bit or linear-light samples in `Float`.
        case float(horizontal: FloatTaps, vertical: FloatTaps)
    }

    let kind: Kind
    let format: PixelFormat
    let channels: Int
    let hasAlpha: Bool
    let linear: Bool
    let sourceWidth: Int
    let sourceHeight: Int
    let outputWidth: Int
    let outputHeight: Int
    let horizontal: ResampleAxis
    let vertical: ResampleAxis
    /// First source column the horizontal pass reads.
    let windowStart: Int
    /// Columns it reads from there (even for the fixed-point path; may exceed the source by one padding column).
    let windowColumns: Int
    /// Samples in an output row: `outputWidth × channels`.
    let rowSamples: Int
    /// Bytes per row of the ring of horizontally filtered rows (padded to whole SIMD vectors).
    let ringStride: Int
    /// The most source rows any output row reads.
    let verticalTaps: Int
    /// The fixed-point kernels' implementation.
    let kernels: KernelSet

    /// Plans a resize of the `sourceRect` part of a `sourceWidth × sourceHeight` image to `outputWidth ×
    /// outputHeight`. The caller has validated the sizes and that `sourceRect` lies inside the source.
    convenience init(
        format: PixelFormat, sourceWidth: Int, sourceHeight: Int, outputWidth: Int, outputHeight: Int,
        sourceRect: Rect, options: ResampleOptions
    ) {
        let horizontal = ResampleAxis(
            filter: options.filter, inSize: sourceWidth, outSize: outputWidth,
            in0: sourceRect.minX, in1: sourceRect.maxX)
        let vertical = ResampleAxis(
            filter: options.filter, inSize: sourceHeight, outSize: outputHeight,
            in0: sourceRect.minY, in1: sourceRect.maxY)
        self.init(
            format: format, sourceWidth: sourceWidth, sourceHeight: sourceHeight, horizontal: horizontal,
            vertical: vertical, options: options)
    }

    /// The same resize restricted to output columns `columns` (its output column 0 is column
    /// `columns.lowerBound` of this one), with identical taps.
    func slice(columns: Range<Int>, options: ResampleOptions) -> ResamplePlan {
        ResamplePlan(
            format: format, sourceWidth: sourceWidth, sourceHeight: sourceHeight,
            horizontal: ResampleAxis(slicing: horizontal, columns), vertical: vertical, options: options)
    }

    private init(
        format: PixelFormat, sourceWidth: Int, sourceHeight: Int, horizontal: ResampleAxis, vertical: ResampleAxis,
        options: ResampleOptions
    ) {
        let outputWidth = horizontal.outCount, outputHeight = vertical.outCount
        self.format = format
        channels = format.channelCount
        hasAlpha = format.hasAlpha
        linear = options.linearLight
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.outputWidth = outputWidth
        self.outputHeight = outputHeight
        self.horizontal = horizontal
        self.vertical = vertical
        verticalTaps = vertical.stride
        kernels = options.kernels
        rowSamples = outputWidth * channels
        let columns = horizontal.sourceRange(for: 0..<outputWidth)
        windowStart = columns.lowerBound
        if options.filter == .nearest {
            kind = .nearest
            windowColumns = columns.count
            ringStride = (outputWidth * format.bytesPerPixel + 63) & ~63
        } else if options.usesFloat(for: format) {
            kind = .float(horizontal: FloatTaps(horizontal), vertical: FloatTaps(vertical))
            windowColumns = columns.count
            ringStride = ((rowSamples + 7) & ~7) * MemoryLayout<Float>.size + 64
        } else {
            let h = FixedTaps(horizontal, alignedTo: columns.lowerBound)
            kind = .fixed8(horizontal: h, vertical: FixedTaps(vertical))
            var pairEnd = 0
            for i in 0..<outputWidth { pairEnd = Swift.max(pairEnd, Int(h.start[i] + h.pairs[i])) }
            windowColumns = 2 * pairEnd
            ringStride = ((rowSamples + 7) & ~7) * MemoryLayout<Int16>.size + 64
        }
    }

    /// Source rows read by output rows `rows`.
    func sourceRows(for rows: Range<Int>) -> Range<Int> {
        vertical.sourceRange(for: rows)
    }

    /// One past the last source row output row `y` reads: it can be produced once rows up to here are filtered.
    @inline(__always)
    func sourceRowsEnd(forOutputRow y: Int) -> Int {
        vertical.first[y] + vertical.count[y]
    }
}
