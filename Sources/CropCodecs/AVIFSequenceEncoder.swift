import CAVIF
import CropPixels

/// An AVIF image sequence written with libavif (`avifEncoderAddImage`, durations in milliseconds), each frame at the
/// options' quality and AV1 speed, 8-bit 4:2:0 (4:4:4 from quality 90 or lossless), alpha kept. libavif 0.11 writes
/// no loop count: players loop a sequence for ever.
package final class AVIFSequenceEncoder: AnimationEncoder {
    private let handle: OpaquePointer
    private let width: Int, height: Int

    package init(width: Int, height: Int, options: HEIFEncodeOptions) throws(CodecError) {
        try EncoderChecks.size(width: width, height: height, maxDimension: 65_536, format: .avif)
        try EncoderChecks.settings(format: .avif, quality: options.quality, effort: options.effort)
        var params = ck_avif_encode_params()
        params.quality = Int32(options.lossless ? 100 : options.quality)
        params.speed = options.av1Speed
        params.bit_depth = 8
        params.alpha = 1
        params.full_chroma = options.lossless || options.quality >= 90 ? 1 : 0
        params.threads = 2
        var opened: OpaquePointer?
        try ShimStatus.call(format: .avif, role: "encoder") { message in
            ck_avif_sequence_open(Int32(width), Int32(height), &params, &opened, message)
        }
        guard let opened else { throw .resourceLimit(format: .avif, message: "libavif started no sequence") }
        handle = opened
        self.width = width
        self.height = height
    }

    deinit {
        ck_avif_sequence_close(handle)
    }

    package func add(_ frame: PixelBuffer, delayMilliseconds: Int) throws(CodecError) {
        let handle = handle
        let duration = Int32(clamping: delayMilliseconds)
        try addFrame(frame, width: width, height: height, format: .avif) {
            ck_avif_sequence_add(handle, $0, $1, duration, $2)
        }
    }

    package func finish() throws(CodecError) -> [UInt8] {
        let handle = handle
        return try finishedFile(
            format: .avif, { ck_avif_sequence_finish(handle, $0, $1, $2) }, release: { ck_avif_free($0) })
    }
}
