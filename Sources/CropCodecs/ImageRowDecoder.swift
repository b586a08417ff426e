import CropPixels

/// A decoder that hands out the decoded image row by row, so a pipeline never needs the whole image in memory.
///
/// Create one with ``ImageCodec/makeDecoder(data:options:)`` (or ``JPEGDecoder``/``PNGDecoder`` directly): the
/// initialiser reads the header and metadata and checks the pixel limits; decoding starts with the first
/// ``readRows(into:bytesPerRow:maxRows:)``. Rows come top to bottom in ``outputFormat``; call ``finish()`` after the
/// last row to verify the rest of the file and collect its warnings. After an error the decoder only repeats it.
///
/// Decoders are not thread-safe; use one from one thread at a time.
public protocol ImageRowDecoder: AnyObject {
    /// Header facts about the file.
    var info: ImageInfo { get }
    /// The metadata read from the file.
    var metadata: ImageMetadata { get }
    /// Columns of the decoded output (smaller than ``ImageInfo/width`` when a JPEG scale is used).
    var outputWidth: Int { get }
    /// Rows of the decoded output.
    var outputHeight: Int { get }
    /// The pixel format of the decoded rows.
    var outputFormat: PixelFormat { get }
    /// Rows handed out so far.
    var rowsRead: Int { get }
    /// Problems met and worked around so far (metadata, recoverable corruption).
    var warnings: [CodecWarning] { get }

    /// Decodes up to `maxRows` rows into memory at `destination`, row `i` at `destination + i × bytesPerRow`, each
    /// `outputWidth × outputFormat.bytesPerPixel` bytes.
    ///
    /// The caller guarantees that `destination` points to at least `(maxRows − 1) × bytesPerRow +` row size
    /// writable bytes.
    /// - Returns: the number of rows written (at most `maxRows`); 0 once every row was read, or when `maxRows` is 0.
    /// - Throws: ``CodecError`` for corrupt or truncated data, or ``CodecError/invalidArgument(name:reason:)`` when
    ///   `bytesPerRow` is smaller than a row or `maxRows` is negative.
    func readRows(into destination: UnsafeMutableRawPointer, bytesPerRow: Int, maxRows: Int) throws(CodecError) -> Int

    /// Ends decoding. After the last row, reads the rest of the file and reports a problem there (a missing end
    /// marker is a warning, an error in strict mode); before it, abandons the image. Calling it again does nothing.
    func finish() throws(CodecError)

    /// Decodes every remaining row into a new buffer and finishes.
    func decodeAll() throws(CodecError) -> PixelBuffer
}

extension ImageRowDecoder {
    /// Decodes up to `maxRows` rows into `buffer`, starting at its row `startRow`.
    ///
    /// - Throws: ``CodecError/invalidArgument(name:reason:)`` when the buffer's width or format differs from the
    ///   output's, or the rows do not fit; decoding errors as ``readRows(into:bytesPerRow:maxRows:)``.
    public func readRows(into buffer: inout PixelBuffer, startRow: Int, maxRows: Int) throws(CodecError) -> Int {
        try buffer.withUnsafeMutableRows { rows throws(CodecError) in
            try readRows(into: rows, startRow: startRow, maxRows: maxRows)
        }
    }

    /// Decodes up to `maxRows` rows into `rows` (from a ``PixelBuffer``'s `withUnsafeMutableRows`), starting at its
    /// row `startRow`, with the same checks as the `PixelBuffer` variant.
    public func readRows(into rows: UnsafePixelRows, startRow: Int, maxRows: Int) throws(CodecError) -> Int {
        guard rows.width == outputWidth, rows.format == outputFormat else {
            throw .invalidArgument(
                name: "buffer",
                reason: "\(rows.width) px wide \(rows.format), the output is \(outputWidth) px wide \(outputFormat)")
        }
        guard startRow >= 0, maxRows >= 0, startRow <= rows.height - maxRows else {
            throw .invalidArgument(
                name: "rows", reason: "\(maxRows) rows from row \(startRow) do not fit in \(rows.height) rows")
        }
        if maxRows == 0 { return 0 }
        return try readRows(into: rows.row(startRow), bytesPerRow: rows.bytesPerRow, maxRows: maxRows)
    }

    /// Allocates a buffer for the output and reads every remaining row into it, then finishes.
    func decodeAllRows() throws(CodecError) -> PixelBuffer {
        var buffer: PixelBuffer
        do {
            // The decoder checked the stored size against the caller's limits already.
            buffer = try PixelBuffer(width: outputWidth, height: outputHeight, format: outputFormat, limits: .unlimited)
        } catch {
            throw CodecError(error)
        }
        var y = rowsRead
        while y < outputHeight {
            let n = try readRows(into: &buffer, startRow: y, maxRows: outputHeight - y)
            guard n > 0 else {
                throw .truncated(format: info.format, detail: "the decoder stopped after \(y) of \(outputHeight) rows")
            }
            y += n
        }
        try finish()
        return buffer
    }

    /// Validates the arguments of ``readRows(into:bytesPerRow:maxRows:)``.
    func checkRowArguments(bytesPerRow: Int, maxRows: Int) throws(CodecError) {
        let rowBytes = outputWidth * outputFormat.bytesPerPixel
        guard bytesPerRow >= rowBytes else {
            throw .invalidArgument(name: "bytesPerRow", reason: "\(bytesPerRow) is smaller than a row (\(rowBytes) bytes)")
        }
        guard maxRows >= 0 else { throw .invalidArgument(name: "maxRows", reason: "\(maxRows) is negative") }
    }
}

/// An encoder that takes the image row by row and produces the file's bytes at the end.
///
/// Create one with ``ImageCodec/makeEncoder(format:width:height:inputFormat:metadata:options:)`` or the format's
/// initialiser; feed exactly `height` rows top to bottom; ``finish()`` returns the bytes. Encoders are not
/// thread-safe.
public protocol ImageRowEncoder: AnyObject {
    /// Columns.
    var width: Int { get }
    /// Rows.
    var height: Int { get }
    /// The pixel format of the rows the encoder accepts.
    var inputFormat: PixelFormat { get }
    /// Rows accepted so far.
    var rowsWritten: Int { get }
    /// Problems met and worked around (metadata that could not be written …).
    var warnings: [CodecWarning] { get }

    /// Compresses `count` rows from `source`, row `i` at `source + i × bytesPerRow`.
    ///
    /// - Throws: ``CodecError/invalidArgument(name:reason:)`` when `bytesPerRow` is smaller than a row or the rows
    ///   would go past `height`; the codec's errors otherwise.
    func writeRows(from source: UnsafeRawPointer, bytesPerRow: Int, count: Int) throws(CodecError)

    /// Finishes the file after the last row and lends its bytes to `body` without copying them (the encoder owns
    /// them; they are valid only inside `body`). Calling it again lends the same bytes.
    func finish<R>(_ body: (UnsafeRawBufferPointer) throws(CodecError) -> R) throws(CodecError) -> R
}

extension ImageRowEncoder {
    /// Finishes the file after the last row and returns a copy of its bytes.
    public func finish() throws(CodecError) -> [UInt8] {
        try finish { bytes throws(CodecError) in Array(bytes.bindMemory(to: UInt8.self)) }
    }

    /// Finishes the file and writes it atomically to `path` (see ``FileIO/writeAtomically(_:toPath:overwrite:)``),
    /// straight from the encoder's buffer.
    public func finish(writingTo path: String, overwrite: Bool = false) throws(CodecError) {
        try finish { bytes throws(CodecError) in try FileIO.writeAtomically(bytes, toPath: path, overwrite: overwrite) }
    }

    /// Compresses `count` rows of `buffer` starting at `startRow`.
    public func writeRows(from buffer: PixelBuffer, startRow: Int, count: Int) throws(CodecError) {
        try buffer.withUnsafeRows { rows throws(CodecError) in try writeRows(from: rows, startRow: startRow, count: count) }
    }

    /// Compresses `count` rows of `rows` (from a ``PixelBuffer``'s `withUnsafeRows`) starting at `startRow`.
    ///
    /// - Throws: ``CodecError/invalidArgument(name:reason:)`` when the width or format differs from the encoder's or
    ///   the rows do not fit; the codec's errors otherwise.
    public func writeRows(from rows: UnsafePixelRows, startRow: Int, count: Int) throws(CodecError) {
        guard rows.width == width, rows.format == inputFormat else {
            throw .invalidArgument(
                name: "buffer",
                reason: "\(rows.width) px wide \(rows.format), the encoder takes \(width) px wide \(inputFormat)")
        }
        guard startRow >= 0, count >= 0, startRow <= rows.height - count else {
            throw .invalidArgument(
                name: "rows", reason: "\(count) rows from row \(startRow) do not fit in \(rows.height) rows")
        }
        if count == 0 { return }
        try writeRows(from: rows.row(startRow), bytesPerRow: rows.bytesPerRow, count: count)
    }

    /// Validates the arguments of ``writeRows(from:bytesPerRow:count:)``.
    func checkRowArguments(bytesPerRow: Int, count: Int) throws(CodecError) {
        let rowBytes = width * inputFormat.bytesPerPixel
        guard bytesPerRow >= rowBytes else {
            throw .invalidArgument(name: "bytesPerRow", reason: "\(bytesPerRow) is smaller than a row (\(rowBytes) bytes)")
        }
        guard count >= 0, count <= height - rowsWritten else {
            throw .invalidArgument(
                name: "count", reason: "\(count) rows after \(rowsWritten) of \(height) would not fit the image")
        }
    }
}
