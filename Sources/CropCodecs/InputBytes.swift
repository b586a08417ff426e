import CJPEG
import CropGeometry
import CropPixels

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A private copy of the input bytes with a stable address, for the C decoders to read from, including those that
/// keep reading between calls (giflib and libwebpdemux for an animation's frames).
package final class InputBytes: @unchecked Sendable {
    // @unchecked Sendable: the bytes are written once, in `init`, and only read after.
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

    /// Reads all of `file` (its size when it was opened) straight into the copy, with no array in between.
    ///
    /// - Throws: ``CodecError/ioFailure(path:operation:reason:)`` when a read fails, ``CodecError/truncated(format:detail:)``
    ///   never: a file that shrank gives the bytes it still has.
    package init(file: InputFile) throws(CodecError) {
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: max(file.size, 1))
        var filled = 0
        while filled < file.size {
            let n = pread(file.descriptor, buffer + filled, file.size - filled, off_t(filled))
            if n > 0 {
                filled += n
            } else if n == 0 {
                break
            } else if errno != EINTR {
                buffer.deallocate()
                throw FileIO.failure(file.path, "read")
            }
        }
        pointer = UnsafePointer(buffer)
        count = filled
    }

    deinit {
        UnsafeMutablePointer(mutating: pointer).deallocate()
    }
}
