import CropCodecs
// libFuzzer target: BMP decoding: CropKit's own reader (BMPFile: the file and info headers of every version, bit
// masks, the colour table, a version 5 header's embedded profile; uncompressed rows of 1 to 32 bits, RLE8 and RLE4
// with their escapes and deltas), strict or lenient, whole or a few rows then abandoned. A success must be a picture
// of the size the header promised.
import Foundation

/// One input of `FuzzBMP`; libFuzzer calls it through `CropKitFuzz`, and `FuzzReplayTests` with every seed.
public func fuzzBMP(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    fuzzDecoder(data, size) { bytes, options in try BMPDecoder(data: bytes, options: options) }
}
