import CWebP
import CropPixels

/// An animated WebP written with libwebpmux's `WebPAnimEncoder`: each frame lossy or lossless as the options say,
/// only the part that changed from the frame before stored, durations in milliseconds.
package final class WebPAnimationEncoder: AnimationEncoder {
    private let handle: OpaquePointer
    private let width: Int, height: Int

    /// - Throws: ``CodecError/invalidArgument(name:reason:)`` past 16383 pixels a side or for options out of range,
    ///   ``CodecError/libraryUnavailable(format:reason:)`` without libwebpmux.
    package init(width: Int, height: Int, playCount: Int?, options: WebPEncodeOptions) throws(CodecError) {
        try EncoderChecks.size(width: width, height: height, maxDimension: WebPEncoder.maxDimension, format: .webp)
        try EncoderChecks.settings(format: .webp, quality: options.quality, effort: options.effort)
        var params = options.shimParameters(alpha: true)
        var opened: OpaquePointer?
        let loops = Int32(clamping: playCount ?? 1)
        try ShimStatus.call(format: .webp, role: "encoder") { message in
            ck_webp_anim_open(Int32(width), Int32(height), loops, &params, &opened, message)
        }
        guard let opened else { throw .resourceLimit(format: .webp, message: "libwebp started no animation") }
        handle = opened
        self.width = width
        self.height = height
    }

    deinit {
        ck_webp_anim_close(handle)
    }

    package func add(_ frame: PixelBuffer, delayMilliseconds: Int) throws(CodecError) {
        let handle = handle
        let duration = Int32(clamping: delayMilliseconds)
        try addFrame(frame, width: width, height: height, format: .webp) {
            ck_webp_anim_add(handle, $0, Int32($1), duration, $2)
        }
    }

    package func finish() throws(CodecError) -> [UInt8] {
        let handle = handle
        return try finishedFile(
            format: .webp, { ck_webp_anim_finish(handle, $0, $1, $2) }, release: { ck_webp_free($0) })
    }
}
