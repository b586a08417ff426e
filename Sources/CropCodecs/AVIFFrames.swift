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
            ck_avif_frames_open(
                bytes.pointer, bytes.count, limit, strict, &opened, &width, &height, &count, &duration, message)
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
            ck_avif_frames_open(
                bytes.pointer, bytes.count, limit, 0, &opened, &width, &height, &count, &duration, message)
        }.status
        ck_avif_frames_close(opened)
        return status == ShimStatus.ok ? (Int(count), duration) : nil
    }

    package func next() throws(CodecError) -> (picture: PixelBuffer, delayMilliseconds: Int)? {
        let handle = handle
        let duration = try Self.readFrame(into: &frame, format: .avif) {
            ck_avif_frames_next(handle, $0, $1, $2, $3, $4)
        }
        return duration.map { (frame, $0) }
    }
}
