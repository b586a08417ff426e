/// A step applied to the whole upright output before it is encoded (padding, a border, rounded corners).
typealias PostProcess = (PixelBuffer) throws -> PixelBuffer

/// A source whose header has been read.
struct OpenedSource {
    let bytes: [UInt8]
    let info: ImageInfo
    let storedSize: PixelSize

    var displayedSize: PixelSize { info.orientation.displayedSize(of: storedSize) }
}

extension ImagePipeline {
    /// Rows decoded per step while streaming. Small enough to stay in cache, large enough to amortise calls.
    static let bandRows = 16
    /// Output rows rendered per step on the affine path.
    static let renderBandRows = 64

    func open(_ source: ImageSource) throws(CropKitError) -> OpenedSource {
        let bytes = try source.bytes()
        let info = try mappingErrors { try ImageCodec.readInfo(bytes, strict: strict) }
        let size = try mappingErrors { try PixelSize(width: info.width, height: info.height) }
        try mappingErrors { try limits.check(width: info.width, height: info.height) }
        return OpenedSource(bytes: bytes, info: info, storedSize: size)
    }

    /// The JPEG scale denominator for a render that reduces by `reduction` (source pixels per output pixel): the
    /// largest of 8, 4, 2 that still leaves the final filter at least a 2× reduction, else 1.
    func decodeScale(for source: OpenedSource, reduction: Double) -> Int {
        guard shrinkOnLoad, source.info.format == .jpeg else { return 1 }
        return [8, 4, 2].first { reduction / Double($0) >= 2 } ?? 1
    }

    func makeDecoder(_ source: OpenedSource, scale: Int) throws(CropKitError) -> any ImageRowDecoder {
        let options = DecodeOptions(
            limits: limits, strict: strict, jpegScale: JPEGScale(rawValue: scale) ?? .full,
            jpegEarlyStop: scale == 8 && fastThumbnailDecode ? .dcOnly : .exact)
        return try mappingErrors { try ImageCodec.makeDecoder(data: source.bytes, options: options) }
    }

    /// Decodes rows `0 ..< end` in bands and hands each band to `body` with the index of its first row.
    static func pump(
        _ decoder: any ImageRowDecoder, upTo end: Int, _ body: (PixelBuffer, _ firstRow: Int, _ count: Int) throws -> Void
    ) throws {
        var band = try PixelBuffer(
            width: decoder.outputWidth, height: bandRows, format: decoder.outputFormat, limits: .unlimited)
        while decoder.rowsRead < end {
            let first = decoder.rowsRead
            let n = try decoder.readRows(into: &band, startRow: 0, maxRows: Swift.min(bandRows, end - first))
            guard n > 0 else {
                throw CodecError.truncated(
                    format: decoder.info.format, detail: "the decoder stopped after \(first) of \(end) rows")
            }
            try body(band, first, n)
        }
    }

    /// Renders an axis-aligned region: the `displayedRect` of the picture (displayed after `orientation`, which maps
    /// stored pixels to the output's orientation) resampled to `outputSize`, then `post`.
    ///
    /// The region is resampled in the stored orientation while rows stream in from the decoder (a pixel copy when
    /// the scale is exactly 1), then permuted. When no permutation or post-processing is needed, output rows go
    /// straight to the encoder as they are finished, so neither the decoded picture nor the output exists whole.
    func runAxisAligned(
        _ source: OpenedSource, displayedRect: Rect, orientation: Orientation, outputSize: PixelSize,
        resample: ResampleOptions, post: PostProcess?, destination: Destination, options: SaveOptions
    ) throws(CropKitError) -> PipelineResult {
        try mappingErrors {
            let storedRect = orientation.storedRect(fromDisplayed: displayedRect, storedSize: source.storedSize.size)
            let storedOut = orientation.displayedSize(of: outputSize)  // a quarter turn is its own size swap
            let reduction = Swift.min(
                storedRect.width / Double(storedOut.width), storedRect.height / Double(storedOut.height))
            let scale = decodeScale(for: source, reduction: reduction)
            let options = options.resolvingSubsampling(source: source.info, reduction: reduction)
            let decoder = try makeDecoder(source, scale: scale)
            let decoded = Rect(x: 0, y: 0, width: Double(decoder.outputWidth), height: Double(decoder.outputHeight))
            let d = Double(scale)
            let rect = Rect(
                x: storedRect.minX / d, y: storedRect.minY / d, width: storedRect.width / d,
                height: storedRect.height / d
            ).intersection(decoded) ?? decoded
            let format = decoder.outputFormat

            // Output rows arrive in the stored orientation; send them on, or collect them for the permutation.
            let direct = orientation == .up && post == nil
            var sink: OutputSink? = direct
                ? try OutputSink(
                    destination: destination, options: options, size: storedOut, format: format,
                    metadata: decoder.metadata, asynchronous: true)
                : nil
            var collected = direct
                ? nil
                : try PixelBuffer(width: storedOut.width, height: storedOut.height, format: format, limits: .unlimited)
            var collectedRows = 0
            defer { sink?.drain() }
            func emit(_ rows: PixelBuffer, count: Int) throws {
                if let sink {
                    try sink.writeLater(count == rows.height ? rows : rows.cropped(x: 0, y: 0, width: rows.width, height: count))
                } else {
                    try rows.copyRows(0..<count, into: &collected!, at: collectedRows)
                }
                collectedRows += count
            }

            let integral = rect.integral(tolerance: 1e-9)
            if integral == rect, Int(rect.width) == storedOut.width, Int(rect.height) == storedOut.height {
                // Scale 1 on whole pixels: copy, no filtering.
                let (x0, y0, w) = (Int(rect.minX), Int(rect.minY), storedOut.width)
                let y1 = y0 + storedOut.height
                try Self.pump(decoder, upTo: y1) { band, first, count in
                    let lo = Swift.max(first, y0), hi = Swift.min(first + count, y1)
                    guard lo < hi else { return }
                    let part = try band.cropped(x: x0, y: lo - first, width: w, height: hi - lo)
                    try emit(part, count: part.height)
                }
            } else {
                let stream = try ResizeStream(
                    sourceWidth: decoder.outputWidth, sourceHeight: decoder.outputHeight, format: format,
                    outputWidth: storedOut.width, outputHeight: storedOut.height, sourceRect: rect, options: resample,
                    concurrency: .background)
                // On a decoding error, let the background filtering finish before the error propagates: an operation
                // leaves no work running behind it.
                defer { stream.waitUntilFiltered() }
                try Self.pump(decoder, upTo: stream.sourceRowsNeeded.upperBound) { band, _, count in
                    try band.withUnsafeRows { rows in
                        try stream.push(rows.prefix(count))
                    }
                    while let out = try stream.pull() { try emit(out, count: out.height) }
                }
                stream.waitUntilFiltered()
                while let out = try stream.pull() { try emit(out, count: out.height) }
            }
            try decoder.finish()

            if sink == nil {
                var image = collected!.applyingOrientation(orientation, maxThreads: maxThreads)
                collected = nil
                if let post { image = try post(image) }
                sink = try OutputSink(
                    destination: destination, options: options, size: PixelSize(validWidth: image.width, height: image.height),
                    format: image.format, metadata: decoder.metadata)
                try sink!.write(image)
            }
            return try sink!.finish(decodeScale: scale, warnings: decoder.warnings)
        }
    }

    /// Renders a straightened plan. The caller's thread decodes the source rows the output reads into one window,
    /// while a ``BandScheduler`` renders and encodes the output band by band as the rows it needs arrive, so decoding,
    /// rendering and encoding overlap on two cores and the whole output never exists at once.
    func runAffine(
        _ source: OpenedSource, plan: RenderPlan, destination: Destination, options: SaveOptions
    ) throws(CropKitError) -> PipelineResult {
        try mappingErrors {
            let scale = decodeScale(for: source, reduction: plan.scale)
            let options = options.resolvingSubsampling(source: source.info, reduction: plan.scale)
            let decoder = try makeDecoder(source, scale: scale)
            let d = Double(scale)
            let renderer = try AffineRenderer(
                sourceSize: PixelSize(validWidth: decoder.outputWidth, height: decoder.outputHeight), outputSize: plan.outputSize,
                transform: plan.transform.scaledBy(x: 1 / d, y: 1 / d))
            let height = plan.outputSize.height
            let needed = renderer.sourceRows(forOutputRows: 0..<height)
            var window = try PixelBuffer(
                width: decoder.outputWidth, height: Swift.max(1, needed.count), format: decoder.outputFormat,
                limits: .unlimited)
            // The decoder writes through this pointer while renderers read finished rows of `snapshot`: the same
            // storage, never mutated through Swift again, with rows published under the scheduler's lock.
            let rows = window.withUnsafeMutableRows { $0 }
            let snapshot = window
            let sink = try OutputSink(
                destination: destination, options: options, size: plan.outputSize, format: decoder.outputFormat,
                metadata: decoder.metadata)
            let bands = stride(from: 0, to: height, by: Self.renderBandRows).map {
                $0..<Swift.min($0 + Self.renderBandRows, height)
            }
            let scheduler = BandScheduler(
                bands: bands,
                needs: bands.map { renderer.sourceRows(forOutputRows: $0).upperBound - needed.lowerBound },
                render: { band in
                    try renderer.render(snapshot, sourceFirstRow: needed.lowerBound, outputRows: band, maxThreads: 1)
                },
                encode: { band in try sink.write(band) })
            try scheduler.run { progress in
                var skipped = try PixelBuffer(
                    width: decoder.outputWidth, height: Self.bandRows, format: decoder.outputFormat, limits: .unlimited)
                while decoder.rowsRead < needed.upperBound {
                    let y = decoder.rowsRead
                    let n = y < needed.lowerBound
                        ? try decoder.readRows(into: &skipped, startRow: 0, maxRows: Swift.min(Self.bandRows, needed.lowerBound - y))
                        : try decoder.readRows(
                            into: rows, startRow: y - needed.lowerBound, maxRows: Swift.min(Self.bandRows, needed.upperBound - y))
                    guard n > 0 else {
                        throw CodecError.truncated(
                            format: decoder.info.format, detail: "the decoder stopped after \(y) of \(needed.upperBound) rows")
                    }
                    if y >= needed.lowerBound { progress(y + n - needed.lowerBound) }
                }
                try decoder.finish()
            }
            withExtendedLifetime(window) {}
            return try sink.finish(decodeScale: scale, warnings: decoder.warnings)
        }
    }
}

extension PixelBuffer {
    /// Copies rows `rows` of this buffer into `destination` from its row `at`; same width and format.
    func copyRows(_ rows: Range<Int>, into destination: inout PixelBuffer, at: Int) throws(CropKitError) {
        guard destination.width == width, destination.format == format, at >= 0,
              at + rows.count <= destination.height, rows.lowerBound >= 0, rows.upperBound <= height
        else {
            throw .invalidRequest(name: "rows", reason: "cannot copy rows \(rows) of \(self) into \(destination) at \(at)")
        }
        let bytes = bytesPerPackedRow
        withUnsafeRows { src in
            destination.withUnsafeMutableRows { dst in
                for (i, y) in rows.enumerated() { dst.row(at + i).copyMemory(from: src.row(y), byteCount: bytes) }
            }
        }
    }
}
