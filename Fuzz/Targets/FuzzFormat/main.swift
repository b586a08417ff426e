// libFuzzer target: format detection by content and header reading (format, size, orientation, ICC, EXIF) without
// decoding pixels.
import CFuzzDriver
import Foundation
import CropCodecs

/// One input; libFuzzer calls it through the driver below.
func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? ImageFormat.detect(bytes)
    _ = try? ImageInfo.read(bytes, strict: false)
    _ = try? ImageInfo.read(bytes, strict: true)
    return 0
}

var argumentCount = CommandLine.argc
var argumentValues = Optional(CommandLine.unsafeArgv)
exit(LLVMFuzzerRunDriver(&argumentCount, &argumentValues) { data, size in
    guard let data else { return 0 }
    return fuzz(data, size)
})
