import CropPixels

/// The row protocol for codecs that compress a whole picture in one call (libwebp, libheif): rows are gathered (see
/// ``GatheredRows``) and ``finish(_:)`` compresses them once, writing the file into the output as one piece. A
/// subclass supplies ``compress(_:)``; a failure is kept and repeated.
package class WholePictureEncoder: ImageRowEncoder {
    package let width: Int
    package let height: Int
    package let inputFormat: PixelFormat
    package private(set) var rowsWritten = 0
    package var warnings: [CodecWarning] = []

    /// The file written into, or `nil` for memory.
    let output: AtomicFile?
    private var stage: Stage

    /// Rows gathered, then the file, or the error that ended it.
    private enum Stage {
        case gathering(GatheredRows)
        case encoded([UInt8])
        case failed(CodecError)
    }

    /// Starts gathering `width × height` rows in `inputFormat`, kept at 16 bits when `keepSixteenBits`.
    init(width: Int, height: Int, inputFormat: PixelFormat, keepSixteenBits: Bool, output: AtomicFile?)
        throws(CodecError)
    {
        self.width = width
        self.height = height
        self.inputFormat = inputFormat
        self.output = output
        stage = .gathering(
            try GatheredRows(width: width, height: height, source: inputFormat, keepSixteenBits: keepSixteenBits))
    }

    /// The file's bytes for the gathered picture (RGB or RGBA, 8 or 16-bit as ``GatheredRows/format(for:keepSixteenBits:)``
    /// says). Subclasses override it.
    func compress(_ pixels: PixelBuffer) throws(CodecError) -> [UInt8] {
        throw .invalidArgument(name: "encoder", reason: "no codec behind this encoder")
    }

    package func writeRows(from source: UnsafeRawPointer, bytesPerRow: Int, count: Int) throws(CodecError) {
        if case .failed(let error) = stage { throw error }
        guard case .gathering(var rows) = stage else {
            throw .invalidArgument(name: "rows", reason: "written after finish")
        }
        try checkRowArguments(bytesPerRow: bytesPerRow, count: count)
        stage = .encoded([])  // drop the stage's reference so the rows are appended in place, not copied
        rows.append(source, bytesPerRow: bytesPerRow, rows: count)
        stage = .gathering(rows)
        rowsWritten += count
    }

    package var bytesWritten: Int {
        if case .encoded(let bytes) = stage { bytes.count } else { 0 }
    }

    package func finish<R>(_ body: (UnsafeRawBufferPointer) throws(CodecError) -> R) throws(CodecError) -> R {
        switch stage {
        case .failed(let error):
            throw error
        case .gathering(let rows):
            try checkAllRowsWritten()
            do {
                let file = try compress(rows.pixels)
                if let output {
                    // Array's `withUnsafeBytes` rethrows untyped errors; carry the typed one out in a Result.
                    try file.withUnsafeBytes { buffer in
                        Result { () throws(CodecError) in
                            try FileIO.writeAll(buffer, to: output.descriptor, path: output.path)
                        }
                    }.get()
                }
                stage = .encoded(file)
            } catch {
                stage = .failed(error)
                throw error
            }
        case .encoded:
            break
        }
        guard case .encoded(let bytes) = stage, output == nil else {
            return try body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
        return try bytes.withUnsafeBytes { buffer in Result { () throws(CodecError) -> R in try body(buffer) } }.get()
    }
}
