import CGIF
import CropPixels

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

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
            warnings.append(
                CodecWarning(
                    .gif,
                    "GIF holds no ICC profile: the picture's profile is dropped and its colours written as they are"))
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
