// libFuzzer target: GIF decoding: giflib behind the CGIF shim (the frame count walk over every record, then the first
// frame's LZW data composited on the canvas, interlaced or not; the shim's own LZW decoder for code sizes 9 to 11),
// strict or lenient, whole or a few rows then abandoned; with control bit 4, every frame composited (GIFFrames). A
// success must be a picture of the size the header promised, and every frame the canvas's size.
import Foundation
import CropCodecs
import CropPixels

/// One input of `FuzzGIF`; libFuzzer calls it through `CropKitFuzz`, and `FuzzReplayTests` with every seed.
public func fuzzGIF(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    _ = fuzzDecoder(data, size) { bytes, options in try GIFDecoder(data: bytes, options: options) }
    // Control bit 4: every frame composited (GIFFrames: disposal, transparency, frames past the canvas), at most 64.
    guard size >= 1, data[0] & 16 != 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    guard let frames = try? GIFFrames(data: bytes, options: DecodeOptions(limits: PixelLimits(maxPixels: 1_000_000)))
    else { return 0 }
    for _ in 0..<64 {
        guard let frame = try? frames.next() else { break }
        guard frame.picture.width == frames.width, frame.picture.height == frames.height else {
            fatalError("a frame of \(frame.picture.width)×\(frame.picture.height) on a \(frames.width)×\(frames.height) canvas")
        }
    }
    return 0
}
