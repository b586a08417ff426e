import CGIF
import CropPixels

/// The frames of an animated GIF, one at a time, each composited on the canvas as a browser shows it: the previous
/// frame disposed of as it asks (left, cleared to transparent, or restored to what was under it), then the frame's
/// pixels other than its transparent colour. Every frame is the whole canvas, 8-bit RGBA.
///
/// Memory: the canvas, a copy of it for "restore to previous", and the frame handed out; never all frames at once.
package final class GIFFrames: AnimationFrames {
    /// The canvas (``GIFDecoder``'s: the logical screen, grown to hold the first frame).
    package let width: Int
    package let height: Int
    package let info: ImageInfo

    /// The file's bytes, which giflib reads from between calls.
    private let bytes: InputBytes
    private let handle: OpaquePointer
    private var canvas: PixelBuffer

    /// Opens the animation; checks the canvas against the limits.
    ///
    /// - Throws: as ``GIFDecoder/init(input:options:)``.
    package convenience init(data: [UInt8], options: DecodeOptions = DecodeOptions()) throws(CodecError) {
        let bytes = InputBytes(data)
        try self.init(bytes: bytes, info: GIFDecoder(input: .memory(bytes), options: options).info, options: options)
    }

    /// Opens the animation in `bytes`, whose header (``GIFDecoder``'s `info`: the canvas, grown to hold the first
    /// frame) was read already; checks the canvas against the limits.
    package init(bytes: InputBytes, info: ImageInfo, options: DecodeOptions = DecodeOptions()) throws(CodecError) {
        self.info = info
        width = info.width
        height = info.height
        do {
            try options.limits.check(width: width, height: height)
            canvas = try PixelBuffer(width: width, height: height, format: .rgba8, limits: .unlimited)
        } catch {
            throw CodecError(error)
        }
        var opened: OpaquePointer?
        let width = Int32(width), height = Int32(height)
        try ShimStatus.call(format: .gif) { message in
            ck_gif_frames_open(bytes.pointer, bytes.count, width, height, &opened, message)
        }
        guard let opened else { throw .corruptData(format: .gif, message: "giflib opened nothing") }
        handle = opened
        self.bytes = bytes
    }

    deinit {
        ck_gif_frames_close(handle)
    }

    /// The next frame composited on the canvas and its delay in milliseconds, or `nil` after the last.
    ///
    /// - Throws: ``CodecError`` for a broken frame.
    package func next() throws(CodecError) -> (picture: PixelBuffer, delayMilliseconds: Int)? {
        let handle = handle
        let hundredths = try Self.readFrame(into: &canvas, format: .gif) {
            ck_gif_frames_next(handle, $0, $1, $2, $3, $4)
        }
        return hundredths.map { (canvas, $0 * 10) }
    }
}
