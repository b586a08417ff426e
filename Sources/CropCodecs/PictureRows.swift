import CropPixels

/// The rows of a picture that a whole-picture codec (libwebp, libheif) decodes in one call, handed out top to bottom
/// in bands as ``ImageRowDecoder`` promises. The picture is decoded on the first request and released once its last
/// row is out, or when the decoder finishes early. A decoding error is kept and repeated, as ``ImageRowDecoder`` promises.
struct PictureRows {
    /// Rows the picture has.
    let height: Int
    /// Rows handed out so far.
    private(set) var rowsRead = 0
    private var picture: PixelBuffer?
    private var failure: CodecError?

    init(height: Int) {
        self.height = height
    }

    /// Copies up to `maxRows` rows to `destination` (`bytesPerRow` apart), decoding the picture with `decode` first
    /// if it was not yet. Returns the number of rows copied; 0 once every row is out.
    mutating func read(
        into destination: UnsafeMutableRawPointer, bytesPerRow: Int, maxRows: Int,
        decode: () throws(CodecError) -> PixelBuffer
    ) throws(CodecError) -> Int {
        if let failure { throw failure }
        guard rowsRead < height else { return 0 }
        if picture == nil { picture = try remembering(decode) }
        guard let picture else { return 0 }
        let count = Swift.min(maxRows, height - rowsRead), first = rowsRead
        let rowBytes = picture.width * picture.format.bytesPerPixel
        picture.withUnsafeRows { rows in
            for i in 0..<count {
                (destination + i * bytesPerRow).copyMemory(from: rows.row(first + i), byteCount: rowBytes)
            }
        }
        rowsRead += count
        if rowsRead == height { self.picture = nil }
        return count
    }

    /// The whole picture, when no row was handed out yet (decoded with `decode`); `nil` otherwise.
    mutating func takeWhole(decode: () throws(CodecError) -> PixelBuffer) throws(CodecError) -> PixelBuffer? {
        if let failure { throw failure }
        guard rowsRead == 0 else { return nil }
        let whole: PixelBuffer
        if let picture { whole = picture } else { whole = try remembering(decode) }
        picture = nil
        rowsRead = height
        return whole
    }

    /// Runs `decode`, keeping its error for every later call.
    private mutating func remembering(_ decode: () throws(CodecError) -> PixelBuffer) throws(CodecError) -> PixelBuffer
    {
        do {
            return try decode()
        } catch {
            failure = error
            throw error
        }
    }

    /// Drops the picture (the decoder finished, or gave up).
    mutating func release() {
        picture = nil
    }
}

/// A decoder over a whole-picture codec: it supplies ``decodePicture()`` and keeps a ``PictureRows``; the row protocol
/// of ``ImageRowDecoder`` comes from here, the same for every such codec.
protocol WholePictureDecoder: ImageRowDecoder {
    /// The picture's rows and how many were handed out.
    var pictureRows: PictureRows { get set }
    /// Decodes the whole picture into a new buffer of the output's size and format.
    func decodePicture() throws(CodecError) -> PixelBuffer
}

extension WholePictureDecoder {
    package var rowsRead: Int { pictureRows.rowsRead }

    package func decodeAll() throws(CodecError) -> PixelBuffer {
        if let whole = try pictureRows.takeWhole(decode: decodePicture) { return whole }
        return try decodeAllRows()
    }

    package func readRows(into destination: UnsafeMutableRawPointer, bytesPerRow: Int, maxRows: Int)
        throws(CodecError) -> Int
    {
        try checkRowArguments(bytesPerRow: bytesPerRow, maxRows: maxRows)
        return try pictureRows.read(
            into: destination, bytesPerRow: bytesPerRow, maxRows: maxRows, decode: decodePicture)
    }

    package func finish() throws(CodecError) {
        pictureRows.release()
    }
}
