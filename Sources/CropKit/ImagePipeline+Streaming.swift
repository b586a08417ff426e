import CropCodecs
import CropGeometry
import CropPixels

/// A source whose header has been read.
struct OpenedSource {
    /// Where the encoded bytes are.
    enum Origin {
        /// In memory (read in place by every decoder).
        case memory(InputBytes)
        /// In a file, opened anew for each decoder and read a chunk at a time, so it is never held whole.
        case file(String)

        /// A fresh input for one decoder.
        func input() throws(CodecError) -> DecoderInput {
            switch self {
            case .memory(let bytes): .memory(bytes)
            case .file(let path): .file(try InputFile(path: path))
            }
        }
    }

    let origin: Origin
    let info: ImageInfo
    let storedSize: PixelSize
    /// The picture, already decoded whole at one scale (a smart gravity measured it), or `nil`.
    var predecoded: PredecodedPicture?

    var displayedSize: PixelSize { info.orientation.displayedSize(of: storedSize) }

    /// A fresh input for one decoder.
    func input() throws(CodecError) -> DecoderInput {
        try origin.input()
    }
}

extension ImagePipeline {
    /// Rows decoded per step while streaming. Small enough to stay in cache, large enough to amortise calls.
    static let bandRows = 16
    /// Output rows rendered per step on the affine path.
    static let renderBandRows = 16

    func open(_ source: ImageSource) throws(CropKitError) -> OpenedSource {
        let origin: OpenedSource.Origin =
            switch source {
            case .file(let path): .file(path)
            case .data(let bytes): .memory(InputBytes(bytes))
            }
        let info = try mappingErrors { try ImageInfo.read(input: origin.input(), strict: strict) }
        let size = try mappingErrors { try PixelSize(width: info.width, height: info.height) }
        try mappingErrors { try limits.check(width: info.width, height: info.height) }
        return OpenedSource(origin: origin, info: info, storedSize: size)
    }

    /// The shrink-on-load denominator for a render that reduces by `reduction` (source pixels per output pixel): the
    /// largest of 8, 4, 2 that still leaves the final filter a reduction of ``shrinkOnLoadHeadroom`` (less
    /// ``headroomSlack``), else 1; 1 for pictures that do not shrink on load (``ImageInfo/shrinksOnLoad``).
    func decodeScale(for source: OpenedSource, reduction: Double) -> Int {
        guard shrinkOnLoad, source.info.shrinksOnLoad else { return 1 }
        // The slack never lets a decode fall below the output's size: headroom 1 stays exact.
        let headroom = Swift.max(1, Swift.max(1, shrinkOnLoadHeadroom) * (1 - Self.headroomSlack))
        return [8, 4, 2].first { $0 <= source.info.largestShrinkOnLoad && reduction / Double($0) >= headroom } ?? 1
    }

    /// How far short of the headroom the final filter's reduction may fall: 5%. A square 256 px thumbnail of a
    /// 6000×4000 photo crops 4000×4000, which at 1/8 leaves the filter 1.95×: 2.5% short of the default 2, and the
    /// decode at 1/4 it would otherwise take reads every scan of a progressive file (0.07 s and 95 MB against 0.03 s and
    /// 24 MB). A DCT-scaled decode is itself low-passed (each 1/8 sample is its block's mean), so the filter's last
    /// few percent of reduction make no difference that shows; measured on the square thumbnail, see
    /// `Benchmarks/compare.py`'s T1s and the note of issue 42.
    static let headroomSlack = 0.05

    func makeDecoder(_ source: OpenedSource, scale: JPEGScale, earlyStop: JPEGEarlyStop? = nil) throws(CropKitError)
        -> any ImageRowDecoder
    {
        if let predecoded = source.predecoded, predecoded.scale == scale.rawValue { return predecoded.decoder() }
        var options = DecodeOptions(
            limits: limits, strict: strict, jpegScale: scale,
            jpegEarlyStop: earlyStop ?? (scale == .eighth && fastThumbnailDecode ? .dcOnly : .exact))
        options.jpegLibjpegEntropy = libjpegEntropy
        options.jpegParallelScans = maxThreads == 1 ? .off : .automatic
        return try mappingErrors { try ImageCodec.makeDecoder(input: source.input(), options: options) }
    }

    /// Decodes rows `0 ..< end` in bands and hands each band to `body` with the index of its first row.
    ///
    /// The bands take turns in `buffers` buffers: a `body` that hands its band to another thread (a
    /// ``RowSink/writeLater(_:)``) gets a buffer that thread has most likely let go of by the time it comes round
    /// again, so the decoder writes into it without a copy.
    static func pump(
        _ decoder: any ImageRowDecoder, upTo end: Int, buffers: Int = 1,
        _ body: (PixelBuffer, _ firstRow: Int, _ count: Int) throws -> Void
    ) throws {
        var bands = try (0..<Swift.max(1, buffers)).map { _ in
            try PixelBuffer(
                width: decoder.outputWidth, height: bandRows, format: decoder.outputFormat, limits: .unlimited)
        }
        var turn = 0
        while decoder.rowsRead < end {
            let first = decoder.rowsRead
            let n = try decoder.readRows(into: &bands[turn], startRow: 0, maxRows: Swift.min(bandRows, end - first))
            guard n > 0 else {
                throw CodecError.truncated(
                    format: decoder.info.format, detail: "the decoder stopped after \(first) of \(end) rows")
            }
            try body(bands[turn], first, n)
            turn = (turn + 1) % bands.count
        }
    }

    /// Renders an axis-aligned plan: the `uprightRect` of the upright picture (stored pixels turned by the plan's
    /// orientation) resampled to the output size, then the pixel steps.
    ///
    /// The region is resampled in the stored orientation while rows stream in from the decoder (a pixel copy when
    /// the scale is exactly 1), then permuted. When no permutation or pixel step is needed, output rows go straight
    /// to the encoder as they are finished, so neither the decoded picture nor the output exists whole.
    func runAxisAligned<Output: Sendable>(
        _ source: OpenedSource, plan: PipelinePlan, uprightRect: Rect, sink: ImageSink<Output>
    ) throws(CropKitError) -> Output {
        try mappingErrors {
            let orientation = plan.geometry.orientation, outputSize = plan.geometry.outputSize
            let storedRect = orientation.storedRect(fromDisplayed: uprightRect, storedSize: source.storedSize.size)
            let storedOut = orientation.displayedSize(of: outputSize)  // a quarter turn is its own size swap
            let reduction = Swift.min(
                storedRect.width / Double(storedOut.width), storedRect.height / Double(storedOut.height))
            let scale = decodeScale(for: source, reduction: reduction)
            let options = sink.options.resolvingSubsampling(source: source.info, reduction: reduction)
            let decoder = try makeDecoder(source, scale: JPEGScale(rawValue: scale) ?? .full)
            let decoded = Rect(x: 0, y: 0, width: Double(decoder.outputWidth), height: Double(decoder.outputHeight))
            let d = Double(scale)
            let rect =
                Rect(
                    x: storedRect.minX / d, y: storedRect.minY / d, width: storedRect.width / d,
                    height: storedRect.height / d
                ).intersection(decoded) ?? decoded
            let format = decoder.outputFormat
            let metadata = decoder.metadata.uprighted()

            // Output rows arrive in the stored orientation: on to the sink, or collected for the permutation.
            let output = try RenderOutput(
                sink: sink, size: storedOut, pixelFormat: format, metadata: metadata, options: options,
                direct: orientation == .up, plan: plan, threads: maxThreads != 1)
            defer { output.rows.drain() }

            let integral = rect.integral(tolerance: 1e-9)
            if integral == rect, Int(rect.width) == storedOut.width, Int(rect.height) == storedOut.height {
                // Scale 1 on whole pixels: copy, no filtering.
                let (x0, y0, w) = (Int(rect.minX), Int(rect.minY), storedOut.width)
                let y1 = y0 + storedOut.height
                try Self.pump(decoder, upTo: y1) { band, first, count in
                    let lo = Swift.max(first, y0), hi = Swift.min(first + count, y1)
                    guard lo < hi else { return }
                    try output.rows.writeLater(try band.cropped(x: x0, y: lo - first, width: w, height: hi - lo))
                }
            } else {
                let stream = try ResizeStream(
                    sourceWidth: decoder.outputWidth, sourceHeight: decoder.outputHeight, format: format,
                    outputWidth: storedOut.width, outputHeight: storedOut.height, sourceRect: rect,
                    options: plan.resample, concurrency: maxThreads == 1 ? .parallel : .background)
                // On a decoding error, let the background filtering finish before the error propagates: a run
                // leaves no work running behind it.
                defer { stream.waitUntilFiltered() }
                // Rows above the ones the resize reads are decoded and skipped; the rest are decoded straight into
                // the stream's blocks.
                if stream.sourceRowsNeeded.lowerBound > 0 {
                    try Self.pump(decoder, upTo: stream.sourceRowsNeeded.lowerBound) { band, _, count in
                        try band.withUnsafeRows { rows in try stream.push(rows.prefix(count)) }
                    }
                }
                let end = stream.sourceRowsNeeded.upperBound
                while stream.rowsPushed < end {
                    let y = decoder.rowsRead
                    let n = try stream.write(maxRows: Self.bandRows) { rows throws(CodecError) in
                        try decoder.readRows(into: rows, startRow: 0, maxRows: rows.height)
                    }
                    guard n > 0 else { throw Self.stopped(decoder, at: y, of: end) }
                    while let out = try stream.pull() { try output.rows.writeLater(out) }
                }
                stream.waitUntilFiltered()
                while let out = try stream.pull() { try output.rows.writeLater(out) }
            }
            try decoder.finish()
            return try output.finish(
                plan: plan, orientation: orientation, decodeScale: scale, decoderWarnings: decoder.warnings,
                maxThreads: maxThreads)
        }
    }

    /// Renders a straightened plan. The caller's thread decodes the source rows the output reads into a
    /// ``SourceRowWindow`` while a ``BandScheduler`` renders and encodes the output band by band as the rows it needs
    /// arrive, so decoding, rendering and encoding overlap on two cores; and since the window keeps only the rows the
    /// bands still to render read (about `output width × sin θ` rows plus a few bands), neither the decoded picture
    /// nor the output ever exists whole. A large window is split into column strips (``AffineLayout``), each holding
    /// its rows only as long as its own columns need them: about half the memory.
    func runAffine<Output: Sendable>(
        _ source: OpenedSource, plan: PipelinePlan, sink: ImageSink<Output>
    ) throws(CropKitError) -> Output {
        try mappingErrors {
            let geometry = plan.geometry
            let scale = decodeScale(for: source, reduction: geometry.reduction)
            let options = sink.options.resolvingSubsampling(source: source.info, reduction: geometry.reduction)
            let decoder = try makeDecoder(source, scale: JPEGScale(rawValue: scale) ?? .full)
            let layout = try AffineLayout(
                geometry, scale: scale,
                decodedSize: PixelSize(validWidth: decoder.outputWidth, height: decoder.outputHeight),
                strips: Self.columnStrips)
            let (renderer, needed, bands, bandRows) = (layout.renderer, layout.needed, layout.bands, layout.bandRows)
            let (width, format) = (decoder.outputWidth, decoder.outputFormat)
            let strips = layout.strips
            let windows = strips.map {
                SourceRowWindow(rows: needed, width: width, columns: $0.columns, format: format, capacity: $0.capacity)
            }
            // No encoder threads of its own: the band scheduler already keeps two cores busy rendering and encoding,
            // and a striped encode beside it made the 6000×4000 straighten slower (151 → 161 ms, T3).
            let output = try RenderOutput(
                sink: sink, size: geometry.outputSize, pixelFormat: format,
                metadata: decoder.metadata.uprighted(), options: options, direct: true, plan: plan, threads: false)
            let scheduler = BandScheduler(
                bands: bands, needs: bandRows.map { $0.upperBound - needed.lowerBound },
                firstRows: strips.map { $0.bandRows.map { $0.isEmpty ? Int.max : $0.lowerBound } },
                render: { index in
                    guard strips.count > 1 else {
                        return try renderer.render(
                            try windows[0].rows(bandRows[index]), outputRows: bands[index], maxThreads: 1)
                    }
                    let parts = try zip(strips, windows).map { strip, window in
                        let rows = strip.bandRows[index]
                        return AffineRenderer.ColumnStrip(
                            owned: strip.owned,
                            rows: rows.isEmpty
                                ? SourceRows(firstRow: 0, width: width, format: format, pointers: [])
                                : try window.rows(rows))
                    }
                    return try renderer.render(parts, outputRows: bands[index], maxThreads: 1)
                },
                encode: { band in try output.rows.write(band, start: 0, count: band.height) },
                release: { rows in for (window, row) in zip(windows, rows) { window.release(below: row) } },
                stop: { for window in windows { window.fail() } })
            try scheduler.run { decoding in
                // Rows above the ones the output reads are decoded and dropped; with strips, every row passes
                // through this buffer on its way to them.
                var staging = try PixelBuffer(
                    width: width, height: Self.bandRows, format: format, limits: .unlimited)
                while decoder.rowsRead < needed.lowerBound {
                    let n = try decoder.readRows(
                        into: &staging, startRow: 0,
                        maxRows: Swift.min(Self.bandRows, needed.lowerBound - decoder.rowsRead))
                    guard n > 0 else { throw Self.stopped(decoder, at: decoder.rowsRead, of: needed.upperBound) }
                }
                while decoder.rowsRead < needed.upperBound {
                    let y = decoder.rowsRead
                    let n: Int
                    if windows.count == 1 {
                        // A full window waits for bands to be rendered: render (or encode) one here rather than wait.
                        if windows[0].freeSlots == 0, decoding.helpOnce() { continue }
                        n = try windows[0].write(maxRows: Self.bandRows) { rows in
                            try decoder.readRows(into: rows, startRow: 0, maxRows: rows.height)
                        }
                    } else {
                        // Likewise when a strip has no room for a whole step; otherwise decode what fits everywhere.
                        let free = windows.reduce(Int.max) { Swift.min($0, $1.freeSlots) }
                        if free < Self.bandRows, decoding.helpOnce() { continue }
                        n = try decoder.readRows(
                            into: &staging, startRow: 0,
                            maxRows: Swift.min(Self.bandRows, needed.upperBound - y, Swift.max(free, 1)))
                        try staging.withUnsafeRows { decoded in
                            for window in windows { try Self.copy(decoded, rows: n, into: window) }
                        }
                    }
                    guard n > 0 else { throw Self.stopped(decoder, at: y, of: needed.upperBound) }
                    decoding.decoded(y + n - needed.lowerBound)
                }
                try decoder.finish()
            }
            return try output.finish(
                plan: plan, orientation: .up, decodeScale: scale, decoderWarnings: decoder.warnings,
                maxThreads: maxThreads)
        }
    }

    /// Copies the first `count` rows of `decoded` (whole picture rows) into `window`'s columns, as its next rows,
    /// waiting for free slots as needed.
    static func copy(_ decoded: UnsafePixelRows, rows count: Int, into window: SourceRowWindow) throws {
        let offset = window.columns.lowerBound * window.format.bytesPerPixel
        let bytes = window.columns.count * window.format.bytesPerPixel
        var done = 0
        while done < count {
            done += try window.write(maxRows: count - done) { slots in
                for r in 0..<slots.height {
                    slots.row(r).copyMemory(from: UnsafeRawPointer(decoded.row(done + r)) + offset, byteCount: bytes)
                }
                return slots.height
            }
        }
    }

    /// How a straightened render reads its source: the renderer over the picture decoded at 1/`scale`, the source
    /// rows the whole output reads, the output bands and the rows each reads, and the window's parts.
    struct AffineLayout {
        /// One part of the window: the columns it holds for the output pixels whose base column falls in `owned`,
        /// the rows each band reads there (empty: none), and the most rows it holds at once.
        struct Strip {
            let owned: Range<Int>
            let columns: Range<Int>
            let bandRows: [Range<Int>]
            let capacity: Int
        }

        /// Rows a strip holds beyond what the render needs, so that the decoder runs ahead of the renderers rather
        /// than in step with them (the narrowest strips fill first).
        static let stripSlack = 2 * ImagePipeline.bandRows

        let renderer: AffineRenderer
        private(set) var needed: Range<Int>
        let bands: [Range<Int>]
        /// The rows each band reads, over every strip.
        private(set) var bandRows: [Range<Int>]
        /// The window's parts: one of whole rows, or column strips from left to right.
        private(set) var strips: [Strip]

        init(
            _ geometry: RenderGeometry, scale: Int, decodedSize: PixelSize, strips policy: ColumnStripPolicy = .init()
        ) throws(CropKitError) {
            let d = Double(scale)
            let renderer = try mappingErrors {
                try AffineRenderer(
                    sourceSize: decodedSize, outputSize: geometry.outputSize,
                    transform: geometry.transform.scaledBy(x: 1 / d, y: 1 / d))
            }
            self.renderer = renderer
            let height = geometry.outputSize.height
            var needed = renderer.sourceRows(forOutputRows: 0..<height)
            bands = stride(from: 0, to: height, by: ImagePipeline.renderBandRows).map {
                $0..<Swift.min($0 + ImagePipeline.renderBandRows, height)
            }
            var bandRows = bands.map { renderer.sourceRows(forOutputRows: $0) }
            // Only the general path reads rows through a table; the others need the rows evenly spaced (no wrap).
            let whole = Strip(
                owned: AffineRenderer.everyColumn, columns: 0..<decodedSize.width, bandRows: bandRows,
                capacity: renderer.path == .general
                    ? ImagePipeline.windowCapacity(bandRows, decodeRows: ImagePipeline.bandRows) : needed.count)
            strips = [whole]
            self.needed = needed
            self.bandRows = bandRows
            let count = Swift.min(policy.maximumCount, decodedSize.width / policy.minimumWidth)
            guard renderer.rendersColumnStrips, count > 1, whole.capacity * decodedSize.width > policy.thresholdPixels
            else { return }
            let parts = renderer.columnStrips(count: count).map { owned in
                (owned, bands.map { renderer.sourceRows(forOutputRows: $0, owning: owned) })
            }
            // Every band's rows and the whole render's cover what each strip reads (they do; this keeps it so).
            for (_, rows) in parts {
                for (j, r) in rows.enumerated() where !r.isEmpty {
                    bandRows[j] =
                        Swift.min(
                            bandRows[j].lowerBound, r.lowerBound)..<Swift.max(bandRows[j].upperBound, r.upperBound)
                    needed = Swift.min(needed.lowerBound, r.lowerBound)..<Swift.max(needed.upperBound, r.upperBound)
                }
            }
            let ends = bandRows.map(\.upperBound)
            let striped = parts.map { owned, rows in
                Strip(
                    owned: owned, columns: renderer.sourceColumns(owning: owned), bandRows: rows,
                    capacity: ImagePipeline.windowCapacity(
                        ends: ends, firsts: rows.map { $0.isEmpty ? Int.max : $0.lowerBound },
                        decodeRows: ImagePipeline.bandRows) + Self.stripSlack)
            }
            // Strips hold about half of the whole rows' window for a turn; keep whole rows when they would not.
            guard Self.pixels(striped, rows: needed.count) * 4 < Self.pixels([whole], rows: needed.count) * 3 else {
                return
            }
            strips = striped
            self.needed = needed
            self.bandRows = bandRows
        }

        /// Bytes of pixel memory the window holds, at `bytesPerPixel`.
        func windowBytes(bytesPerPixel: Int) -> Int { Self.pixels(strips, rows: needed.count) * bytesPerPixel }

        /// The pixels `strips` hold over a render that reads `rows` rows (a window holds at most that many).
        private static func pixels(_ strips: [Strip], rows: Int) -> Int {
            strips.reduce(0) { $0 + Swift.min($1.capacity, rows) * $1.columns.count }
        }
    }

    /// The rows a straightened render's window needs: for each band, from the first row that it, the band before it
    /// (possibly still rendering on the other worker) and every later band read, to the last row it reads; plus one
    /// decoding step. That is never too little to finish (a band's own rows always fit) and lets one worker render
    /// while the decoder fills the next band's rows; when the window is full, the decoder renders rather than waits.
    /// When the bands read the picture upwards (a half turn, say), the first rows stay needed to the end and this is
    /// the whole region.
    static func windowCapacity(_ bandRows: [Range<Int>], decodeRows: Int) -> Int {
        windowCapacity(ends: bandRows.map(\.upperBound), firsts: bandRows.map(\.lowerBound), decodeRows: decodeRows)
    }

    /// ``windowCapacity(_:decodeRows:)`` for one column strip of the window: `ends` are the rows each band needs
    /// decoded (over the whole width, since the decoder fills every strip at once), `firsts` the first row each band
    /// reads in this strip (`Int.max`: none).
    static func windowCapacity(ends: [Int], firsts: [Int], decodeRows: Int) -> Int {
        guard !ends.isEmpty else { return 1 }
        var firstFrom = firsts
        for i in firstFrom.indices.reversed().dropFirst() { firstFrom[i] = Swift.min(firstFrom[i], firstFrom[i + 1]) }
        var capacity = 1
        for j in ends.indices {
            let keep = Swift.min(firsts[Swift.max(j - 1, 0)], firstFrom[j])
            if keep != .max { capacity = Swift.max(capacity, ends[j] - keep) }
        }
        return capacity + decodeRows
    }

    /// When a straightened render's window is split into column strips: when whole rows would hold more than
    /// `thresholdPixels`, in at most `maximumCount` strips at least `minimumWidth` columns wide. The 15000×10000
    /// straighten by 7.5° (25 million pixels of whole rows) peaks at 62 MB instead of 90 with 16 strips; the
    /// 6000×4000 one (about 4 million) keeps whole rows.
    struct ColumnStripPolicy: Sendable {
        var thresholdPixels = 8 << 20
        var minimumWidth = 512
        var maximumCount = 16
    }

    /// The column-strip policy of the renders in its scope (tests make small windows split). A task-local rather
    /// than a stored property: one more stored property in `ImagePipeline` made libgcc's unwinder crash while
    /// swift-testing captured the backtrace of an error thrown in `open(_:)` (Swift 6.x on Linux, reproducible).
    @TaskLocal static var columnStrips = ColumnStripPolicy()

    /// The error for a decoder that handed out no rows before the end.
    static func stopped(_ decoder: any ImageRowDecoder, at row: Int, of end: Int) -> CodecError {
        .truncated(format: decoder.info.format, detail: "the decoder stopped after \(row) of \(end) rows")
    }
}

/// Where a render's rows go: straight to the sink (rows in output order, encoded as they come), or into a buffer
/// that is permuted and post-processed as a whole before it is delivered.
struct RenderOutput<Output: Sendable> {
    private enum Route {
        case direct(SinkWriter<Output>)
        case collected(PixelCollector, ImageSink<Output>, SaveOptions)
    }

    private let route: Route
    private let metadata: ImageMetadata

    /// The rows' destination.
    let rows: any RowSink

    /// - Parameters:
    ///   - size: the size of the rows as rendered (before any permutation or pixel step).
    ///   - threads: whether the encoder may use threads of its own (the pipeline's `maxThreads` is not 1).
    ///   - direct: whether the rendered rows are the output as it is, but for the plan's pixel steps: they go
    ///     straight to the sink when there are none, or only marks on colour rows (laid over the rows as they pass);
    ///     otherwise the output is collected, then permuted and finished by the steps.
    init(
        sink: ImageSink<Output>, size: PixelSize, pixelFormat: PixelFormat, metadata: ImageMetadata,
        options: SaveOptions, direct: Bool, plan: PipelinePlan, threads: Bool
    ) throws(CropKitError) {
        self.metadata = metadata
        let marks = plan.streamableMarks
        if direct, let marks, marks.isEmpty || pixelFormat.layout.isColor {
            let writer = try SinkWriter(
                sink, size: size, pixelFormat: pixelFormat, metadata: metadata, options: options, asynchronous: true,
                threads: threads)
            route = .direct(writer)
            rows = marks.isEmpty ? writer.rows : try MarkingSink(writer.rows, marks: marks, size: size)
        } else {
            let collector = try PixelCollector(size: size, format: pixelFormat)
            route = .collected(collector, sink, options)
            rows = collector
        }
    }

    /// Completes the output: the sink's result, after permuting a collected output by `orientation` and applying the
    /// plan's pixel steps.
    func finish(
        plan: PipelinePlan, orientation: Orientation, decodeScale: Int, decoderWarnings: [CodecWarning],
        maxThreads: Int
    ) throws(CropKitError) -> Output {
        rows.drain()
        func report(_ size: PixelSize, _ format: PixelFormat) -> RenderReport {
            RenderReport(
                size: size, pixelFormat: format, decodeScale: decodeScale, cropState: plan.state,
                warnings: plan.warnings + decoderWarnings.map(PipelineWarning.codec),
                autoStraighten: plan.autoStraighten,
                faces: plan.faces, unreducedSize: plan.unreducedSize)
        }
        switch route {
        case .direct(let writer):
            return try writer.finish(report(plan.geometry.outputSize, writer.pixelFormat))
        case .collected(let collector, let sink, let options):
            var image = try collector.finish().applyingOrientation(orientation, maxThreads: maxThreads)
            for step in plan.pixelSteps { image = try step.apply(to: image) }
            let size = PixelSize(validWidth: image.width, height: image.height)
            let writer = try SinkWriter(
                sink, size: size, pixelFormat: image.format, metadata: metadata, options: options)
            try writer.rows.write(image, start: 0, count: image.height)
            return try writer.finish(report(size, image.format))
        }
    }
}
