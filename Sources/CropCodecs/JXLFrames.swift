import CJXL
import CropPixels

/// The frames of a JPEG XL animation, one at a time, through libjxl (opened at run time): each the whole canvas as a
/// browser shows it (libjxl blends each frame onto the ones before), 8-bit RGBA, unpremultiplied, with its delay.
///
/// Memory: libjxl's decoder state (under the same cap as ``JXLDecoder``'s) and the frame handed out; never all
/// frames at once.
package final class JXLFrames: AnimationFrames {
    package let width: Int
    package let height: Int
    package let info: ImageInfo

    private let handle: OpaquePointer
    private var frame: PixelBuffer

    /// Opens the animation in `bytes`, whose header (``JXLDecoder``'s `info`) was read already.
    ///
    /// - Throws: as ``JXLDecoder/init(input:options:)``.
    package init(bytes: InputBytes, info: ImageInfo, options: DecodeOptions = DecodeOptions()) throws(CodecError) {
        var opened: OpaquePointer?
        var header = ck_jxl_info()
        do throws(CodecError) {
            try ShimStatus.call(format: .jxl) { message in
                ck_jxl_open(bytes.pointer, bytes.count, JXLDecoder.memoryCap(options.limits), &opened, &header, message)
            }
            guard let opened else { throw .corruptData(format: .jxl, message: "libjxl opened nothing") }
            do {
                try options.limits.check(width: Int(header.width), height: Int(header.height))
                frame = try PixelBuffer(
                    width: Int(header.width), height: Int(header.height), format: .rgba8, limits: .unlimited)
            } catch {
                throw CodecError(error)
            }
            try ShimStatus.call(format: .jxl) { ck_jxl_frames_start(opened, Int32(Parallel.coreCount), $0) }
            handle = opened
        } catch {
            ck_jxl_close(opened)
            throw error
        }
        width = Int(header.width)
        height = Int(header.height)
        self.info = info
    }

    /// Opens the animation in `data`.
    package convenience init(data: [UInt8], options: DecodeOptions = DecodeOptions()) throws(CodecError) {
        let bytes = InputBytes(data)
        try self.init(bytes: bytes, info: JXLDecoder(input: .memory(bytes), options: options).info, options: options)
    }

    deinit {
        ck_jxl_close(handle)
    }

    package func next() throws(CodecError) -> (picture: PixelBuffer, delayMilliseconds: Int)? {
        let handle = handle
        let delay = try Self.readFrame(into: &frame, format: .jxl) { ck_jxl_frames_next(handle, $0, $1, $2, $3, $4) }
        return delay.map { (frame, $0) }
    }
}
