import CWebP
import CropPixels

/// The frames of an animated WebP, one at a time, each the whole canvas (8-bit RGBA) with libwebp's blending and
/// disposal applied (libwebpdemux's `WebPAnimDecoder`, opened at run time).
///
/// Memory: libwebp's canvas and previous canvas, and the frame handed out; never all frames at once.
package final class WebPFrames: AnimationFrames {
    package let width: Int
    package let height: Int
    package let info: ImageInfo

    /// The file's bytes, which libwebp reads from between calls.
    private let bytes: InputBytes
    private let handle: OpaquePointer
    private var frame: PixelBuffer

    /// Opens the animation; checks the canvas against the limits.
    ///
    /// - Throws: as ``WebPDecoder/init(input:options:)``, ``CodecError/corruptData(format:message:)`` when libwebp
    ///   cannot read the animation, ``CodecError/libraryUnavailable(format:reason:)`` without libwebpdemux.
    package convenience init(data: [UInt8], options: DecodeOptions = DecodeOptions()) throws(CodecError) {
        let bytes = InputBytes(data)
        try self.init(bytes: bytes, info: WebPDecoder(input: .memory(bytes), options: options).info, options: options)
    }

    /// Opens the animation in `bytes`, whose header (``WebPDecoder``'s `info`) was read already; libwebp checks the
    /// canvas against the limits.
    package init(bytes: InputBytes, info: ImageInfo, options: DecodeOptions = DecodeOptions()) throws(CodecError) {
        self.info = info
        var opened: OpaquePointer?
        var width: Int32 = 0, height: Int32 = 0, count: Int32 = 0, loops: Int32 = 0
        let limit = Int32(clamping: options.limits.maxPixels)
        try ShimStatus.call(format: .webp) { message in
            ck_webp_frames_open(bytes.pointer, bytes.count, limit, &opened, &width, &height, &count, &loops, message)
        }
        guard let opened,
            let canvas = try? PixelBuffer(
                width: Int(width), height: Int(height), format: .rgba8, limits: .unlimited)
        else {
            if let opened { ck_webp_frames_close(opened) }
            throw .corruptData(format: .webp, message: "an animation canvas of \(width)×\(height)")
        }
        handle = opened
        frame = canvas
        self.width = Int(width)
        self.height = Int(height)
        self.bytes = bytes
    }

    deinit {
        ck_webp_frames_close(handle)
    }

    /// The next frame and its duration in milliseconds, or `nil` after the last.
    ///
    /// - Throws: ``CodecError`` for a frame libwebp cannot decode.
    package func next() throws(CodecError) -> (picture: PixelBuffer, delayMilliseconds: Int)? {
        let handle = handle
        let duration = try Self.readFrame(into: &frame, format: .webp) {
            ck_webp_frames_next(handle, $0, $1, $2, $3, $4)
        }
        return duration.map { (frame, $0) }
    }
}
