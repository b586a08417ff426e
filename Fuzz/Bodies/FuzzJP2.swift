import CropCodecs
// libFuzzer target: JPEG 2000 decoding: OpenJPEG behind the CJP2 shim (JP2 boxes and J2K codestreams, tiles, the
// component conversion with its sYCC and subsampling paths), strict or lenient, whole or a few rows then abandoned. A
// success must be a picture of the size the header promised.
import Foundation

/// One input of `FuzzJP2`; libFuzzer calls it through `CropKitFuzz`, and `FuzzReplayTests` with every seed.
public func fuzzJP2(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    fuzzDecoder(data, size) { bytes, options in try JP2Decoder(data: bytes, options: options) }
}
