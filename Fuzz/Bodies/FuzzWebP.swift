import CropCodecs
import CropPixels
// libFuzzer target: WebP decoding: CropKit's own RIFF container reader (VP8X, ICCP, EXIF, ANMF: the first frame
// rebuilt as a still file) and libwebp behind the CWebP shim, at every shrink-on-load scale, strict or lenient, whole
// or a few rows then abandoned; with control bit 4, every frame of an animation (WebPFrames, libwebpdemux). A success
// must be a picture of the size the header promised, and every frame the canvas's size.
import Foundation

/// One input of `FuzzWebP`; libFuzzer calls it through `CropKitFuzz`, and `FuzzReplayTests` with every seed.
public func fuzzWebP(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size >= 1 else { return 0 }
    let control = data[0]
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    _ = try? WebPContainer(bytes)
    let options = DecodeOptions(
        limits: PixelLimits(maxPixels: 4_000_000), strict: control & 4 != 0,
        jpegScale: JPEGScale.allCases[Int(control & 3)])
    guard let decoder = try? WebPDecoder(data: bytes, options: options) else { return 0 }
    exercise(decoder, whole: control & 8 != 0, rows: 3)
    // Control bit 4: every frame of an animation through libwebpdemux (WebPFrames).
    guard control & 16 != 0 else { return 0 }
    exerciseFrames(try? WebPFrames(data: bytes, options: frameOptions))
    return 0
}
