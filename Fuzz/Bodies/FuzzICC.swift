import CropCodecs
// libFuzzer target: reassembling an ICC profile from JPEG APP2 payloads (sequence numbers, counts, duplicates, gaps),
// and splitting a profile into payloads and back.
import Foundation

/// One input of `FuzzICC`; libFuzzer calls it through `CropKitFuzz`, and `FuzzReplayTests` with every seed.
public func fuzzICC(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // Payloads separated by 0xFF 0x00 0xFF, as many as the input holds.
    var payloads: [[UInt8]] = []
    var current: [UInt8] = []
    var i = 0
    while i < bytes.count {
        if i + 2 < bytes.count, bytes[i] == 0xFF, bytes[i + 1] == 0, bytes[i + 2] == 0xFF {
            payloads.append(current)
            current = []
            i += 3
        } else {
            current.append(bytes[i])
            i += 1
        }
    }
    payloads.append(current)
    _ = ICCProfileChunks.assemble(payloads)
    if let parts = ICCProfileChunks.split(bytes) {
        let (profile, _) = ICCProfileChunks.assemble(parts)
        guard profile == bytes || bytes.isEmpty else { fatalError("split then assemble changed \(bytes.count) bytes") }
    }
    return 0
}
