import CropCodecs
import CropGeometry
// libFuzzer target: EXIF (TIFF) parsing: reading the orientation, rewriting it, and the JPEG APP1 wrapper. A rewrite
// that succeeds must read back the orientation it wrote.
import Foundation

/// One input of `FuzzEXIF`; libFuzzer calls it through `CropKitFuzz`, and `FuzzReplayTests` with every seed.
public func fuzzEXIF(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = EXIF.readOrientation(tiff: bytes)
    if let tiff = EXIF.tiffBytes(fromAPP1: bytes) { _ = EXIF.readOrientation(tiff: tiff) }
    for orientation in [Orientation.up, .rightTop, .leftBottom] {
        if let rewritten = EXIF.settingOrientation(orientation, in: bytes) {
            let read = EXIF.readOrientation(tiff: rewritten)
            // An absent tag reads as 1, so writing 1 into a block without one may leave it absent.
            let tagged = read.rawValue == orientation.exifValue || (orientation == .up && read.rawValue == nil)
            guard read.orientation == orientation, tagged else {
                fatalError("wrote orientation \(orientation), read back \(read)")
            }
        }
    }
    return 0
}
