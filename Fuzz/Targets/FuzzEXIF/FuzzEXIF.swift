// libFuzzer target: EXIF (TIFF) parsing: reading the orientation, rewriting it, and the JPEG APP1 wrapper. A rewrite
// that succeeds must read back the orientation it wrote.
import CropCodecs
import CropGeometry

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = EXIF.readOrientation(tiff: bytes)
    if let tiff = EXIF.tiffBytes(fromAPP1: bytes) { _ = EXIF.readOrientation(tiff: tiff) }
    for orientation in [Orientation.up, .rightTop, .leftBottom] {
        if let rewritten = EXIF.settingOrientation(orientation, in: bytes) {
            let read = EXIF.readOrientation(tiff: rewritten)
            guard read.orientation == orientation, read.rawValue == orientation.exifValue else {
                fatalError("wrote orientation \(orientation), read back \(read)")
            }
        }
    }
    return 0
}
