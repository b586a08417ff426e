import CropCodecs
import CropPixels
// libFuzzer target: GIF decoding: giflib behind the CGIF shim (the frame count walk over every record, then the first
// frame's LZW data composited on the canvas, interlaced or not; the shim's own LZW decoder for code sizes 9 to 11),
// strict or lenient, whole or a few rows then abandoned; with control bit 4, every frame composited (GIFFrames). A
// success must be a picture of the size the header promised, and every frame the canvas's size.
import Foundation

/// One input of `FuzzGIF`; libFuzzer calls it through `CropKitFuzz`, and `FuzzReplayTests` with every seed.
public func fuzzGIF(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    _ = fuzzDecoder(data, size) { bytes, options in try GIFDecoder(data: bytes, options: options) }
    // Control bit 4: every frame composited (GIFFrames: disposal, transparency, frames past the canvas).
    guard size >= 1, data[0] & 16 != 0 else { return 0 }
    exerciseFrames(
        try? GIFFrames(data: Array(UnsafeBufferPointer(start: data + 1, count: size - 1)), options: frameOptions))
    return 0
}
