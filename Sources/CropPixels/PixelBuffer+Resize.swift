import CropGeometry

extension PixelBuffer {
    /// Resizes to exactly `width × height` (the aspect ratio is not kept), in one separable resampling pass.
    ///
    /// The format is kept: 16-bit stays 16-bit, an opaque image gets no alpha, gray stays gray. See
    /// ``ResampleOptions`` for the sampling rule, edge rule, alpha handling and linear light.
    ///
    /// - Throws: ``PixelError`` when a dimension is below 1 or the output exceeds the default pixel limit.
    /// - Complexity: O(source pixels × horizontal taps + output pixels × vertical taps), on all cores.
    public func resized(width: Int, height: Int, options: ResampleOptions = .default) throws(PixelError) -> PixelBuffer
    {
        try resized(
            width: width, height: height,
            from: Rect(x: 0, y: 0, width: Double(self.width), height: Double(self.height)), options: options)
    }

    /// Resizes to exactly `size`. See ``resized(width:height:options:)``.
    public func resized(to size: PixelSize, options: ResampleOptions = .default) throws(PixelError) -> PixelBuffer {
        try resized(width: size.width, height: size.height, options: options)
    }

    /// Resamples the part of the image inside `sourceRect` to `width × height` in a single pass: a crop and a
    /// resize with no intermediate image and no rounding of the rectangle (it may be fractional).
    ///
    /// Filter taps may reach outside `sourceRect` into the rest of the image, as they would in the uncropped resize;
    /// only the image's own border applies the edge rule.
    ///
    /// - Throws: ``PixelError/invalidRect(_:)`` when `sourceRect` is empty, not finite, or not inside the image
    ///   (a tolerance of 10⁻⁶ pixel is clamped); ``PixelError`` for an invalid output size.
    /// - Complexity: O(source pixels in the rectangle × horizontal taps + output pixels × vertical taps).
    public func resized(width: Int, height: Int, from sourceRect: Rect, options: ResampleOptions = .default)
        throws(PixelError) -> PixelBuffer
    {
        let rect = try Self.validatedSourceRect(sourceRect, width: self.width, height: self.height)
        try PixelLimits.default.check(width: width, height: height)
        if width == self.width, height == self.height,
            rect == Rect(x: 0, y: 0, width: Double(width), height: Double(height))
        {
            return self
        }
        var output = try PixelBuffer(width: width, height: height, format: format)
        let plan = ResamplePlan(
            format: format, sourceWidth: self.width, sourceHeight: self.height, outputWidth: width,
            outputHeight: height, sourceRect: rect, options: options)
        let threads = Parallel.threads(options.maxThreads)
        output.withUnsafeMutableRows { dst in
            withUnsafeRows { src in
                ResampleEngine.run(
                    plan, source: src, sourceFirstRow: 0, outputRows: 0..<height, into: dst, threads: threads)
            }
        }
        return output
    }

    /// Checks that `rect` is a finite, non-empty rectangle inside a `width × height` image and clamps away
    /// floating-point noise.
    static func validatedSourceRect(_ rect: Rect, width: Int, height: Int) throws(PixelError) -> Rect {
        let tolerance = 1e-6
        guard rect.isFinite, rect.width > 0, rect.height > 0 else {
            throw .invalidRect("source rectangle \(rect) is empty or not finite")
        }
        let bounds = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
        guard bounds.contains(rect, tolerance: tolerance) else {
            throw .invalidRect("source rectangle \(rect) is not inside the \(width)×\(height) image")
        }
        let x0 = Swift.max(rect.minX, 0), y0 = Swift.max(rect.minY, 0)
        let x1 = Swift.min(rect.maxX, Double(width)), y1 = Swift.min(rect.maxY, Double(height))
        guard x1 > x0, y1 > y0 else { throw .invalidRect("source rectangle \(rect) is empty") }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

extension ResampleEngine {
    /// Produces output rows `outputRows` of `plan` into `destination` (its row 0 is output row
    /// `outputRows.lowerBound`) from `source` (its row 0 is source row `sourceFirstRow`; it must hold every row the
    /// output rows read). The rows are split into contiguous bands, one engine per band, one band per thread; each
    /// band streams its source rows through its own ring, so nothing the size of the source is allocated.
    static func run(
        _ plan: ResamplePlan, source: UnsafePixelRows, sourceFirstRow: Int, outputRows: Range<Int>,
        into destination: UnsafePixelRows, threads: Int
    ) {
        // Bands of at least 16 rows: below that the duplicated filtering at band edges costs more than it saves.
        let bands = Parallel.chunks(outputRows, parts: Swift.min(threads, Swift.max(1, outputRows.count / 16)))
        Parallel.forEach(bands.count) { b in
            let band = bands[b]
            let engine = ResampleEngine(plan: plan, outputRows: band)
            let sourceRows = engine.sourceRows
            withUnsafeTemporaryAllocation(of: UnsafeRawPointer.self, capacity: 8) { pointers in
                var row = sourceRows.lowerBound
                var y = band.lowerBound
                while row < sourceRows.upperBound {
                    let n = Swift.min(8, sourceRows.upperBound - row)
                    for i in 0..<n { pointers[i] = UnsafeRawPointer(source.row(row + i - sourceFirstRow)) }
                    engine.horizontal(rows: pointers.baseAddress!, count: n, firstRow: row, worker: 0)
                    row += n
                    while y < band.upperBound, plan.sourceRowsEnd(forOutputRow: y) <= row {
                        engine.vertical(outputRow: y, into: destination.row(y - outputRows.lowerBound), worker: 0)
                        y += 1
                    }
                }
            }
        }
    }
}
