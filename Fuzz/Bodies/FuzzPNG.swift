import CropCodecs
import CropPixels
// libFuzzer target: PNG decoding (every colour type and depth, tRNS, Adam7, ancillary chunks) through CropKit's shim,
// in strict or lenient mode, whole or a few rows then abandoned.
import Foundation

/// One input of `FuzzPNG`; libFuzzer calls it through `CropKitFuzz`, and `FuzzReplayTests` with every seed.
public func fuzzPNG(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size >= 1 else { return 0 }
    let control = data[0]
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let options = DecodeOptions(limits: PixelLimits(maxPixels: 4_000_000), strict: control & 1 != 0)
    guard let decoder = try? PNGDecoder(data: bytes, options: options) else { return 0 }
    _ = decoder.metadata
    exercise(decoder, whole: control & 2 != 0, rows: 3)
    return 0
}
