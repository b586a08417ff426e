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
func animationFrame(_ frame: PixelBuffer, width: Int, height: Int, format: ImageFormat) throws(CodecError)
    -> PixelBuffer
{
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
