// libFuzzer target: GIF decoding: giflib behind the CGIF shim (the frame count walk over every record, then the first
// frame's LZW data composited on the canvas, interlaced or not), strict or lenient, whole or a few rows then
// abandoned. A success must be a picture of the size the header promised.
import Foundation
import CropCodecs

/// One input of `FuzzGIF`; libFuzzer calls it through `CropKitFuzz`, and `FuzzReplayTests` with every seed.
public func fuzzGIF(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    fuzzDecoder(data, size) { bytes, options in try GIFDecoder(data: bytes, options: options) }
}
