// libFuzzer target: GIF decoding: giflib behind the CGIF shim (the frame count walk over every record, then the first
// frame's LZW data composited on the canvas, interlaced or not), strict or lenient, whole or a few rows then
// abandoned. A success must be a picture of the size the header promised.
import CFuzzDriver
import FuzzSupport
import Foundation
import CropCodecs

/// One input; libFuzzer calls it through the driver below.
func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    fuzzDecoder(data, size) { bytes, options in try GIFDecoder(data: bytes, options: options) }
}

var argumentCount = CommandLine.argc
var argumentValues = Optional(CommandLine.unsafeArgv)
exit(LLVMFuzzerRunDriver(&argumentCount, &argumentValues) { data, size in
    guard let data else { return 0 }
    return fuzz(data, size)
})
