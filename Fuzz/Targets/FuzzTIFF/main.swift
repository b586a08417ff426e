// libFuzzer target: TIFF decoding: libtiff behind the CTIFF shim (tags, strips and tiles through every codec libtiff
// has, the shim's own sample scattering for contiguous and planar layouts, MinIsWhite and unpremultiplying, and
// libtiff's RGBA reader), strict or lenient, whole or a few rows then abandoned. A success must be a picture of the
// size the header promised.
import CFuzzDriver
import FuzzSupport
import Foundation
import CropCodecs
import CropPixels

/// One input; libFuzzer calls it through the driver below.
func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size >= 1 else { return 0 }
    let control = data[0]
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let options = DecodeOptions(limits: PixelLimits(maxPixels: 4_000_000), strict: control & 4 != 0)
    guard let decoder = try? TIFFDecoder(data: bytes, options: options) else { return 0 }
    exercise(decoder, whole: control & 8 != 0, rows: 3)
    return 0
}

var argumentCount = CommandLine.argc
var argumentValues = Optional(CommandLine.unsafeArgv)
exit(LLVMFuzzerRunDriver(&argumentCount, &argumentValues) { data, size in
    guard let data else { return 0 }
    return fuzz(data, size)
})
