import CropCodecs
import CropPixels
// libFuzzer target: HEIF and AVIF decoding: CropKit's own reader of the transform properties (HEIFTransforms: meta,
// pitm, iprp, ipco, ipma, irot, imir, clap), then the CHEIF shim and libheif: the primary image's properties, the EXIF
// block's TIFF-header offset, the ICC profile, and (for small pictures) the decode itself, 8 or 16-bit, whole or a
// few rows, at full size or shrunk on load. A success must be a picture of the size the decoder promised. An AVIF is
// also read as an image sequence through libavif (AVIFFrames), every frame the promised size.
import Foundation

/// One input of `FuzzHEIF`; libFuzzer calls it through `CropKitFuzz`, and `FuzzReplayTests` with every seed.
public func fuzzHEIF(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size >= 1 else { return 0 }
    let control = data[0]
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    _ = HEIFTransforms(bytes)
    let scale = [JPEGScale.full, .half, .quarter, .eighth][Int(control >> 3) & 3]  // shrink-on-load, for 8-bit opaque
    let options = DecodeOptions(limits: PixelLimits(maxPixels: 1_000_000), strict: control & 1 != 0, jpegScale: scale)
    let format: ImageFormat = control & 4 != 0 ? .avif : .heif
    if format == .avif, control & 0x20 != 0 {
        exerciseFrames(try? AVIFFrames(bytes: InputBytes(bytes), info: ImageInfo.read(bytes), options: options))
    }
    guard let decoder = try? HEIFDecoder(data: bytes, format: format, options: options) else { return 0 }
    exercise(decoder, whole: control & 2 != 0, rows: 2)
    return 0
}
