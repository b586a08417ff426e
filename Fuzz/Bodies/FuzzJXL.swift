import CropCodecs
// libFuzzer target: JPEG XL decoding: libjxl behind the CJXL shim (the header, the colour profile and the boxes read
// by ck_jxl_open, the first frame decoded under the shim's memory cap), strict or lenient, whole or a few rows then
// abandoned. A success must be a picture of the size the header promised.
import Foundation

/// One input of `FuzzJXL`; libFuzzer calls it through `CropKitFuzz`, and `FuzzReplayTests` with every seed.
public func fuzzJXL(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    fuzzDecoder(data, size) { bytes, options in try JXLDecoder(data: bytes, options: options) }
}
