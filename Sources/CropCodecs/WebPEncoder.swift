import CWebP
import CropPixels

/// A WebP encoder over libwebp (loaded at run time; see ``WebPLibrary``).
///
/// Takes rows of any pixel format: gray becomes RGB, 16-bit samples are rounded to 8 bits, alpha is kept (WebP
/// stores it; the colour under fully transparent pixels is kept only with ``WebPEncodeOptions/exact``). libwebp
/// encodes a whole picture, so rows are gathered (as 8-bit RGB or RGBA) and compressed by ``finish(_:)``. The ICC
/// profile and the EXIF block (its orientation tag set to the metadata's orientation) are written in ICCP and EXIF
/// chunks of the extended format. WebP allows at most 16383 pixels per side.
package final class WebPEncoder: WholePictureEncoder {
    private let options: WebPEncodeOptions
    private let icc: [UInt8]?
    private let exif: [UInt8]?

    /// The largest width or height WebP can store.
    package static let maxDimension = 16_383

    /// Starts a WebP of `width × height` pixels taking rows in `inputFormat`.
    ///
    /// - Throws: ``CodecError/invalidArgument(name:reason:)`` for a size below 1, a quality outside 1…100 or an
    ///   effort outside 0…6; ``CodecError/unsupportedFeature(format:feature:)`` above 16383 pixels per side;
    ///   ``CodecError/libraryUnavailable(format:reason:)`` when libwebp cannot be loaded.
    package init(
        width: Int, height: Int, inputFormat: PixelFormat, metadata: ImageMetadata = .none,
        options: WebPEncodeOptions = WebPEncodeOptions(), output: AtomicFile? = nil
    ) throws(CodecError) {
        try EncoderChecks.size(width: width, height: height, maxDimension: Self.maxDimension, format: .webp)
        try EncoderChecks.settings(format: .webp, quality: options.quality, effort: options.effort)
        try ShimStatus.call(format: .webp, role: "encoder") { ck_webp_load($0) }
        self.options = options
        icc = metadata.iccProfile
        var warnings: [CodecWarning] = []
        exif = metadata.exifForEncoding(warnings: &warnings)
        try super.init(width: width, height: height, inputFormat: inputFormat, keepSixteenBits: false, output: output)
        self.warnings = warnings
    }

    /// Encodes a whole image.
    package static func encode(
        _ image: PixelBuffer, metadata: ImageMetadata = .none, options: WebPEncodeOptions = WebPEncodeOptions()
    ) throws(CodecError) -> [UInt8] {
        let encoder = try WebPEncoder(
            width: image.width, height: image.height, inputFormat: image.format, metadata: metadata, options: options)
        try encoder.writeRows(from: image, startRow: 0, count: image.height)
        return try encoder.finish()
    }

    /// Compresses the gathered rows and adds the metadata chunks.
    override func compress(_ pixels: PixelBuffer) throws(CodecError) -> [UInt8] {
        let params = options.shimParameters(alpha: pixels.format.hasAlpha)
        let plain = try pixels.withUnsafeRows { rows throws(CodecError) in try WebPLibrary.encode(rows, params: params)
        }
        return try WebPContainer.addingMetadata(
            to: plain, width: width, height: height, hasAlpha: pixels.format.hasAlpha, iccProfile: icc, exif: exif)
    }
}
