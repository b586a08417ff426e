import CropPixels

/// The rows of a picture that a whole-picture codec (libwebp, libheif) decodes in one call, handed out top to bottom
/// in bands as ``ImageRowDecoder`` promises. The picture is decoded on the first request and released once its last
/// row is out, or when the decoder finishes early.
struct PictureRows {
    /// Rows the picture has.
    let height: Int
    /// Rows handed out so far.
    private(set) var rowsRead = 0
    private var picture: PixelBuffer?

    init(height: Int) {
        self.height = height
    }

    /// Copies up to `maxRows` rows to `destination` (`bytesPerRow` apart), decoding the picture with `decode` first
    /// if it was not yet. Returns the number of rows copied; 0 once every row is out.
    mutating func read(
        into destination: UnsafeMutableRawPointer, bytesPerRow: Int, maxRows: Int,
        decode: () throws(CodecError) -> PixelBuffer
    ) throws(CodecError) -> Int {
        guard rowsRead < height else { return 0 }
        if picture == nil { picture = try decode() }
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
        guard rowsRead == 0 else { return nil }
        let whole: PixelBuffer
        if let picture { whole = picture } else { whole = try decode() }
        picture = nil
        rowsRead = height
        return whole
    }

    /// Drops the picture (the decoder finished, or gave up).
    mutating func release() {
        picture = nil
    }
}
