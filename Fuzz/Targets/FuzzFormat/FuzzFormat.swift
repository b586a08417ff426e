// libFuzzer target: format detection by content and header reading (format, size, orientation, ICC, EXIF) without
// decoding pixels.
import CropCodecs

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? ImageFormat.detect(bytes)
    _ = try? ImageInfo.read(bytes, strict: false)
    _ = try? ImageInfo.read(bytes, strict: true)
    return 0
}
