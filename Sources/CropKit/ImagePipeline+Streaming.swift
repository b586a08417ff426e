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
    /// nor the output ever exists whole.
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
                decodedSize: PixelSize(validWidth: decoder.outputWidth, height: decoder.outputHeight))
            let (renderer, needed, bands, bandRows) = (layout.renderer, layout.needed, layout.bands, layout.bandRows)
            let window = SourceRowWindow(
                rows: needed, width: decoder.outputWidth, format: decoder.outputFormat, capacity: layout.windowRows)
            // No encoder threads of its own: the band scheduler already keeps two cores busy rendering and encoding,
            // and a striped encode beside it made the 6000×4000 straighten slower (151 → 161 ms, T3).
            let output = try RenderOutput(
                sink: sink, size: geometry.outputSize, pixelFormat: decoder.outputFormat,
                metadata: decoder.metadata.uprighted(), options: options, direct: true, plan: plan, threads: false)
            let scheduler = BandScheduler(
                bands: bands, needs: bandRows.map { $0.upperBound - needed.lowerBound },
                firstRows: bandRows.map(\.lowerBound),
                render: { index in
                    try renderer.render(try window.rows(bandRows[index]), outputRows: bands[index], maxThreads: 1)
                },
                encode: { band in try output.rows.write(band, start: 0, count: band.height) },
                release: { row in window.release(below: row) },
                stop: { window.fail() })
            try scheduler.run { decoding in
                // Rows above the ones the output reads are decoded and dropped.
                var skipped = try PixelBuffer(
                    width: decoder.outputWidth, height: Self.bandRows, format: decoder.outputFormat, limits: .unlimited)
                while decoder.rowsRead < needed.lowerBound {
                    let n = try decoder.readRows(
                        into: &skipped, startRow: 0,
                        maxRows: Swift.min(Self.bandRows, needed.lowerBound - decoder.rowsRead))
                    guard n > 0 else { throw Self.stopped(decoder, at: decoder.rowsRead, of: needed.upperBound) }
                }
                while decoder.rowsRead < needed.upperBound {
                    // A full window waits for bands to be rendered: render (or encode) one here rather than wait.
                    if window.freeSlots == 0, decoding.helpOnce() { continue }
                    let y = decoder.rowsRead
                    let n = try window.write(maxRows: Self.bandRows) { rows in
                        try decoder.readRows(into: rows, startRow: 0, maxRows: rows.height)
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

    /// How a straightened render reads its source: the renderer over the picture decoded at 1/`scale`, the source
    /// rows the whole output reads, the output bands and the rows each reads, and the rows the window holds at most.
    struct AffineLayout {
        let renderer: AffineRenderer
        let needed: Range<Int>
        let bands: [Range<Int>]
        let bandRows: [Range<Int>]
        let windowRows: Int

        init(_ geometry: RenderGeometry, scale: Int, decodedSize: PixelSize) throws(CropKitError) {
            let d = Double(scale)
            renderer = try mappingErrors {
                try AffineRenderer(
                    sourceSize: decodedSize, outputSize: geometry.outputSize,
                    transform: geometry.transform.scaledBy(x: 1 / d, y: 1 / d))
            }
            let height = geometry.outputSize.height
            needed = renderer.sourceRows(forOutputRows: 0..<height)
            bands = stride(from: 0, to: height, by: ImagePipeline.renderBandRows).map {
                $0..<Swift.min($0 + ImagePipeline.renderBandRows, height)
            }
            let renderer = renderer
            bandRows = bands.map { renderer.sourceRows(forOutputRows: $0) }
            // Only the general path reads rows through a table; the others need the rows evenly spaced (no wrap).
            windowRows =
                renderer.path == .general
                ? ImagePipeline.windowCapacity(bandRows, decodeRows: ImagePipeline.bandRows) : needed.count
        }
    }

    /// The rows a straightened render's window needs: for each band, from the first row that it, the band before it
    /// (possibly still rendering on the other worker) and every later band read, to the last row it reads; plus one
    /// decoding step. That is never too little to finish (a band's own rows always fit) and lets one worker render
    /// while the decoder fills the next band's rows; when the window is full, the decoder renders rather than waits.
    /// When the bands read the picture upwards (a half turn, say), the first rows stay needed to the end and this is
    /// the whole region.
    static func windowCapacity(_ bandRows: [Range<Int>], decodeRows: Int) -> Int {
        guard !bandRows.isEmpty else { return 1 }
        var firstFrom = bandRows.map(\.lowerBound)
        for i in firstFrom.indices.reversed().dropFirst() { firstFrom[i] = Swift.min(firstFrom[i], firstFrom[i + 1]) }
        var capacity = 1
        for j in bandRows.indices {
            let keep = Swift.min(bandRows[Swift.max(j - 1, 0)].lowerBound, firstFrom[j])
            capacity = Swift.max(capacity, bandRows[j].upperBound - keep)
        }
        return capacity + decodeRows
    }

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
