import CropPixels

/// A decoder that hands out the decoded image row by row, so a pipeline never needs the whole image in memory.
///
/// Create one with ``ImageCodec/makeDecoder(data:options:)`` (or ``JPEGDecoder``/``PNGDecoder`` directly): the
/// initialiser reads the header and metadata and checks the pixel limits; decoding starts with the first
/// ``readRows(into:bytesPerRow:maxRows:)``. Rows come top to bottom in ``outputFormat``; call ``finish()`` after the
/// last row to verify the rest of the file and collect its warnings. After an error the decoder only repeats it.
///
/// Decoders are not thread-safe; use one from one thread at a time.
package protocol ImageRowDecoder: AnyObject {
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
    package func readRows(into buffer: inout PixelBuffer, startRow: Int, maxRows: Int) throws(CodecError) -> Int {
        try buffer.withUnsafeMutableRows { rows throws(CodecError) in
            try readRows(into: rows, startRow: startRow, maxRows: maxRows)
        }
    }

    /// Decodes up to `maxRows` rows into `rows` (from a ``PixelBuffer``'s `withUnsafeMutableRows`), starting at its
    /// row `startRow`, with the same checks as the `PixelBuffer` variant.
    package func readRows(into rows: UnsafePixelRows, startRow: Int, maxRows: Int) throws(CodecError) -> Int {
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

    /// A new, cleared buffer of the output's size, in `format` (the output's own by default). The decoder checked the
    /// stored size against the caller's limits already, so none are applied again.
    func makeOutputBuffer(format: PixelFormat? = nil) throws(CodecError) -> PixelBuffer {
        do {
            return try PixelBuffer(
                width: outputWidth, height: outputHeight, format: format ?? outputFormat, limits: .unlimited)
        } catch {
            throw CodecError(error)
        }
    }

    /// Allocates a buffer for the output and reads every remaining row into it, then finishes.
    func decodeAllRows() throws(CodecError) -> PixelBuffer {
        var buffer = try makeOutputBuffer()
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
            throw .invalidArgument(
                name: "bytesPerRow", reason: "\(bytesPerRow) is smaller than a row (\(rowBytes) bytes)")
        }
        guard maxRows >= 0 else { throw .invalidArgument(name: "maxRows", reason: "\(maxRows) is negative") }
    }
}
