import CTIFF
import CropGeometry
import CropPixels

/// A TIFF decoder over libtiff (loaded at run time by the CTIFF shim, like libwebp; no libtiff headers are needed to
/// build).
///
/// It reads the first page:
/// - 8 and 16-bit unsigned gray and RGB, with an alpha extra sample or not, contiguous or planar, in strips or tiles,
///   with any compression libtiff has, are decoded as stored (16-bit stays 16-bit); MinIsWhite is inverted and
///   associated (premultiplied) alpha is unpremultiplied, since CropKit's buffers hold straight alpha;
/// - 8-bit CMYK with an ICC profile is converted to sRGB through that profile (``ColorTransform``), as for JPEG;
/// - everything else libtiff's RGBA reader takes (palettes, 1/2/4-bit, subsampled YCbCr, CIELab, CMYK without a
///   profile) becomes 8-bit RGB or RGBA;
/// - gray and RGB samples of other formats are converted: unsigned of any depth up to 16 and 32 (12-bit scientific
///   pictures become 16-bit, 3-bit gray or 4-bit gray with alpha 8-bit, each scaled to the full range), signed 8, 16
///   and 32-bit (offset by half the range, as ImageMagick reads them), half, single and double floats (0…1, or the
///   range SMinSampleValue and SMaxSampleValue give, is black to white; clamped; NaN is black);
/// - a sample format libtiff does not define is refused with ``CodecError/unsupportedFeature(format:feature:)``.
///
/// The Orientation tag becomes ``ImageMetadata/orientation`` (applied by the pipeline like an EXIF orientation, never
/// here), and the ICC profile is kept. Further pages are counted in ``ImageInfo/frameCount`` and named in a warning.
/// The picture is decoded whole on the first row request (``WholePictureDecoder``).
package final class TIFFDecoder: WholePictureDecoder {
    package let info: ImageInfo
    package let metadata: ImageMetadata
    package let outputWidth: Int
    package let outputHeight: Int
    package let outputFormat: PixelFormat
    package let warnings: [CodecWarning]

    private let handle: OpaquePointer
    private let mode: Int32
    /// A gray picture read through libtiff's RGBA reader (bilevel, 2 and 4-bit gray): its R channel is the gray, so
    /// the output is gray, which keeps a gray ICC profile valid (PIL's pport_g4.tif lost its profile as RGB).
    private let grayFromRGBA: Bool
    /// For CMYK with a profile: the conversion to sRGB.
    private let colorTransform: ColorTransform?
    var pictureRows: PictureRows

    /// Reads the first page's tags; checks the size against the limits.
    ///
    /// - Throws: ``CodecError/corruptData(format:message:)`` or ``CodecError/truncated(format:detail:)`` for broken
    ///   tags, ``CodecError/unsupportedFeature(format:feature:)`` for sample layouts CropKit does not decode,
    ///   ``CodecError/tooManyPixels(width:height:limit:)`` above the limits,
    ///   ``CodecError/libraryUnavailable(format:reason:)`` when libtiff is not installed.
    package init(input: DecoderInput, options: DecodeOptions = DecodeOptions()) throws(CodecError) {
        let bytes = try input.allBytes()
        // No single allocation of libtiff's may exceed what the largest allowed picture needs at 16-bit RGBA.
        let (cap, overflow) = options.limits.maxPixels.multipliedReportingOverflow(by: 8)
        let maxAllocation = overflow ? Int.max : Swift.max(cap, 64 << 20)
        var opened: OpaquePointer?
        var tags = ck_tiff_info()
        do {
            try ShimStatus.call(format: .tiff) { message in
                bytes.withUnsafeBufferPointer {
                    ck_tiff_open(
                        $0.baseAddress, $0.count, maxAllocation, options.defaultCMYKProfile == nil ? 0 : 1, &opened,
                        &tags,
                        message)
                }
            }
        } catch {
            ck_tiff_close(opened)
            throw error
        }
        guard let opened else { throw .corruptData(format: .tiff, message: "libtiff opened nothing") }
        do throws(CodecError) {
            let width = Int(tags.width), height = Int(tags.height)
            do {
                try options.limits.check(width: width, height: height)
            } catch {
                throw CodecError(error)
            }
            var warnings: [CodecWarning] = []
            if tags.warning_count > 0 {
                let first = withUnsafeBytes(of: tags.first_warning) {
                    String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
                }
                warnings.append(
                    CodecWarning(
                        .tiff, tags.warning_count == 1 ? first : "\(first) (and \(tags.warning_count - 1) more)"))
            }
            if tags.orientation == 0 {
                warnings.append(CodecWarning(.tiff, "an Orientation tag outside 1…8 was ignored"))
            }
            if tags.photometric_guessed != 0 {
                warnings.append(
                    CodecWarning(.tiff, "no Photometric tag: read as \(tags.photometric == 2 ? "RGB" : "gray")"))
            }
            let pages = Int(tags.page_count)
            if pages > 1 { warnings.append(CodecWarning(.tiff, "\(pages) pages: the first is decoded")) }
            if options.strict, let first = warnings.first {
                throw .corruptData(format: .tiff, message: first.message + " (strict mode)")
            }
            var profile: [UInt8]? = nil
            if let icc = tags.icc, tags.icc_size > 0 {
                profile = Array(UnsafeBufferPointer(start: icc, count: Int(tags.icc_size)))
            }
            var metadata = ImageMetadata(
                orientation: Orientation(exifValue: Int(tags.orientation)) ?? .up, iccProfile: profile, exif: nil)
            mode = Int32(tags.mode)
            var transform: ColorTransform? = nil
            let fallback = profile == nil ? options.defaultCMYKProfile : nil
            if mode == Int32(CK_TIFF_CMYK), let cmykProfile = profile ?? fallback?.bytes {
                if let fallback {
                    warnings.append(
                        CodecWarning(
                            .icc,
                            "CMYK TIFF without an ICC profile: converted through the default CMYK profile \(fallback.path)"
                        ))
                }
                transform = try DefaultCMYKProfile.transform(
                    profile: cmykProfile, layout: tags.bits == 16 ? .cmyk16 : .cmyk8, format: .tiff)
                metadata.iccProfile = ColorTransform.sRGBProfile
            } else if mode == Int32(CK_TIFF_LAB) {
                transform = try ColorTransform(lab: tags.bits == 16 ? .lab16 : .lab8, format: .tiff)
                metadata.iccProfile = ColorTransform.sRGBProfile
            } else if tags.photometric == 5 {
                warnings.append(
                    CodecWarning(.icc, "CMYK TIFF without an ICC profile: converted to RGB without colour management"))
            }
            colorTransform = transform
            grayFromRGBA = mode == Int32(CK_TIFF_RGBA_READER) && (tags.photometric == 0 || tags.photometric == 1)
            let layout: ChannelLayout =
                switch (Int(tags.channels), mode == Int32(CK_TIFF_CMYK)) {
                case (_, true): .rgb
                case (1, _): .gray
                case (2, _): .grayAlpha
                case (3, _): grayFromRGBA ? .gray : .rgb
                default: grayFromRGBA ? .grayAlpha : .rgba
                }
            let depth: BitDepth = tags.bits == 16 ? .sixteen : .eight
            info = ImageInfo(
                format: .tiff, width: width, height: height, orientation: metadata.orientation, layout: layout,
                bitDepth: Int(tags.bits_per_sample), decodedDepth: depth,
                iccProfileSize: tags.icc_size > 0 ? Int(tags.icc_size) : nil, hasEXIF: false, isProgressive: false,
                isInterlaced: false, colorModel: Self.describe(tags), frameCount: pages > 1 ? pages : nil,
                // The whole picture, and libtiff's strips or tiles (measured: 3 to 4.3 bytes per pixel for RGB).
                decoderMemory: DecoderMemory(perStoredPixel: Double(PixelFormat(layout, depth).bytesPerPixel + 2)))
            self.metadata = metadata
            outputWidth = width
            outputHeight = height
            outputFormat = PixelFormat(layout, depth)
            self.warnings = warnings
            pictureRows = PictureRows(height: height)
            handle = opened
        } catch {
            ck_tiff_close(opened)
            throw error
        }
    }

    /// Decodes whole TIFF data.
    package convenience init(data: [UInt8], options: DecodeOptions = DecodeOptions()) throws(CodecError) {
        try self.init(input: .memory(InputBytes(data)), options: options)
    }

    deinit {
        ck_tiff_close(handle)
    }

    /// Decodes the first page into a new buffer (through a CMYK or Lab buffer and a colour conversion for those).
    func decodePicture() throws(CodecError) -> PixelBuffer {
        let isCMYK = mode == Int32(CK_TIFF_CMYK)
        let decoded =
            isCMYK
            ? PixelFormat(.rgba, outputFormat.depth)
            : grayFromRGBA ? PixelFormat(outputFormat.hasAlpha ? .rgba : .rgb, .eight) : outputFormat
        var buffer = try makeOutputBuffer(format: decoded)
        try buffer.withUnsafeMutableRows { rows throws(CodecError) in
            try ShimStatus.call(format: .tiff) { message in
                ck_tiff_decode(handle, rows.row(0).assumingMemoryBound(to: UInt8.self), rows.bytesPerRow, message)
            }
        }
        if isCMYK, colorTransform == nil { return try uncalibratedRGB(fromCMYK: buffer) }
        if grayFromRGBA {
            // R = G = B for gray: keep R, and the alpha.
            var gray = try makeOutputBuffer(format: outputFormat)
            let from = decoded.channelCount, to = outputFormat.channelCount
            gray.withUnsafeMutableRows { target in
                buffer.withUnsafeRows { source in
                    for y in 0..<outputHeight {
                        let input = source.row8(y), output = target.row(y).assumingMemoryBound(to: UInt8.self)
                        for x in 0..<outputWidth {
                            output[x * to] = input[x * from]
                            if to == 2 { output[x * 2 + 1] = input[x * from + 3] }
                        }
                    }
                }
            }
            return gray
        }
        guard let colorTransform else { return buffer }
        var converted = try makeOutputBuffer(format: outputFormat)
        converted.withUnsafeMutableRows { target in
            buffer.withUnsafeRows { source in
                for y in 0..<outputHeight {
                    colorTransform.convert(source.row(y), to: target.row(y), pixels: outputWidth)
                }
            }
        }
        return converted
    }

    /// 16-bit CMYK with no profile to convert it through, converted as libtiff's RGBA reader converts 8-bit CMYK (and
    /// Pillow both): each ink darkens its channel multiplicatively, `R = (1 − C)(1 − K)`. The file says nothing more.
    private func uncalibratedRGB(fromCMYK cmyk: PixelBuffer) throws(CodecError) -> PixelBuffer {
        var rgb = try makeOutputBuffer(format: outputFormat)
        rgb.withUnsafeMutableRows { target in
            cmyk.withUnsafeRows { source in
                for y in 0..<outputHeight {
                    let inks = source.row(y).assumingMemoryBound(to: UInt16.self)
                    let out = target.row(y).assumingMemoryBound(to: UInt16.self)
                    for x in 0..<outputWidth {
                        let white = 65535 - UInt32(inks[4 * x + 3])
                        for c in 0..<3 {
                            out[3 * x + c] = UInt16((white * (65535 - UInt32(inks[4 * x + c])) + 32767) / 65535)
                        }
                    }
                }
            }
        }
        return rgb
    }

    /// "RGB, LZW, tiled 256×256"-style words for ``ImageInfo/colorModel``.
    private static func describe(_ tags: ck_tiff_info) -> String {
        let photometric =
            switch tags.photometric {
            case 0: "gray (min-is-white)"
            case 1: "gray"
            case 2: "RGB"
            case 3: "palette"
            case 4: "mask"
            case 5: "CMYK"
            case 6: "YCbCr"
            case 8, 9, 10: "CIELab"
            default: "photometric \(tags.photometric)"
            }
        let compression =
            switch tags.compression {
            case 1: "uncompressed"
            case 5: "LZW"
            case 7, 6: "JPEG"
            case 8, 32946: "Deflate"
            case 32773: "PackBits"
            case 3, 4: "CCITT fax"
            case 34925: "LZMA"
            case 50000: "ZSTD"
            case 50001: "WebP"
            default: "compression \(tags.compression)"
            }
        var words = [photometric, compression, tags.tiled != 0 ? "tiled" : "strips"]
        if tags.planar_separate != 0 { words.append("planar") }
        if tags.alpha != 0 { words.append(tags.alpha_associated != 0 ? "associated alpha" : "alpha") }
        return words.joined(separator: ", ")
    }
}
