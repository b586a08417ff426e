import CropCodecs
import CropPixels

/// A picture already decoded whole at one shrink-on-load scale (for a smart gravity, which measures the pixels
/// before the crop is planned), handed to the render as its decoder so the file is decoded once.
struct PredecodedPicture {
    /// The most pixels a smart gravity decodes and holds whole (about 72 MB of 8-bit RGB); larger pictures are
    /// measured on a streamed copy and decoded again for the render.
    static let pixelBudget = 24_000_000

    /// The shrink-on-load denominator the picture was decoded at.
    let scale: Int
    /// The decoded pixels, in the stored orientation.
    let pixels: PixelBuffer
    /// The decoder's header facts, metadata and warnings.
    let info: ImageInfo
    let metadata: ImageMetadata
    let warnings: [CodecWarning]

    /// A decoder that hands out ``pixels`` row by row.
    func decoder() -> any ImageRowDecoder { PredecodedRows(self) }
}

/// ``PredecodedPicture``'s rows through the decoder protocol. Invariant: `rowsRead` ≤ the picture's height.
final class PredecodedRows: ImageRowDecoder {
    let picture: PredecodedPicture
    private(set) var rowsRead = 0

    init(_ picture: PredecodedPicture) { self.picture = picture }

    var info: ImageInfo { picture.info }
    var metadata: ImageMetadata { picture.metadata }
    var outputWidth: Int { picture.pixels.width }
    var outputHeight: Int { picture.pixels.height }
    var outputFormat: PixelFormat { picture.pixels.format }
    var warnings: [CodecWarning] { picture.warnings }

    func readRows(into destination: UnsafeMutableRawPointer, bytesPerRow: Int, maxRows: Int) throws(CodecError) -> Int {
        let rowBytes = outputWidth * outputFormat.bytesPerPixel
        guard maxRows >= 0 else { throw .invalidArgument(name: "maxRows", reason: "\(maxRows) is negative") }
        guard bytesPerRow >= rowBytes else {
            throw .invalidArgument(
                name: "bytesPerRow", reason: "\(bytesPerRow) is less than a row of \(rowBytes) bytes")
        }
        let n = Swift.min(maxRows, outputHeight - rowsRead)
        picture.pixels.withUnsafeRows { rows in
            for i in 0..<n {
                (destination + i * bytesPerRow).copyMemory(from: rows.row(rowsRead + i), byteCount: rowBytes)
            }
        }
        rowsRead += n
        return n
    }

    func finish() throws(CodecError) {}

    func decodeAll() throws(CodecError) -> PixelBuffer {
        rowsRead = outputHeight
        return picture.pixels
    }
}
