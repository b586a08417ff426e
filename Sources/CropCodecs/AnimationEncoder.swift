import CGIF
import CWebP
import CropPixels

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Writes an animation a frame at a time: ``GIFAnimationEncoder``, ``WebPAnimationEncoder`` and
/// ``AVIFSequenceEncoder``. Every frame is the
/// whole canvas; the encoder keeps what it needs of earlier frames (libwebp only what changed, giflib nothing), never
/// the decoded frames.
package protocol AnimationEncoder: AnyObject {
    /// Adds the next frame, shown for `delayMilliseconds`. Any 8-bit pixel format (gray and RGB become RGBA).
    func add(_ frame: PixelBuffer, delayMilliseconds: Int) throws(CodecError)
    /// The file's bytes; no frame may be added after.
    func finish() throws(CodecError) -> [UInt8]
}

extension ImageInfo {
    /// An animated GIF or WebP, or an AVIF image sequence, of more than one frame (a multi-page TIFF is not an
    /// animation).
    package var isAnimation: Bool { format.readsAnimation && (frameCount ?? 1) > 1 }
}

/// The encoder of an animated `format`.
///
/// - Parameters:
///   - playCount: how many times the animation plays, 0 for ever, as ``ImageInfo/playCount`` counts it; `nil`
///     plays once.
/// - Throws: ``CodecError/unsupportedFeature(format:feature:)`` for a format CropKit does not animate, the
///   encoder's errors otherwise.
package func makeAnimationEncoder(
    format: ImageFormat, width: Int, height: Int, playCount: Int?, options: EncodeOptions
) throws(CodecError) -> any AnimationEncoder {
    switch format {
    case .gif: try GIFAnimationEncoder(width: width, height: height, playCount: playCount)
    case .webp: try WebPAnimationEncoder(width: width, height: height, playCount: playCount, options: options.webp)
    case .avif: try AVIFSequenceEncoder(width: width, height: height, options: options.heif)
    default: throw .unsupportedFeature(format: format, feature: "writing an animation")
    }
}

/// `frame` as 8-bit RGBA, the animation encoders' input, after checking it is the animation's size.
func animationFrame(_ frame: PixelBuffer, width: Int, height: Int, format: ImageFormat) throws(CodecError) -> PixelBuffer {
    guard frame.width == width, frame.height == height else {
        throw .invalidArgument(
            name: "frame", reason: "a \(frame.width)×\(frame.height) frame in a \(width)×\(height) \(format) animation")
    }
    guard frame.format.depth == .eight else {
        throw .invalidArgument(name: "frame", reason: "\(format) animation frames are 8-bit, not \(frame.format)")
    }
    switch frame.format.layout {
    case .rgba: return frame
    case .rgb: return frame.addingAlpha()
    case .gray, .grayAlpha:
        let converter = RowConverter(width: frame.width, from: frame.format, to: .rgba8, background: 255)
        var out: PixelBuffer
        do {
            out = try PixelBuffer(width: frame.width, height: frame.height, format: .rgba8, limits: .unlimited)
        } catch {
            throw CodecError(error)
        }
        frame.withUnsafeRows { source in
            out.withUnsafeMutableRows { target in
                for y in 0..<frame.height {
                    target.row(y).copyMemory(from: converter.convert(source.row(y)), byteCount: frame.width * 4)
                }
            }
        }
        return out
    }
}

/// Hands `frame`, as the animation's 8-bit RGBA rows, to a shim's add call (first row, row stride, message).
func addFrame(
    _ frame: PixelBuffer, width: Int, height: Int, format: ImageFormat,
    _ call: (UnsafePointer<UInt8>, Int, UnsafeMutablePointer<CChar>) -> Int32
) throws(CodecError) {
    let rgba = try animationFrame(frame, width: width, height: height, format: format)
    try rgba.withUnsafeRows { rows throws(CodecError) in
        try ShimStatus.call(format: format, role: "encoder") { message in
            call(UnsafePointer(rows.row(0).assumingMemoryBound(to: UInt8.self)), rows.bytesPerRow, message)
        }
    }
}

/// The file a shim's finish call hands out (bytes and their count), copied, then released with `release`.
func finishedFile(
    format: ImageFormat,
    _ call: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, UnsafeMutablePointer<Int>, UnsafeMutablePointer<CChar>)
        -> Int32,
    release: (UnsafeMutablePointer<UInt8>?) -> Void
) throws(CodecError) -> [UInt8] {
    var output: UnsafeMutablePointer<UInt8>?, size = 0
    defer { release(output) }
    try ShimStatus.call(format: format, role: "encoder") { message in call(&output, &size, message) }
    guard let output else { return [] }
    return Array(UnsafeBufferPointer(start: output, count: size))
}

/// An animated GIF written with giflib: each frame quantised to its own 256-colour table by giflib's median-cut
/// quantiser, alpha below 128 transparent, delays rounded to hundredths of a second (GIF's unit).
///
/// Why giflib's quantiser: it is in the giflib CropKit already reads with (MIT licence, no new dependency).
/// libimagequant dithers better but is GPLv3 (or commercial), which an Apache-2.0 toolkit cannot ship; cgif writes
/// GIF well but does not quantise, so it would still need one. Frames are not dithered.
package final class GIFAnimationEncoder: AnimationEncoder {
    private let handle: OpaquePointer
    private let width: Int, height: Int

    /// - Throws: ``CodecError/invalidArgument(name:reason:)`` past 65535 pixels a side,
    ///   ``CodecError/libraryUnavailable(format:reason:)`` without giflib's writing half.
    package init(width: Int, height: Int, playCount: Int?) throws(CodecError) {
        try EncoderChecks.size(width: width, height: height, maxDimension: 65_535, format: .gif)
        // GIF counts loops after the first play: n plays are n − 1 loops; no extension plays once.
        let loops: Int32 = switch playCount {
        case nil, 1: -1
        case 0: 0
        case let n?: Int32(clamping: Swift.min(n - 1, 65_535))
        }
        var opened: OpaquePointer?
        try ShimStatus.call(format: .gif, role: "encoder") { message in
            ck_gif_writer_open(Int32(width), Int32(height), loops, &opened, message)
        }
        guard let opened else { throw .resourceLimit(format: .gif, message: "giflib started no file") }
        handle = opened
        self.width = width
        self.height = height
    }

    deinit {
        ck_gif_writer_close(handle)
    }

    package func add(_ frame: PixelBuffer, delayMilliseconds: Int) throws(CodecError) {
        let handle = handle
        let hundredths = Int32(clamping: (delayMilliseconds + 5) / 10)
        try addFrame(frame, width: width, height: height, format: .gif) { ck_gif_writer_add(handle, $0, $1, hundredths, $2) }
    }

    package func finish() throws(CodecError) -> [UInt8] {
        let handle = handle
        return try finishedFile(format: .gif, { ck_gif_writer_finish(handle, $0, $1, $2) }, release: { free($0) })
    }
}

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
        return try finishedFile(format: .webp, { ck_webp_anim_finish(handle, $0, $1, $2) }, release: { ck_webp_free($0) })
    }
}

/// A still GIF: the picture quantised to 256 colours by giflib's quantiser and written as one frame with no loop
/// extension (``GIFAnimationEncoder`` writes animations). GIF carries no ICC profile or EXIF: a profile other than
/// sRGB is dropped with a warning (write with `colorProfile: .sRGB` to convert the colours first). Rows are
/// gathered and the picture quantised whole on ``finish(_:)``.
package final class GIFEncoder: WholePictureEncoder {
    /// Starts a GIF of `width × height` pixels taking rows in `inputFormat`.
    ///
    /// - Throws: ``CodecError/invalidArgument(name:reason:)`` for a size below 1 or past 65535 pixels a side.
    package init(
        width: Int, height: Int, inputFormat: PixelFormat, metadata: ImageMetadata = .none, output: AtomicFile? = nil
    ) throws(CodecError) {
        try EncoderChecks.size(width: width, height: height, maxDimension: 65_535, format: .gif)
        try super.init(width: width, height: height, inputFormat: inputFormat, keepSixteenBits: false, output: output)
        if let profile = metadata.iccProfile, ColorTransform.isSRGB(profile) != true {
            warnings.append(CodecWarning(
                .gif, "GIF holds no ICC profile: the picture's profile is dropped and its colours written as they are"))
        }
    }

    /// Encodes a whole image.
    package static func encode(_ image: PixelBuffer, metadata: ImageMetadata = .none) throws(CodecError) -> [UInt8] {
        let encoder = try GIFEncoder(
            width: image.width, height: image.height, inputFormat: image.format, metadata: metadata)
        try encoder.writeRows(from: image, startRow: 0, count: image.height)
        return try encoder.finish()
    }

    override func compress(_ pixels: PixelBuffer) throws(CodecError) -> [UInt8] {
        let encoder = try GIFAnimationEncoder(width: width, height: height, playCount: 1)
        try encoder.add(pixels, delayMilliseconds: 0)
        return try encoder.finish()
    }
}
