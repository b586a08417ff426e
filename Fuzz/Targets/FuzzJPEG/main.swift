// libFuzzer target: JPEG decoding through CropKit's shim, at every DCT scale, with and without the progressive
// early stop and strict mode, reading some or all rows, then finishing. Any crash, trap or sanitizer report is a bug;
// errors are the expected outcome for most inputs. Options come from the first byte, the file from the rest.
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
    let scale = JPEGScale.allCases[Int(control & 3)]
    let earlyStop: JPEGEarlyStop = [.off, .exact, .dcOnly][Int(control >> 2 & 3) % 3]
    let options = DecodeOptions(
        limits: PixelLimits(maxPixels: 4_000_000), strict: control & 16 != 0, jpegScale: scale, jpegEarlyStop: earlyStop)
    guard let decoder = try? JPEGDecoder(data: bytes, options: options) else { return 0 }
    exercise(decoder, whole: control & 32 != 0, rows: 5, extraStride: 8)
    return 0
}

var argumentCount = CommandLine.argc
var argumentValues = Optional(CommandLine.unsafeArgv)
exit(LLVMFuzzerRunDriver(&argumentCount, &argumentValues) { data, size in
    guard let data else { return 0 }
    return fuzz(data, size)
})
