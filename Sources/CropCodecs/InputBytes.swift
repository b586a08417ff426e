import CJPEG
import CropGeometry
import CropPixels

/// A private copy of the input bytes with a stable address, for the C decoders to read from.
package final class InputBytes {
    package let pointer: UnsafePointer<UInt8>
    package let count: Int

    package init(_ bytes: [UInt8]) {
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: max(bytes.count, 1))
        bytes.withUnsafeBufferPointer { source in
            if let base = source.baseAddress { buffer.initialize(from: base, count: source.count) }
        }
        pointer = UnsafePointer(buffer)
        count = bytes.count
    }

    deinit {
        UnsafeMutablePointer(mutating: pointer).deallocate()
    }
}
