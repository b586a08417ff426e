import CropGeometry

/// Renders an output image through an affine map from output pixels to source pixels, in a single resampling pass.
///
/// `transform` maps continuous output coordinates to continuous source coordinates (pixel `(i, j)` covers
/// `[i, i+1) × [j, j+1)`; its centre is `(i + 0.5, j + 0.5)`). A crop engine's render plan is exactly that: the
/// orientation, quarter turns, flips, straightening, crop and scale folded into one transform, so no intermediate
/// full-size image is ever made.
///
/// Three paths, chosen from the transform (see ``Path``):
/// - **copy** — a quarter-turn/mirror permutation with unit scale and whole-pixel offsets: pixels are copied, not
///   filtered (bit-exact).
/// - **separable** — axis-aligned but scaled or shifted by a fraction: the separable resampler
///   (``ResampleOptions``, `filter`) on the source rectangle, then the permutation.
/// - **general** — a rotation or shear: each output pixel is filtered from the source with `rotationFilter`,
///   separable in source x and y, its support stretched by the local reduction factor (the length of the
///   transform's rows, at least 1) so that reduced rotated renders do not alias. From a 6× reduction on, the
///   source is first averaged in `k × k` blocks (`k = ⌊reduction / 3⌋`, alpha-weighted), leaving the stretched
///   kernel the last 3–6×. Sub-pixel positions are quantised to 1/128 pixel. 8-bit images use 14-bit fixed-point
///   weights, 16-bit images `Float`.
///
/// Filtering is on the stored values (there is no linear-light option here, unlike ``ResampleOptions``).
///
/// Edges: taps that fall outside the source are clamped to the nearest edge pixel, so sampling at the picture's
/// border never pulls in black (the separable path renormalises weights instead; both keep constant images
/// constant). Alpha is premultiplied while filtering, as in the resampler.
///
/// The renderer can produce any band of output rows (``render(_:sourceFirstRow:outputRows:maxThreads:)``) from a
/// source that holds only the rows that band reads (``sourceRows(forOutputRows:)``), so a pipeline can decode and
/// encode band by band.
package struct AffineRenderer: Sendable {
    /// How the renderer samples, decided from the transform.
    package enum Path: Hashable, Sendable {
        /// Pixel copies permuted by the orientation (quarter turns and mirrors); no filtering.
        case copy(Orientation)
        /// A separable resample of an axis-aligned source rectangle, then the orientation's permutation.
        case separable(Orientation)
        /// A 2-D filter per output pixel (rotations, shears).
        case general
    }

    /// The full source picture's size.
    package let sourceSize: PixelSize
    /// The output's size.
    package let outputSize: PixelSize
    /// Output coordinates → source coordinates.
    package let transform: AffineTransform2D
    /// The filter of the separable path.
    package let filter: ResamplingFilter
    /// The filter of the general path.
    package let rotationFilter: ResamplingFilter
    /// The path this transform takes.
    package var path: Path {
        switch sampling {
        case .copy(let orientation, _): .copy(orientation)
        case .separable(let orientation, _): .separable(orientation)
        case .general: .general
        }
    }

    /// How the chosen path samples, with exactly what it needs.
    enum Sampling: Sendable {
        /// Copy and separable paths: the orientation and the source rectangle the output covers.
        case copy(Orientation, sourceRect: Rect)
        case separable(Orientation, sourceRect: Rect)
        /// The general path.
        case general(GeneralSampling)
    }

    /// The general path's taps: a box pre-shrink factor (1: none), the transform from output to the shrunk source,
    /// and the kernel's tables for it.
    struct GeneralSampling: Sendable {
        let kernel: AffineKernel
        let preShrink: Int
        let kernelTransform: AffineTransform2D
    }

    let sampling: Sampling
    /// Use the portable 8-bit kernel even where the SSE2 one exists (tests compare the two).
    var forcesPortableKernel = false

    /// Creates a renderer.
    ///
    /// - Parameters:
    ///   - sourceSize: the size of the whole source picture (the stored pixels).
    ///   - outputSize: the size of the output.
    ///   - transform: maps output coordinates to source coordinates; it must be invertible.
    ///   - filter: the separable path's filter (default Lanczos3).
    ///   - rotationFilter: the general path's filter (default Catmull-Rom: sharp, and 4×4 taps at scale 1).
    /// - Throws: ``PixelError/invalidArgument(name:reason:)`` when the transform is not finite or not invertible.
    package init(
        sourceSize: PixelSize, outputSize: PixelSize, transform: AffineTransform2D,
        filter: ResamplingFilter = .lanczos3, rotationFilter: ResamplingFilter = .catmullRom
    ) throws(PixelError) {
        guard transform.isFinite, transform.isInvertible else {
            throw .invalidArgument(name: "transform", reason: "\(transform) is not finite and invertible")
        }
        self.sourceSize = sourceSize
        self.outputSize = outputSize
        self.transform = transform
        self.filter = filter
        self.rotationFilter = rotationFilter
        let (w, h) = (Double(outputSize.width), Double(outputSize.height))
        let t = transform
        let tiny = 1e-9 * Swift.max(abs(t.a), abs(t.b), abs(t.c), abs(t.d))
        var axisAligned: Orientation?
        if abs(t.b) <= tiny, abs(t.c) <= tiny {
            axisAligned = t.a > 0 ? (t.d > 0 ? .up : .bottomLeft) : (t.d > 0 ? .topRight : .bottomRight)
        } else if abs(t.a) <= tiny, abs(t.d) <= tiny {
            axisAligned = t.c > 0 ? (t.b > 0 ? .leftTop : .rightTop) : (t.b > 0 ? .leftBottom : .rightBottom)
        }
        let bounds = Rect(x: 0, y: 0, width: Double(sourceSize.width), height: Double(sourceSize.height))
        let covered = t.apply(to: Rect(x: 0, y: 0, width: w, height: h))
        if let orientation = axisAligned, bounds.contains(covered, tolerance: 1e-6) {
            let rect = covered.intersection(bounds) ?? covered
            let unitScale =
                orientation.swapsDimensions
                ? abs(abs(t.b) - 1) <= 1e-9 && abs(abs(t.c) - 1) <= 1e-9
                : abs(abs(t.a) - 1) <= 1e-9 && abs(abs(t.d) - 1) <= 1e-9
            let whole = { (v: Double) in abs(v - v.rounded()) <= 1e-6 }
            sampling =
                unitScale && whole(covered.minX) && whole(covered.minY)
                ? .copy(orientation, sourceRect: rect) : .separable(orientation, sourceRect: rect)
        } else {
            let fx = (t.a * t.a + t.c * t.c).squareRoot(), fy = (t.b * t.b + t.d * t.d).squareRoot()
            let preShrink = rotationFilter == .nearest ? 1 : BoxShrink.factor(fx: fx, fy: fy)
            let kernelTransform = t.scaledBy(x: 1 / Double(preShrink), y: 1 / Double(preShrink))
            sampling = .general(
                GeneralSampling(
                    kernel: AffineKernel(filter: rotationFilter, transform: kernelTransform), preShrink: preShrink,
                    kernelTransform: kernelTransform))
        }
    }

    /// The source rows that output rows `rows` read (within the source picture). A source window passed to
    /// ``render(_:sourceFirstRow:outputRows:maxThreads:)`` for those rows must contain them.
    package func sourceRows(forOutputRows rows: Range<Int>) -> Range<Int> {
        let rows = rows.clamped(to: 0..<outputSize.height)
        guard !rows.isEmpty else { return 0..<0 }
        switch sampling {
        case .copy(let orientation, let sourceRect):
            let r = bandSourceRect(rows, orientation, sourceRect).integral()
            return Int(r.minY)..<Int(r.maxY)
        case .separable(let orientation, let sourceRect):
            let band = bandImageRect(rows, orientation)
            let r = bandSourceRect(rows, orientation, sourceRect)
            let axis = ResampleAxis(
                filter: filter, inSize: sourceSize.height, outSize: band.height, in0: r.minY, in1: r.maxY)
            return axis.sourceRange(for: 0..<band.height)
        case .general(let general):
            let shrunk = shrunkSourceRows(forOutputRows: rows, general)
            let k = general.preShrink
            return (shrunk.lowerBound * k)..<Swift.min(shrunk.upperBound * k, sourceSize.height)
        }
    }

    /// The rows of the pre-shrunk source (the source itself without pre-shrink) that output rows `rows` read.
    private func shrunkSourceRows(forOutputRows rows: Range<Int>, _ general: GeneralSampling) -> Range<Int> {
        general.kernel.sourceRows(
            forOutputRows: rows, width: outputSize.width, transform: general.kernelTransform,
            sourceHeight: (sourceSize.height + general.preShrink - 1) / general.preShrink)
    }

    /// Renders output rows `outputRows` (all of them by default) as a buffer of that many rows.
    ///
    /// - Parameters:
    ///   - source: the source picture, or a window of its rows: row 0 of `source` is picture row `sourceFirstRow`.
    ///     It must have the picture's width and hold ``sourceRows(forOutputRows:)``.
    ///   - maxThreads: the most threads to use; `0` for one per core.
    /// - Throws: ``PixelError/formatMismatch(_:)`` when the source's width differs from the picture's,
    ///   ``PixelError/invalidArgument(name:reason:)`` when the window misses rows the band reads or the band is
    ///   outside the output.
    /// - Complexity: O(output pixels × taps) for the general path (taps grow with the square of the reduction),
    ///   as the resampler for the separable path, O(output pixels) for the copy path.
    package func render(
        _ source: PixelBuffer, sourceFirstRow: Int = 0, outputRows: Range<Int>? = nil, maxThreads: Int = 0
    ) throws(PixelError) -> PixelBuffer {
        guard sourceFirstRow >= 0, sourceFirstRow + source.height <= sourceSize.height else {
            throw .formatMismatch(
                "source window \(source.width)×\(source.height) at row \(sourceFirstRow) does not fit the "
                    + "\(sourceSize) picture")
        }
        return try source.withUnsafeRows { src throws(PixelError) in
            try render(
                SourceRows(src, firstRow: sourceFirstRow), outputRows: outputRows ?? 0..<outputSize.height,
                maxThreads: maxThreads)
        }
    }

    /// Renders output rows `outputRows` from `source`, a table of the picture rows they read
    /// (``sourceRows(forOutputRows:)``). For the general (rotating) path the rows need not be evenly spaced: they may
    /// be the rows of a ``SourceRowWindow``'s ring. The copy and separable paths need evenly spaced rows.
    ///
    /// - Throws: ``PixelError/invalidArgument(name:reason:)`` when the rows are outside the output, `source` misses
    ///   rows they read, or the copy or separable path gets unevenly spaced rows; ``PixelError/formatMismatch(_:)``
    ///   for a source of another width.
    package func render(_ source: SourceRows, outputRows rows: Range<Int>, maxThreads: Int = 0) throws(PixelError)
        -> PixelBuffer
    {
        guard !rows.isEmpty, rows.lowerBound >= 0, rows.upperBound <= outputSize.height else {
            throw .invalidArgument(name: "outputRows", reason: "\(rows) is empty or outside 0..<\(outputSize.height)")
        }
        guard source.width == sourceSize.width else {
            throw .formatMismatch("source rows are \(source.width) wide, the picture \(sourceSize.width)")
        }
        let needed = sourceRows(forOutputRows: rows)
        guard needed.lowerBound >= source.range.lowerBound, needed.upperBound <= source.range.upperBound else {
            throw .invalidArgument(name: "source", reason: "rows \(source.range) do not cover rows \(needed)")
        }
        var out = try PixelBuffer(width: outputSize.width, height: rows.count, format: source.format)
        let threads = Parallel.threads(maxThreads)
        if case .general(let general) = sampling {
            renderGeneral(general, source, rows, into: &out, threads: threads)
            return out
        }
        guard let src = source.evenlySpaced else {
            throw .invalidArgument(name: "source", reason: "the copy and separable paths need evenly spaced rows")
        }
        switch sampling {
        case .copy(let orientation, let sourceRect):
            let r = bandSourceRect(rows, orientation, sourceRect).integral()
            let map = OrientationMap(orientation, width: Int(r.width), height: Int(r.height))
            out.withUnsafeMutableRows { dst in
                map.permute(
                    src, originX: Int(r.minX), originY: Int(r.minY) - source.firstRow, into: dst,
                    rows: 0..<rows.count, destinationFirstRow: 0)
            }
        case .separable(let orientation, let sourceRect):
            let band = bandImageRect(rows, orientation)
            let plan = ResamplePlan(
                format: src.format, sourceWidth: sourceSize.width, sourceHeight: sourceSize.height,
                outputWidth: band.width, outputHeight: band.height,
                sourceRect: bandSourceRect(rows, orientation, sourceRect),
                options: ResampleOptions(filter: filter, maxThreads: maxThreads))
            if orientation == .up {
                out.withUnsafeMutableRows { dst in
                    ResampleEngine.run(
                        plan, source: src, sourceFirstRow: source.firstRow, outputRows: 0..<band.height, into: dst,
                        threads: threads)
                }
                return out
            }
            var image = PixelBuffer(derivedWidth: band.width, height: band.height, format: src.format)
            image.withUnsafeMutableRows { dst in
                ResampleEngine.run(
                    plan, source: src, sourceFirstRow: source.firstRow, outputRows: 0..<band.height, into: dst,
                    threads: threads)
            }
            let map = OrientationMap(orientation, width: band.width, height: band.height)
            image.withUnsafeRows { resampled in
                out.withUnsafeMutableRows { dst in
                    map.permute(
                        resampled, originX: 0, originY: 0, into: dst, rows: 0..<rows.count, destinationFirstRow: 0)
                }
            }
        case .general:
            break
        }
        return out
    }

    // MARK: Column strips

    /// Part of the source for a render in column strips: the rows and columns read by the output pixels whose base
    /// column (the source column of their sample position, rounded down) falls in `owned`.
    package struct ColumnStrip {
        /// The base columns this strip serves; `Int.min` and `Int.max` bounds reach past the picture's edges.
        package let owned: Range<Int>
        /// The picture rows the strip holds, each pointer addressing the row's column 0 (so only
        /// ``AffineRenderer/sourceColumns(owning:)`` of it may be read). No rows when the band reads none.
        package let rows: SourceRows

        /// A strip.
        package init(owned: Range<Int>, rows: SourceRows) {
            self.owned = owned
            self.rows = rows
        }
    }

    /// Every column: the owned range of a render's only strip.
    package static let everyColumn = Int.min..<Int.max

    /// Whether the render can read its source in column strips (``render(_:outputRows:maxThreads:)`` with
    /// strips): the general path without a pre-shrink. A rotation's output row crosses the source diagonally, so a
    /// strip of columns needs only the rows its part of the row crosses, and a window over a turned picture can
    /// hold each strip's rows for as long as that strip needs them rather than whole rows for the longest.
    package var rendersColumnStrips: Bool {
        if case .general(let general) = sampling { return general.preShrink == 1 }
        return false
    }

    /// The owned ranges of `count` strips of about equal width over the picture, the first and last reaching past
    /// its edges.
    package func columnStrips(count: Int) -> [Range<Int>] {
        let n = Swift.max(1, Swift.min(count, sourceSize.width))
        let cuts = (1..<n).map { $0 * sourceSize.width / n }
        let bounds = [Int.min] + cuts + [Int.max]
        return (0..<n).map { bounds[$0]..<bounds[$0 + 1] }
    }

    /// The source columns that pixels whose base column falls in `owned` read (general path without pre-shrink).
    package func sourceColumns(owning owned: Range<Int>) -> Range<Int> {
        guard case .general(let general) = sampling else { return 0..<sourceSize.width }
        return general.kernel.sourceColumns(owning: owned, width: sourceSize.width)
    }

    /// The source rows that the pixels of output rows `rows` whose base column falls in `owned` read: exact, and
    /// empty when there are no such pixels (general path without pre-shrink; otherwise
    /// ``sourceRows(forOutputRows:)``).
    package func sourceRows(forOutputRows rows: Range<Int>, owning owned: Range<Int>) -> Range<Int> {
        let rows = rows.clamped(to: 0..<outputSize.height)
        guard !rows.isEmpty, rendersColumnStrips, case .general(let general) = sampling else {
            return sourceRows(forOutputRows: rows)
        }
        return general.kernel.sourceRows(
            forOutputRows: rows, owning: owned, width: outputSize.width, transform: transform,
            sourceHeight: sourceSize.height)
    }

    /// Renders output rows `outputRows` from column strips (``rendersColumnStrips``): each pixel reads the strip that
    /// owns its base column. The output is the same, byte for byte, as a render from whole rows.
    ///
    /// - Throws: ``PixelError/invalidArgument(name:reason:)`` when the render cannot read strips, the owned ranges do
    ///   not partition the integers in order, a strip misses rows its pixels read, or the rows are outside the
    ///   output; ``PixelError/formatMismatch(_:)`` when the strips differ in width or format from the picture.
    package func render(_ strips: [ColumnStrip], outputRows rows: Range<Int>, maxThreads: Int = 0) throws(PixelError)
        -> PixelBuffer
    {
        guard !rows.isEmpty, rows.lowerBound >= 0, rows.upperBound <= outputSize.height else {
            throw .invalidArgument(name: "outputRows", reason: "\(rows) is empty or outside 0..<\(outputSize.height)")
        }
        guard rendersColumnStrips, case .general(let general) = sampling else {
            throw .invalidArgument(name: "strips", reason: "only a rotation without a pre-shrink renders from strips")
        }
        guard let format = strips.first?.rows.format else {
            throw .invalidArgument(name: "strips", reason: "no strips")
        }
        var expected = Int.min
        for strip in strips {
            guard strip.owned.lowerBound == expected, !strip.owned.isEmpty else {
                throw .invalidArgument(name: "strips", reason: "owned columns \(strip.owned) do not follow \(expected)")
            }
            expected = strip.owned.upperBound
            guard strip.rows.width == sourceSize.width, strip.rows.format == format else {
                throw .formatMismatch(
                    "strip rows are \(strip.rows.width) wide \(strip.rows.format), the picture "
                        + "\(sourceSize.width) \(format)")
            }
            let needed = sourceRows(forOutputRows: rows, owning: strip.owned)
            guard
                needed.isEmpty
                    || (needed.lowerBound >= strip.rows.range.lowerBound
                        && needed.upperBound <= strip.rows.range.upperBound)
            else {
                throw .invalidArgument(
                    name: "strips",
                    reason: "rows \(strip.rows.range) of columns \(strip.owned) do not cover rows \(needed)")
            }
        }
        guard expected == Int.max else {
            throw .invalidArgument(name: "strips", reason: "owned columns end at \(expected)")
        }
        var out = try PixelBuffer(width: outputSize.width, height: rows.count, format: format)
        general.kernel.render(
            strips, sourceWidth: sourceSize.width, sourceHeight: sourceSize.height, transform: transform,
            outputRows: rows, into: &out, threads: Parallel.threads(maxThreads), portable: forcesPortableKernel)
        return out
    }

    /// The general path: pre-shrink when it pays, then the stretched kernel.
    private func renderGeneral(
        _ general: GeneralSampling, _ source: SourceRows, _ rows: Range<Int>, into out: inout PixelBuffer,
        threads: Int
    ) {
        let k = general.preShrink
        guard k > 1 else {
            return general.kernel.render(
                [ColumnStrip(owned: Self.everyColumn, rows: source)], sourceWidth: sourceSize.width,
                sourceHeight: sourceSize.height, transform: transform, outputRows: rows, into: &out,
                threads: threads, portable: forcesPortableKernel)
        }
        let shrunkRows = shrunkSourceRows(forOutputRows: rows, general)
        let shrunk = BoxShrink.shrink(
            source, pictureHeight: sourceSize.height, factor: k, rows: shrunkRows, threads: threads)
        shrunk.withUnsafeRows { small in
            general.kernel.render(
                [ColumnStrip(owned: Self.everyColumn, rows: SourceRows(small, firstRow: shrunkRows.lowerBound))],
                sourceWidth: small.width, sourceHeight: (sourceSize.height + k - 1) / k,
                transform: general.kernelTransform, outputRows: rows, into: &out, threads: threads,
                portable: forcesPortableKernel)
        }
    }

    // MARK: Axis-aligned bands

    /// The part of the intermediate image (the output in the source's orientation) that output rows `rows` show:
    /// a band of its rows, or of its columns when the orientation swaps the axes.
    private func bandImageRect(_ rows: Range<Int>, _ o: Orientation) -> (x: Int, y: Int, width: Int, height: Int) {
        let (w, h) = (outputSize.width, outputSize.height)
        // The intermediate is w × h (or h × w when swapped); output rows map to its rows or columns, maybe reversed.
        let reversed: Bool
        switch o {
        case .bottomLeft, .bottomRight, .leftBottom, .rightBottom: reversed = true
        default: reversed = false
        }
        let lo = reversed ? h - rows.upperBound : rows.lowerBound
        return o.swapsDimensions ? (lo, 0, rows.count, w) : (0, lo, w, rows.count)
    }

    /// The source rectangle behind ``bandImageRect(_:_:)``, within the output's `sourceRect`.
    private func bandSourceRect(_ rows: Range<Int>, _ o: Orientation, _ sourceRect: Rect) -> Rect {
        let band = bandImageRect(rows, o)
        let full = o.swapsDimensions ? (outputSize.height, outputSize.width) : (outputSize.width, outputSize.height)
        let sx = sourceRect.width / Double(full.0), sy = sourceRect.height / Double(full.1)
        return Rect(
            x: sourceRect.minX + Double(band.x) * sx, y: sourceRect.minY + Double(band.y) * sy,
            width: Double(band.width) * sx, height: Double(band.height) * sy)
    }
}
