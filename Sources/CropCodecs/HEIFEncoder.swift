import CAVIF
import CHEIF
import CropGeometry
import CropPixels

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A HEIC (HEVC) and AVIF (AV1) encoder over libheif (loaded at run time by the CHEIF shim; the codecs are the ones
/// libheif was built with: x265 and libaom on Debian).
///
/// Takes rows of any pixel format (gray becomes RGB; alpha is kept as an alpha plane); 10-bit files keep 16-bit rows'
/// precision. 10-bit AVIF is written through libavif 0.11 (CAVIF shim, same libaom), since libheif 1.15's AV1 path
/// aborts on it. The picture is written upright with no transform properties: rows given with an orientation other than
/// ``Orientation/up`` (a transcode that keeps the stored pixels) are turned by it first, since libheif 1.15 writes
/// `irot`/`imir` only for pixels it turns itself. The ICC profile goes into a `colr` box and the EXIF block
/// (orientation tag 1) into an `Exif` item. Pipeline outputs are upright already. libheif encodes a whole
/// picture, so rows are gathered and compressed by ``finish(_:)``.
package final class HEIFEncoder: WholePictureEncoder {
    private let format: ImageFormat
    private let options: HEIFEncodeOptions
    private let icc: [UInt8]?
    private let exif: [UInt8]?
    private let orientation: Orientation

    /// The largest width or height written (HEIF itself allows more; the encoders' practical limit).
    package static let maxDimension = 16_384

    /// Starts a HEIC (`format` ``ImageFormat/heif``) or AVIF of `width × height` pixels taking rows in `inputFormat`.
    ///
    /// - Throws: ``CodecError/invalidArgument(name:reason:)`` for a size below 1, a quality outside 1…100, an effort
    ///   outside 0…9 or a bit depth other than 8 or 10; ``CodecError/unsupportedFeature(format:feature:)`` past 16384
    ///   pixels per side, or for 10-bit AVIF without libavif 0.11; ``CodecError/libraryUnavailable(format:reason:)``
    ///   when libheif cannot be loaded.
    package init(
        format: ImageFormat, width: Int, height: Int, inputFormat: PixelFormat, metadata: ImageMetadata = .none,
        options: HEIFEncodeOptions = HEIFEncodeOptions(), output: AtomicFile? = nil
    ) throws(CodecError) {
        try EncoderChecks.size(width: width, height: height, maxDimension: Self.maxDimension, format: format)
        try EncoderChecks.settings(format: format, quality: options.quality, effort: options.effort)
        guard format.selectableBitDepths.contains(options.bitDepth) else {
            throw .invalidArgument(name: "bit depth", reason: "\(options.bitDepth) is not 8 or 10")
        }
        // libheif 1.15 with libaom 3.6 aborts the process on 10-bit RGB input (an abort cannot be caught), so 10-bit
        // AVIF goes through libavif 0.11 on the same libaom instead; 10-bit HEIC and 8-bit AVIF stay with libheif.
        if format == .avif && options.bitDepth == 10 {
            let (status, message) = ShimStatus.run { ck_avif_load($0) }
            guard status == ShimStatus.ok else {
                throw .unsupportedFeature(
                    format: .avif, feature: "10-bit encoding, which needs libavif 0.11 (\(message))")
            }
        } else {
            try ShimStatus.call(format: format, role: "encoder") { ck_heif_load($0) }
        }
        self.format = format
        self.options = options
        icc = metadata.iccProfile
        orientation = metadata.orientation
        var warnings: [CodecWarning] = []
        exif = metadata.uprighted().exifForEncoding(warnings: &warnings)
        try super.init(
            width: width, height: height, inputFormat: inputFormat, keepSixteenBits: options.bitDepth > 8,
            output: output)
        self.warnings = warnings
    }

    /// Encodes a whole image.
    package static func encode(
        _ image: PixelBuffer, as format: ImageFormat, metadata: ImageMetadata = .none,
        options: HEIFEncodeOptions = HEIFEncodeOptions()
    ) throws(CodecError) -> [UInt8] {
        let encoder = try HEIFEncoder(
            format: format, width: image.width, height: image.height, inputFormat: image.format, metadata: metadata,
            options: options)
        try encoder.writeRows(from: image, startRow: 0, count: image.height)
        return try encoder.finish()
    }

    override func compress(_ stored: PixelBuffer) throws(CodecError) -> [UInt8] {
        let pixels = stored.applyingOrientation(orientation)
        if format == .avif && options.bitDepth == 10 { return try compressWithLibavif(pixels) }
        var params = ck_heif_encode_params()
        params.av1 = format == .avif ? 1 : 0
        params.quality = Int32(options.quality)
        params.lossless = options.lossless ? 1 : 0
        params.speed = options.av1Speed
        params.bit_depth = Int32(options.bitDepth)
        params.alpha = pixels.format.hasAlpha ? 1 : 0
        params.wide = pixels.format.depth == .sixteen ? 1 : 0
        return try runShim(pixels, release: { ck_heif_free_output($0) }) { rows, icc, exif, output, size, message in
            ck_heif_encode(
                rows.row(0).assumingMemoryBound(to: UInt8.self), Int32(rows.width), Int32(rows.height),
                rows.bytesPerRow,
                &params, icc.baseAddress, icc.count, exif.baseAddress, exif.count, output, size, message)
        }
    }

    /// 10-bit AVIF through libavif 0.11 (lossless: the best quantizers, 4:4:4).
    private func compressWithLibavif(_ pixels: PixelBuffer) throws(CodecError) -> [UInt8] {
        var params = ck_avif_encode_params()
        params.quality = Int32(options.lossless ? 100 : options.quality)
        params.speed = options.av1Speed
        params.bit_depth = 10
        params.alpha = pixels.format.hasAlpha ? 1 : 0
        params.wide = pixels.format.depth == .sixteen ? 1 : 0
        params.full_chroma = options.lossless || options.quality >= 90 ? 1 : 0
        params.threads = Int32(Swift.max(1, Swift.min(ProcessInfo.processInfo.activeProcessorCount, 8)))
        return try runShim(pixels, release: { ck_avif_free($0) }) { rows, icc, exif, output, size, message in
            ck_avif_encode(
                rows.row(0).assumingMemoryBound(to: UInt8.self), Int32(rows.width), Int32(rows.height),
                rows.bytesPerRow,
                &params, icc.baseAddress, icc.count, exif.baseAddress, exif.count, output, size, message)
        }
    }

    /// Runs an encoding shim call on the rows, the profile and the EXIF block, and maps its status: the file's bytes
    /// (released with `release` once copied), or the error.
    private func runShim(
        _ pixels: PixelBuffer, release: (UnsafeMutablePointer<UInt8>?) -> Void,
        _ call: (
            _ rows: UnsafePixelRows, _ icc: UnsafeBufferPointer<UInt8>, _ exif: UnsafeBufferPointer<UInt8>,
            _ output: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, _ size: UnsafeMutablePointer<Int>,
            _ message: UnsafeMutablePointer<CChar>
        ) -> Int32
    ) throws(CodecError) -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        defer { release(output) }
        let icc = self.icc ?? [], exif = self.exif ?? []
        try pixels.withUnsafeRows { rows throws(CodecError) in
            try icc.withUnsafeBufferPointer { iccBytes throws(CodecError) in
                try exif.withUnsafeBufferPointer { exifBytes throws(CodecError) in
                    try ShimStatus.call(format: format, role: "encoder") {
                        call(rows, iccBytes, exifBytes, &output, &size, $0)
                    }
                }
            }
        }
        guard let output else { throw .corruptData(format: format, message: "the encoder returned no bytes") }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }
}
