import CropCodecs
import CropGeometry
import CropPixels
import Dispatch

/// Receives a render's output rows, top to bottom.
protocol RowSink: AnyObject {
    /// Appends `count` rows of `rows` from its row `start`.
    func write(_ rows: PixelBuffer, start: Int, count: Int) throws(CropKitError)
    /// Appends all rows of `rows`, possibly later on another thread; errors then surface when the output finishes.
    func writeLater(_ rows: PixelBuffer) throws(CropKitError)
    /// Waits until every row handed to ``writeLater(_:)`` has been written.
    func drain()
}

extension RowSink {
    func writeLater(_ rows: PixelBuffer) throws(CropKitError) { try write(rows, start: 0, count: rows.height) }
    func drain() {}
}

/// Collects output rows into a buffer (for ``ImageSink/image``, or to permute or post-process a whole output).
final class PixelCollector: RowSink {
    private var buffer: PixelBuffer
    private var rowsWritten = 0

    init(size: PixelSize, format: PixelFormat) throws(CropKitError) {
        buffer = try mappingErrors {
            try PixelBuffer(width: size.width, height: size.height, format: format, limits: .unlimited)
        }
    }

    func write(_ rows: PixelBuffer, start: Int, count: Int) throws(CropKitError) {
        guard rows.width == buffer.width, rows.format == buffer.format, start >= 0, count >= 0,
            start + count <= rows.height, rowsWritten + count <= buffer.height
        else {
            throw .invalidRequest(
                name: "output rows",
                reason: "\(count) rows of \(rows) do not continue a \(buffer) output at row \(rowsWritten)")
        }
        let bytes = rows.bytesPerPackedRow, offset = rowsWritten
        rows.withUnsafeRows { src in
            buffer.withUnsafeMutableRows { dst in
                for i in 0..<count { dst.row(offset + i).copyMemory(from: src.row(start + i), byteCount: bytes) }
            }
        }
        rowsWritten += count
    }

    /// The collected output, once every row has arrived.
    func finish() throws(CropKitError) -> PixelBuffer {
        guard rowsWritten == buffer.height else {
            throw .invalidRequest(name: "output rows", reason: "\(rowsWritten) of \(buffer.height) rows were produced")
        }
        return buffer
    }
}

/// Feeds output rows to an encoder, optionally on a serial queue of its own so encoding overlaps the caller's work
/// (with at most ``queuedBands`` bands waiting for it).
final class EncodingSink: RowSink, @unchecked Sendable {
    // @unchecked Sendable: `writeLater` hands `self` to `queue`; after that, `encoder`, `rowsWritten` and
    // `deferredError` are touched only on the queue until `drain()` (a `queue.sync`) returns, which orders every
    // later access on the caller's thread after them.
    let encoder: any ImageRowEncoder
    let format: ImageFormat
    private let queue: DispatchQueue?
    private var deferredError: CropKitError?
    /// How many handed-over bands may wait for the encoder: `writeLater` waits for a free slot, so a decoder faster
    /// than the encoder is held back instead of filling memory with bands.
    static let queuedBands = 4
    private let slots = DispatchSemaphore(value: queuedBands)

    /// - Parameters:
    ///   - output: the file to write into as rows are encoded (`nil`: encode into memory).
    ///   - threads: whether the encoder may use threads of its own (a large baseline JPEG is then encoded in stripes
    ///     on two; see `JPEGStripes`).
    init(
        format: ImageFormat, size: PixelSize, pixelFormat: PixelFormat, metadata: ImageMetadata, options: SaveOptions,
        output: AtomicFile? = nil, asynchronous: Bool, threads: Bool = false
    ) throws(CropKitError) {
        self.format = format
        var encodeOptions = options.encodeOptions
        if threads { encodeOptions.jpeg.stripes = .automatic }
        encoder = try mappingErrors {
            try ImageCodec.makeEncoder(
                format: format, width: size.width, height: size.height, inputFormat: pixelFormat, metadata: metadata,
                options: encodeOptions, output: output)
        }
        queue = asynchronous ? DispatchQueue(label: "CropKit.EncodingSink") : nil
    }

    func write(_ rows: PixelBuffer, start: Int, count: Int) throws(CropKitError) {
        try mappingErrors { try encoder.writeRows(from: rows, startRow: start, count: count) }
    }

    func writeLater(_ rows: PixelBuffer) throws(CropKitError) {
        guard let queue else { return try write(rows, start: 0, count: rows.height) }
        slots.wait()
        queue.async {
            defer { self.slots.signal() }
            guard self.deferredError == nil else { return }
            do { try self.write(rows, start: 0, count: rows.height) } catch let error as CropKitError {
                self.deferredError = error
            } catch {
                self.deferredError = CropKitError(error)
            }
        }
    }

    func drain() {
        queue?.sync {}
    }

    /// Finishes the file after the last row and lends its bytes to `body`.
    func finish<R>(_ body: (UnsafeRawBufferPointer) throws(CodecError) -> R) throws(CropKitError) -> R {
        drain()
        if let deferredError { throw deferredError }
        guard encoder.rowsWritten == encoder.height else {
            throw .invalidRequest(
                name: "output rows", reason: "\(encoder.rowsWritten) of \(encoder.height) rows were produced")
        }
        return try mappingErrors { try encoder.finish(body) }
    }
}

/// An ``ImageSink`` made ready for one output: a row sink of the right kind, and how to finish it into the sink's
/// `Output`. Made once the output's size and format are known.
struct SinkWriter<Output: Sendable> {
    /// Where the rows go.
    let rows: any RowSink
    /// The format of the rows.
    let pixelFormat: PixelFormat
    /// Why a colour conversion that was asked for did not happen.
    private let colorWarnings: [PipelineWarning]
    private let complete: (RenderReport) throws(CropKitError) -> Output

    /// - Parameters:
    ///   - metadata: the output's metadata before the save options' colour and metadata policy (upright outputs
    ///     carry uprighted metadata); see ``OutputColor``.
    ///   - options: the sink's options with choices made for this output (automatic subsampling resolved).
    ///   - asynchronous: encode on a queue of its own (rows handed over with `writeLater`).
    ///   - threads: whether the encoder may use threads of its own (see `EncodingSink`).
    init(
        _ sink: ImageSink<Output>, size: PixelSize, pixelFormat: PixelFormat, metadata source: ImageMetadata,
        options resolved: SaveOptions? = nil, asynchronous: Bool = false, threads: Bool = false
    ) throws(CropKitError) {
        self.pixelFormat = pixelFormat
        let color = OutputColor(metadata: source, pixelFormat: pixelFormat, options: resolved ?? sink.options)
        let metadata = color.metadata
        colorWarnings = color.warnings
        let target: any RowSink
        switch sink.target {
        case .image(let make):
            let collector = try PixelCollector(size: size, format: pixelFormat)
            target = collector
            complete = { report throws(CropKitError) in
                make(Image(pixels: try collector.finish(), metadata: metadata), report)
            }
        case .data(let given, let make):
            let options = resolved ?? given
            let encoding = try EncodingSink(
                format: options.format ?? .jpeg, size: size, pixelFormat: pixelFormat, metadata: metadata,
                options: options, asynchronous: asynchronous, threads: threads)
            target = encoding
            complete = { report throws(CropKitError) in
                let bytes = try encoding.finish { bytes throws(CodecError) in Array(bytes.bindMemory(to: UInt8.self)) }
                return make(bytes, encoding.format, Self.adding(encoding, to: report))
            }
        case .file(let path, let given, let make):
            let options = resolved ?? given
            let format = try sink.encodedFormat() ?? .jpeg
            // Encoded bytes go into the file as they are made: the output is never held whole in memory. Until the
            // commit the file has a temporary name; it is removed if the run ends any other way.
            let file = try mappingErrors { try AtomicFile(path: path, overwrite: options.overwrite) }
            let encoding = try EncodingSink(
                format: format, size: size, pixelFormat: pixelFormat, metadata: metadata, options: options,
                output: file, asynchronous: asynchronous, threads: threads)
            target = encoding
            complete = { report throws(CropKitError) in
                try encoding.finish { _ throws(CodecError) in }
                try mappingErrors { try file.commit() }
                return make(path, format, encoding.encoder.bytesWritten, Self.adding(encoding, to: report))
            }
        }
        rows = color.transform.map { ColorConvertingSink(target, transform: $0) } ?? target
    }

    /// Finishes the output; `report` describes the run.
    func finish(_ report: RenderReport) throws(CropKitError) -> Output {
        var report = report
        report.warnings += colorWarnings
        return try complete(report)
    }

    private static func adding(_ encoding: EncodingSink, to report: RenderReport) -> RenderReport {
        var report = report
        report.warnings += encoding.encoder.warnings.map(PipelineWarning.codec)
        return report
    }
}
