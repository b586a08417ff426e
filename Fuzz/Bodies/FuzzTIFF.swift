import CropCodecs
// libFuzzer target: TIFF decoding: libtiff behind the CTIFF shim (tags, strips and tiles through every codec libtiff
// has, the shim's own sample scattering for contiguous and planar layouts, MinIsWhite and unpremultiplying, and
// libtiff's RGBA reader), strict or lenient, whole or a few rows then abandoned. A success must be a picture of the
// size the header promised.
import Foundation

/// One input of `FuzzTIFF`; libFuzzer calls it through `CropKitFuzz`, and `FuzzReplayTests` with every seed.
public func fuzzTIFF(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    fuzzDecoder(data, size) { bytes, options in try TIFFDecoder(data: bytes, options: options) }
}
