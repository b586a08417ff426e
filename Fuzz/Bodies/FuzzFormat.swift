import CropCodecs
// libFuzzer target: format detection by content and header reading (format, size, orientation, ICC, EXIF) without
// decoding pixels.
import Foundation

/// One input of `FuzzFormat`; libFuzzer calls it through `CropKitFuzz`, and `FuzzReplayTests` with every seed.
public func fuzzFormat(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? ImageFormat.detect(bytes)
    _ = try? ImageInfo.read(bytes, strict: false)
    _ = try? ImageInfo.read(bytes, strict: true)
    return 0
}
