import CropPixels

/// The frames of an animation, one at a time, each the whole canvas composited as a browser shows it (8-bit RGBA):
/// ``GIFFrames`` and ``WebPFrames``.
package protocol AnimationFrames: AnyObject {
    /// The canvas.
    var width: Int { get }
    var height: Int { get }
    /// What the file's header says: frame count, play count, duration.
    var info: ImageInfo { get }
    /// The next frame and its delay in milliseconds, or `nil` after the last.
    func next() throws(CodecError) -> (picture: PixelBuffer, delayMilliseconds: Int)?
}

/// A copy of a file's bytes at an address that stays put for as long as this object lives: what a C library that
/// keeps reading between calls (giflib, libwebpdemux) is handed.
final class PinnedBytes: @unchecked Sendable {
    // @unchecked Sendable: the bytes are written once, here, and only read after.
    let buffer: UnsafeMutableBufferPointer<UInt8>

    init(_ bytes: [UInt8]) {
        buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: Swift.max(1, bytes.count))
        _ = buffer.initialize(from: bytes)
        count = bytes.count
    }

    /// The bytes held (the buffer has at least one, for an empty file).
    let count: Int
    var pointer: UnsafePointer<UInt8>? { UnsafePointer(buffer.baseAddress) }

    deinit {
        buffer.deallocate()
    }
}
