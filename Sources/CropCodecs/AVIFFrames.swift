import CAVIF
import CropPixels

/// The frames of an AVIF image sequence (`avis`), one at a time, through libavif's track decoding (opened at run
/// time): each frame a whole picture, 8-bit RGBA, limited-range alpha expanded.
///
/// libavif 0.11 reads no loop count, so a sequence is taken to play for ever (``ImageInfo/playCount`` 0), as browsers
/// play one that does not say.
///
/// Memory: libavif's decoder state and the frame handed out; never all frames at once.
package final class AVIFFrames: AnimationFrames {
    package let width: Int
    package let height: Int
    package let info: ImageInfo

    /// The file's bytes, which libavif reads from between calls.
    private let bytes: InputBytes
    private let handle: OpaquePointer
    private var frame: PixelBuffer

    /// Opens the sequence in `bytes`, whose header (``HEIFDecoder``'s `info`) was read already.
    ///
    /// - Throws: ``CodecError/corruptData(format:message:)`` when libavif cannot read the sequence or its frames are
    ///   above the limits, ``CodecError/libraryUnavailable(format:reason:)`` without libavif.
    package init(bytes: InputBytes, info: ImageInfo, options: DecodeOptions = DecodeOptions()) throws(CodecError) {
        var opened: OpaquePointer?
        var width: Int32 = 0, height: Int32 = 0, count: Int32 = 0, duration = 0.0
        let limit = Int32(clamping: options.limits.maxPixels), strict: Int32 = options.strict ? 1 : 0
        try ShimStatus.call(format: .avif) { message in
            ck_avif_frames_open(bytes.pointer, bytes.count, limit, strict, &opened, &width, &height, &count, &duration, message)
        }
        guard let opened else { throw .corruptData(format: .avif, message: "libavif opened no sequence") }
        do {
            frame = try PixelBuffer(width: Int(width), height: Int(height), format: .rgba8, limits: .unlimited)
        } catch {
            ck_avif_frames_close(opened)
            throw CodecError(error)
        }
        handle = opened
        self.width = Int(width)
        self.height = Int(height)
        self.info = info
        self.bytes = bytes
    }

    /// Opens the sequence in `data`.
    package convenience init(data: [UInt8], options: DecodeOptions = DecodeOptions()) throws(CodecError) {
        let bytes = InputBytes(data)
        try self.init(bytes: bytes, info: HEIFDecoder(input: .memory(bytes), options: options).info, options: options)
    }

    deinit {
        ck_avif_frames_close(handle)
    }

    /// What libavif says of the sequence in `bytes` without decoding a frame: its frame count and the duration of
    /// one play in seconds; `nil` when libavif cannot read it as a sequence.
    static func sequence(in bytes: InputBytes, options: DecodeOptions) -> (frames: Int, duration: Double)? {
        var opened: OpaquePointer?
        var width: Int32 = 0, height: Int32 = 0, count: Int32 = 0, duration = 0.0
        let limit = Int32(clamping: options.limits.maxPixels)
        let status = ShimStatus.run { message in
            ck_avif_frames_open(bytes.pointer, bytes.count, limit, 0, &opened, &width, &height, &count, &duration, message)
        }.status
        ck_avif_frames_close(opened)
        return status == ShimStatus.ok ? (Int(count), duration) : nil
    }

    package func next() throws(CodecError) -> (picture: PixelBuffer, delayMilliseconds: Int)? {
        let handle = handle
        let duration = try Self.readFrame(into: &frame, format: .avif) { ck_avif_frames_next(handle, $0, $1, $2, $3, $4) }
        return duration.map { (frame, $0) }
    }
}

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
        return try finishedFile(format: .avif, { ck_avif_sequence_finish(handle, $0, $1, $2) }, release: { ck_avif_free($0) })
    }
}
