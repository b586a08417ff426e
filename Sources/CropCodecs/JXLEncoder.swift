import CJXL
import CropGeometry
import CropPixels

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Options for JPEG XL encoding (libjxl's own settings, named as `cjxl` names them).
package struct JXLEncodeOptions: Hashable, Sendable {
    /// 1…100 on `cjxl`'s scale, mapped to libjxl's butteraugli distance as `cjxl` maps it (90 is distance 1,
    /// visually lossless; 100 is distance 0.1, still lossy: ask for ``lossless`` to keep every sample). Default 75
    /// (``ImageFormat/defaultQuality``).
    package var quality: Int
    /// Lossless encoding: every sample kept exactly (modular mode, the original colour space).
    package var lossless: Bool
    /// libjxl's effort, 1 (fastest) … 9 (smallest). Default 7, as `cjxl`.
    package var effort: Int

    /// Creates options.
    package init(quality: Int = 75, lossless: Bool = false, effort: Int = 7) {
        self.quality = quality
        self.lossless = lossless
        self.effort = effort
    }

    /// `cjxl`'s quality → distance: 0.1 + (100 − q) · 0.09 from 30 up (so 90 → 1.0, 75 → 2.35), then growing
    /// exponentially to 25 at quality 1.
    package var distance: Float {
        let q = Double(Swift.min(Swift.max(quality, 1), 100))
        let d = q >= 30 ? 0.1 + (100 - q) * 0.09 : 6.4 + pow(2.5, (30 - q) / 5) / 6.25
        return Float(Swift.min(d, 25))
    }
}

/// A JPEG XL encoder over libjxl (loaded at run time by the CJXL shim).
///
/// Takes rows of any pixel format: 8-bit pictures are written 8-bit and 16-bit ones 16-bit, gray as RGB, alpha kept.
/// libjxl encodes a whole picture, so rows are gathered and compressed by ``finish(_:)``, on every core. The
/// metadata's orientation is recorded in the codestream (where JPEG XL readers look for it), and the EXIF block
/// (its orientation tag set to the same) in an Exif box. A picture tagged sRGB, or carrying a profile that maps
/// colours as sRGB does (``ColorTransform/actsAsSRGB(_:)``: most cameras' and phones' sRGB profiles, whatever their
/// names), is tagged sRGB and coded lossy in XYB, JPEG XL's own perceptual space; one with another ICC profile (Adobe
/// RGB, Display P3 …) keeps the profile and is coded in its space, so the profile and the colours come back exactly
/// from any reader, libjxl 0.7's included (which cannot turn XYB back into an arbitrary profile), at some cost in size.
package final class JXLEncoder: WholePictureEncoder {
    private let options: JXLEncodeOptions
    private let icc: [UInt8]?
    private let exif: [UInt8]?
    private let orientation: Orientation

    /// The largest width or height libjxl's default level (5) allows.
    package static let maxDimension = 262_144

    /// Starts a JPEG XL of `width × height` pixels taking rows in `inputFormat`.
    ///
    /// - Throws: ``CodecError/invalidArgument(name:reason:)`` for a size below 1, a quality outside 1…100 or an
    ///   effort outside 1…9; ``CodecError/libraryUnavailable(format:reason:)`` when libjxl cannot be loaded.
    package init(
        width: Int, height: Int, inputFormat: PixelFormat, metadata: ImageMetadata = .none,
        options: JXLEncodeOptions = JXLEncodeOptions(), output: AtomicFile? = nil
    ) throws(CodecError) {
        try EncoderChecks.size(width: width, height: height, maxDimension: Self.maxDimension, format: .jxl)
        try EncoderChecks.settings(format: .jxl, quality: options.quality, effort: options.effort)
        try ShimStatus.call(format: .jxl, role: "encoder") { ck_jxl_load($0) }
        self.options = options
        icc = metadata.iccProfile.flatMap { ColorTransform.actsAsSRGB($0) ? nil : $0 }
        orientation = metadata.orientation
        var warnings: [CodecWarning] = []
        exif = metadata.exifForEncoding(warnings: &warnings)
        try super.init(width: width, height: height, inputFormat: inputFormat, keepSixteenBits: true, output: output)
        self.warnings = warnings
    }

    /// Encodes a whole image.
    package static func encode(
        _ image: PixelBuffer, metadata: ImageMetadata = .none, options: JXLEncodeOptions = JXLEncodeOptions()
    ) throws(CodecError) -> [UInt8] {
        let encoder = try JXLEncoder(
            width: image.width, height: image.height, inputFormat: image.format, metadata: metadata, options: options)
        try encoder.writeRows(from: image, startRow: 0, count: image.height)
        return try encoder.finish()
    }

    /// Compresses the gathered rows.
    override func compress(_ pixels: PixelBuffer) throws(CodecError) -> [UInt8] {
        var params = ck_jxl_encode_params()
        params.distance = options.distance
        params.lossless = options.lossless ? 1 : 0
        params.effort = Int32(options.effort)
        params.threads = Int32(Parallel.coreCount)
        params.orientation = Int32(orientation.exifValue)
        let icc = self.icc ?? [], exif = self.exif ?? []
        return try pixels.withUnsafeRows { rows throws(CodecError) in
            try Self.collect(role: "encoder") { output, size, message in
                icc.withUnsafeBufferPointer { icc in
                    exif.withUnsafeBufferPointer { exif in
                        ck_jxl_encode(
                            rows.row(0).assumingMemoryBound(to: UInt8.self), Int32(rows.width), Int32(rows.height),
                            rows.bytesPerRow, Int32(rows.format.channelCount), rows.format.depth == .sixteen ? 1 : 0,
                            &params, icc.count > 0 ? icc.baseAddress : nil, icc.count,
                            exif.count > 0 ? exif.baseAddress : nil, exif.count, output, size, message)
                    }
                }
            }
        }
    }

    /// A JPEG file recompressed losslessly: its DCT coefficients kept, with the data that lets a decoder give back
    /// the JPEG byte for byte (`djxl out.jxl back.jpg`), and its EXIF and XMP; typically about 20% smaller.
    ///
    /// - Throws: ``CodecError/unsupportedFeature(format:feature:)`` for a JPEG libjxl cannot represent (arithmetic
    ///   coding, CMYK, some restart layouts), ``CodecError/libraryUnavailable(format:reason:)`` without libjxl.
    package static func recompress(jpeg: [UInt8], effort: Int = 7) throws(CodecError) -> [UInt8] {
        try EncoderChecks.settings(format: .jxl, quality: nil, effort: effort)
        return try collect(role: "encoder") { output, size, message in
            jpeg.withUnsafeBufferPointer {
                ck_jxl_recompress_jpeg(
                    $0.baseAddress, $0.count, Int32(effort), Int32(Parallel.coreCount), output, size, message)
            }
        }
    }

    /// Runs a shim call that hands back a malloc'd file, and copies it out.
    private static func collect(
        role: String,
        _ body: (
            UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, UnsafeMutablePointer<Int>,
            UnsafeMutablePointer<CChar>
        ) -> Int32
    ) throws(CodecError) -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        defer { ck_jxl_free(output) }
        try ShimStatus.call(format: .jxl, role: role) { message in body(&output, &size, message) }
        guard let output else { throw .corruptData(format: .jxl, message: "libjxl wrote nothing") }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }
}
