import Dispatch

/// Receives a pipeline's output rows, top to bottom, and turns them into the requested ``Destination``: a buffer, or
/// an encoder fed row by row so that the whole output never has to exist at once.
final class OutputSink: @unchecked Sendable {
    let size: PixelSize
    let format: PixelFormat
    private let destination: Destination
    private let options: SaveOptions
    private let encodedFormat: ImageFormat?
    private let metadata: ImageMetadata
    private var buffer: PixelBuffer?
    private let encoder: (any ImageRowEncoder)?
    private var rowsWritten = 0
    /// When set, ``writeLater(_:)`` encodes on this serial queue, off the caller's (decoding) thread.
    private let queue: DispatchQueue?
    private var deferredError: CropKitError?

    /// - Parameter metadata: the source's metadata; the output's is derived from it (upright, or stripped).
    init(
        destination: Destination, options: SaveOptions, size: PixelSize, format: PixelFormat,
        metadata: ImageMetadata, asynchronous: Bool = false
    ) throws(CropKitError) {
        queue = asynchronous ? DispatchQueue(label: "CropKit.OutputSink") : nil
        self.size = size
        self.format = format
        self.destination = destination
        self.options = options
        self.metadata = options.outputMetadata(from: metadata)
        encodedFormat = try destination.encodedFormat(options)
        if let encodedFormat {
            let meta = self.metadata
            encoder = try mappingErrors {
                try ImageCodec.makeEncoder(
                    format: encodedFormat, width: size.width, height: size.height, inputFormat: format,
                    metadata: meta, options: options.encodeOptions)
            }
        } else {
            encoder = nil
            buffer = try mappingErrors {
                try PixelBuffer(width: size.width, height: size.height, format: format, limits: .unlimited)
            }
        }
    }

    /// Appends `count` rows of `rows`, starting at its row `start`.
    func write(_ rows: PixelBuffer, start: Int = 0, count: Int? = nil) throws(CropKitError) {
        let count = count ?? rows.height - start
        guard rows.width == size.width, rows.format == format, rowsWritten + count <= size.height else {
            throw .invalidRequest(
                name: "output rows",
                reason: "\(count) rows of \(rows.width) px \(rows.format) do not continue a \(size) \(format) output "
                    + "at row \(rowsWritten)")
        }
        if let encoder {
            try mappingErrors { try encoder.writeRows(from: rows, startRow: start, count: count) }
        } else {
            let offset = rowsWritten
            rows.withUnsafeRows { src in
                buffer!.withUnsafeMutableRows { dst in
                    for i in 0..<count {
                        dst.row(offset + i).copyMemory(from: src.row(start + i), byteCount: rows.bytesPerPackedRow)
                    }
                }
            }
        }
        rowsWritten += count
    }

    /// Appends all rows of `rows` on the sink's queue when it has one (the call returns at once), else now. Errors
    /// surface from ``finish(decodeScale:warnings:)``.
    func writeLater(_ rows: PixelBuffer) throws(CropKitError) {
        guard let queue else { return try write(rows) }
        queue.async {
            guard self.deferredError == nil else { return }
            do { try self.write(rows) } catch { self.deferredError = CropKitError(error) }
        }
    }

    /// Waits until every row handed to ``writeLater(_:)`` has been written (or skipped after an error).
    func drain() {
        queue?.sync {}
    }

    /// Completes the output after the last row.
    func finish(decodeScale: Int, warnings: [CodecWarning]) throws(CropKitError) -> PipelineResult {
        drain()
        if let deferredError { throw deferredError }
        guard rowsWritten == size.height else {
            throw .invalidRequest(name: "output rows", reason: "\(rowsWritten) of \(size.height) rows were produced")
        }
        var result = PipelineResult(
            size: size, pixelFormat: format, image: nil, data: nil, path: nil, encodedFormat: encodedFormat,
            byteCount: 0, decodeScale: decodeScale, warnings: warnings)
        guard let encoder else {
            result.image = Image(pixels: buffer!, metadata: metadata)
            return result
        }
        switch destination {
        case .file(let path):
            let overwrite = options.overwrite
            result.byteCount = try mappingErrors {
                try encoder.finish { bytes throws(CodecError) in
                    try FileIO.writeAtomically(bytes, toPath: path, overwrite: overwrite)
                    return bytes.count
                }
            }
            result.path = path
        default:
            let data: [UInt8] = try mappingErrors { try encoder.finish() }
            result.byteCount = data.count
            result.data = data
        }
        result.warnings += encoder.warnings
        return result
    }
}
