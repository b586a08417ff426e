import CropPixels

/// An encoder that takes the image row by row and produces the file's bytes at the end.
///
/// Create one with ``ImageCodec/makeEncoder(format:width:height:inputFormat:metadata:options:)`` or the format's
/// initialiser; feed exactly `height` rows top to bottom; ``finish()`` returns the bytes. Encoders are not
/// thread-safe.
package protocol ImageRowEncoder: AnyObject {
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

    /// The encoded bytes produced so far (all of them after ``finish(_:)``), in memory or in the output file.
    var bytesWritten: Int { get }

    /// Finishes the file after the last row and lends its bytes to `body` without copying them (the encoder owns
    /// them; they are valid only inside `body`). Calling it again lends the same bytes. An encoder writing into a
    /// file lends no bytes: they are in the file.
    func finish<R>(_ body: (UnsafeRawBufferPointer) throws(CodecError) -> R) throws(CodecError) -> R
}

extension ImageRowEncoder {
    /// Finishes the file after the last row and returns a copy of its bytes.
    package func finish() throws(CodecError) -> [UInt8] {
        try finish { bytes throws(CodecError) in Array(bytes.bindMemory(to: UInt8.self)) }
    }

    /// Finishes the file and writes it atomically to `path` (see ``FileIO/writeAtomically(_:toPath:overwrite:)``),
    /// straight from the encoder's buffer.
    package func finish(writingTo path: String, overwrite: Bool = false) throws(CodecError) {
        try finish { bytes throws(CodecError) in try FileIO.writeAtomically(bytes, toPath: path, overwrite: overwrite) }
    }

    /// Compresses `count` rows of `buffer` starting at `startRow`.
    package func writeRows(from buffer: PixelBuffer, startRow: Int, count: Int) throws(CodecError) {
        try buffer.withUnsafeRows { rows throws(CodecError) in
            try writeRows(from: rows, startRow: startRow, count: count)
        }
    }

    /// Compresses `count` rows of `rows` (from a ``PixelBuffer``'s `withUnsafeRows`) starting at `startRow`.
    ///
    /// - Throws: ``CodecError/invalidArgument(name:reason:)`` when the width or format differs from the encoder's or
    ///   the rows do not fit; the codec's errors otherwise.
    package func writeRows(from rows: UnsafePixelRows, startRow: Int, count: Int) throws(CodecError) {
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
            throw .invalidArgument(
                name: "bytesPerRow", reason: "\(bytesPerRow) is smaller than a row (\(rowBytes) bytes)")
        }
        guard count >= 0, count <= height - rowsWritten else {
            throw .invalidArgument(
                name: "count", reason: "\(count) rows after \(rowsWritten) of \(height) would not fit the image")
        }
    }
}
