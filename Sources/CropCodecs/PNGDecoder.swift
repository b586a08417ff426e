import CLCMS
import CPNG
import CropGeometry
import CropPixels

/// A streaming PNG decoder over libpng.
///
/// The initialiser reads the chunks before the image data (IHDR, PLTE, tRNS, iCCP, eXIf …) and checks the size
/// against ``DecodeOptions/limits`` before anything large is allocated. A non-interlaced image is then decoded row
/// by row as rows are asked for; an Adam7-interlaced image is decoded whole on the first request (its passes cover
/// the full height) and handed out from that buffer.
///
/// The layout and depth are kept: palettes become RGB (RGBA with tRNS), gray or RGB with tRNS gain an alpha
/// channel, 1/2/4-bit gray is expanded to 8 bits, 16-bit stays 16-bit in native byte order. No gamma correction is
/// applied.
package final class PNGDecoder: ImageRowDecoder {
    package let info: ImageInfo
    public private(set) var metadata: ImageMetadata
    package let outputWidth: Int
    package let outputHeight: Int
    package let outputFormat: PixelFormat
    public private(set) var rowsRead = 0
    public private(set) var warnings: [CodecWarning] = []

    private let handle: OpaquePointer
    private let input: DecoderInput
    private var started = false
    private var finished = false
    private var failure: CodecError?
    private var warningLog = ShimWarningLog()
    private var interlacedImage: PixelBuffer?

    /// Reads the chunks before the image data.
    ///
    /// - Throws: ``CodecError/notAnImage(reason:)`` without the PNG signature, ``CodecError/truncated(format:detail:)``
    ///   when the data ends early, ``CodecError/tooManyPixels(width:height:limit:)`` above the limits,
    ///   ``CodecError/corruptData(format:message:)`` with libpng's message otherwise.
    package convenience init(data: [UInt8], options: DecodeOptions = DecodeOptions()) throws(CodecError) {
        try self.init(input: .memory(InputBytes(data)), options: options)
    }

    /// Reads the header and metadata of `input` (bytes in memory, or a file read a chunk at a time); see
    /// ``init(data:options:)``. A file that cannot be read fails with ``CodecError/ioFailure(path:operation:reason:)``.
    package init(input: DecoderInput, options: DecodeOptions = DecodeOptions()) throws(CodecError) {
        let strict: Int32 = options.strict ? 1 : 0
        let created: OpaquePointer? =
            switch input {
            case .memory(let bytes): ck_png_decoder_create(bytes.pointer, bytes.count, strict)
            case .file(let file): ck_png_decoder_create_fd(file.descriptor, strict)
            }
        guard let handle = created else {
            throw .resourceLimit(format: .png, message: "cannot allocate a libpng decoder")
        }
        self.handle = handle
        self.input = input
        let budget = input.budget
        ck_png_decoder_set_limits(
            handle, budget.maximumBlockBytes, UInt32(clamping: options.limits.maxPixels), budget.inputBytes)
        var header = ck_png_header()
        let status = ck_png_decoder_read_header(handle, &header)
        if status != ShimStatus.ok {
            let error = Self.error(status, handle, path: input.path)
            ck_png_decoder_destroy(handle)
            throw error
        }
        guard let (layout, described) = Self.describe(header) else {
            ck_png_decoder_destroy(handle)
            throw .corruptData(format: .png, message: "invalid colour type \(header.color_type)")
        }
        let width = Int(header.width), height = Int(header.height)
        do {
            try options.limits.check(width: width, height: height)
        } catch {
            ck_png_decoder_destroy(handle)
            throw CodecError(error)
        }
        var warnings: [CodecWarning] = []
        var metadata = Self.readMetadata(handle, warnings: &warnings)
        var model = described
        var chunks = ck_png_color_chunks()
        let hasChunks = ck_png_decoder_color_chunks(handle, &chunks) != 0
        if hasChunks, chunks.has_cicp != 0 {
            // cICP rules over iCCP, sRGB, gAMA and cHRM (PNG, third edition), for gray pictures too (Pillow's
            // kodim03_grayscale_cicp.png came out 27.9 levels too light when its gAMA ruled).
            let nclx = NCLXColor(primaries: Int(chunks.cicp.0), transfer: Int(chunks.cicp.1))
            model += ", cICP (\(nclx.description))"
            metadata.iccProfile = nil
            if !layout.isColor {
                if !nclx.hasSRGBTransfer {
                    warnings.append(
                        CodecWarning(
                            .icc, "a gray picture's cICP \(nclx.description): pixels kept as coded, not converted"))
                }
            } else if !nclx.isSRGBLike {
                do {
                    metadata.iccProfile = try nclx.iccProfile(format: .png)
                    model += ", described by an ICC profile built from it"
                } catch {
                    warnings.append(
                        CodecWarning(
                            .icc,
                            nclx.isHDR
                                ? "the cICP \(nclx.description) is HDR: pixels kept as coded, not converted"
                                : "\(error); pixels kept as coded"))
                }
            }
            if chunks.cicp.3 == 0 {
                warnings.append(CodecWarning(.png, "cICP says narrow-range samples: kept as coded, not expanded"))
            }
        } else if hasChunks, metadata.iccProfile == nil {
            switch Self.colorChunkProfile(chunks, gray: !layout.isColor) {
            case .none: break
            case .profile(let profile, let words):
                metadata.iccProfile = profile
                model += ", \(words), described by an ICC profile built from them"
            case .failed(let words, let reason):
                warnings.append(CodecWarning(.icc, "\(words) not applied: \(reason)"))
            }
        }
        let depth: BitDepth = header.bit_depth == 16 ? .sixteen : .eight
        info = ImageInfo(
            format: .png, width: width, height: height, orientation: metadata.orientation, layout: layout,
            bitDepth: Int(header.bit_depth), decodedDepth: depth, iccProfileSize: metadata.iccProfile?.count,
            hasEXIF: metadata.exif != nil, isProgressive: false, isInterlaced: header.interlaced != 0,
            colorModel: model,
            // An Adam7 picture is decoded whole on the first request (its passes cover the full height).
            decoderMemory: header.interlaced != 0
                ? DecoderMemory(perStoredPixel: Double(PixelFormat(layout, depth).bytesPerPixel)) : .rows)
        self.metadata = metadata
        outputWidth = width
        outputHeight = height
        outputFormat = PixelFormat(layout, depth)
        self.warnings = warnings
        syncWarnings()
    }

    deinit {
        ck_png_decoder_destroy(handle)
    }

    /// Decodes a whole PNG.
    package static func decode(_ data: [UInt8], options: DecodeOptions = DecodeOptions()) throws(CodecError)
        -> DecodedImage
    {
        let decoder = try PNGDecoder(data: data, options: options)
        let pixels = try decoder.decodeAll()
        return DecodedImage(pixels: pixels, metadata: decoder.metadata, info: decoder.info, warnings: decoder.warnings)
    }

    package func decodeAll() throws(CodecError) -> PixelBuffer {
        if let failure { throw failure }
        if info.isInterlaced && rowsRead == 0 {
            if !started { try start() }
            if let image = interlacedImage {
                rowsRead = outputHeight
                interlacedImage = nil
                try finish()
                return image
            }
        }
        return try decodeAllRows()
    }

    package func readRows(into destination: UnsafeMutableRawPointer, bytesPerRow: Int, maxRows: Int)
        throws(CodecError) -> Int
    {
        if let failure { throw failure }
        try checkRowArguments(bytesPerRow: bytesPerRow, maxRows: maxRows)
        guard !finished else { return 0 }
        if !started { try start() }
        let count = min(maxRows, outputHeight - rowsRead)
        guard count > 0 else { return 0 }
        if let image = interlacedImage {
            let rowBytes = outputWidth * outputFormat.bytesPerPixel
            image.withUnsafeRows { rows in
                for i in 0..<count {
                    (destination + i * bytesPerRow).copyMemory(from: rows.row(rowsRead + i), byteCount: rowBytes)
                }
            }
        } else {
            let status = ck_png_decoder_read_rows(
                handle, destination.assumingMemoryBound(to: UInt8.self), bytesPerRow, UInt32(count))
            syncWarnings()
            if status != ShimStatus.ok { throw fail(status) }
        }
        rowsRead += count
        if rowsRead == outputHeight { interlacedImage = nil }
        return count
    }

    package func finish() throws(CodecError) {
        if let failure { throw failure }
        guard !finished else { return }
        finished = true
        interlacedImage = nil
        let status = ck_png_decoder_finish(handle)
        syncWarnings()
        if status != ShimStatus.ok { throw fail(status) }
        if metadata.exif == nil {
            // An eXIf chunk may also follow the image data.
            let late = Self.readMetadata(handle, warnings: &warnings)
            if late.exif != nil {
                metadata.exif = late.exif
                metadata.orientation = late.orientation
            }
        }
        let count = Int(ck_png_decoder_warning_count(handle))
        if count > Int(CK_PNG_MAX_WARNINGS) {
            warnings.append(CodecWarning(.png, "\(count - Int(CK_PNG_MAX_WARNINGS)) more warnings not shown"))
        }
    }

    private func start() throws(CodecError) {
        started = true
        var output = ck_png_output()
        let status = ck_png_decoder_start(handle, &output)
        syncWarnings()
        if status != ShimStatus.ok { throw fail(status) }
        guard Int(output.width) == outputWidth, Int(output.height) == outputHeight,
            Int(output.channels) == outputFormat.channelCount, Int(output.bit_depth) == outputFormat.depth.rawValue
        else {
            throw fail(
                .corruptData(
                    format: .png,
                    message: "libpng produces \(output.channels) channels of \(output.bit_depth) bits, expected "
                        + "\(outputFormat)"))
        }
        if output.interlaced != 0 {
            var image: PixelBuffer
            do {
                image = try PixelBuffer(
                    width: outputWidth, height: outputHeight, format: outputFormat, limits: .unlimited)
            } catch {
                throw fail(CodecError(error))
            }
            let status = image.withUnsafeMutableRows { rows in
                ck_png_decoder_read_image(handle, rows.base.assumingMemoryBound(to: UInt8.self), rows.bytesPerRow)
            }
            syncWarnings()
            if status != ShimStatus.ok { throw fail(status) }
            interlacedImage = image
        }
    }

    private func fail(_ status: Int32) -> CodecError { fail(Self.error(status, handle, path: input.path)) }

    private func fail(_ error: CodecError) -> CodecError {
        failure = error
        return error
    }

    private func syncWarnings() {
        warningLog.sync(
            into: &warnings, source: .png, count: ck_png_decoder_warning_count(handle),
            capacity: Int32(CK_PNG_MAX_WARNINGS)
        ) { ck_png_decoder_warning(handle, $0) }
    }

    private static func error(_ status: Int32, _ handle: OpaquePointer, path: String?) -> CodecError {
        ShimStatus.error(
            status, format: .png, message: String(cString: ck_png_decoder_message(handle)), role: "decoder",
            path: path)
    }

    private static func describe(_ header: ck_png_header) -> (ChannelLayout, String)? {
        let trns = header.has_trns != 0
        switch header.color_type {
        case 0: return trns ? (.grayAlpha, "grayscale + tRNS") : (.gray, "grayscale")
        case 2: return trns ? (.rgba, "RGB + tRNS") : (.rgb, "RGB")
        case 3: return trns ? (.rgba, "palette + tRNS") : (.rgb, "palette")
        case 4: return (.grayAlpha, "grayscale + alpha")
        case 6: return (.rgba, "RGBA")
        default: return nil
        }
    }

    /// What a PNG's gAMA and cHRM chunks say, when it has no iCCP.
    enum ColorChunkProfile {
        /// Nothing to say: no gAMA or cHRM, an sRGB chunk (which rules them), or values that are sRGB's (gAMA 1/2.2
        /// within 1%, cHRM within 0.01 of BT.709 and D65), which are taken as sRGB as libvips and browsers take them.
        case none
        /// An ICC profile built from them ("gAMA 0.625, cHRM …"): kept with the picture as an embedded profile
        /// would be, and converted through when sRGB is asked for.
        case profile([UInt8], words: String)
        case failed(words: String, reason: String)
    }

    /// BT.709 primaries and D65 white, as ``ColorChunkProfile`` compares chromaticities (red, green, blue, white x, y).
    static let sRGBChromaticities = [0.64, 0.33, 0.30, 0.60, 0.15, 0.06, 0.3127, 0.3290]

    static func colorChunkProfile(_ chunks: ck_png_color_chunks, gray: Bool) -> ColorChunkProfile {
        guard chunks.srgb == 0, chunks.has_gamma != 0 || chunks.has_chromaticities != 0 else { return .none }
        let chromaticities = withUnsafeBytes(of: chunks.chromaticities) { Array($0.bindMemory(to: Double.self)) }
        let fileGamma = chunks.has_gamma != 0 ? chunks.gamma : 1 / 2.2
        let primaries = chunks.has_chromaticities != 0 ? chromaticities : sRGBChromaticities
        // A gray picture reads only the white point.
        let compared = gray ? 6..<8 : 0..<8
        let sRGBLike =
            abs(fileGamma * 2.2 - 1) < 0.01
            && compared.allSatisfy { abs(primaries[$0] - sRGBChromaticities[$0]) < 0.01 }
        guard !sRGBLike else { return .none }
        var words: [String] = []
        if chunks.has_gamma != 0 { words.append("gAMA \(formatted(fileGamma))") }
        if chunks.has_chromaticities != 0 {
            words.append(
                "cHRM "
                    + (gray
                        ? "white " + primaries[6..<8].map(formatted).joined(separator: ", ")
                        : primaries.map(formatted).joined(separator: ", ")))
        }
        let said = words.joined(separator: ", ")
        var bytes: UnsafeMutablePointer<UInt8>?
        var size = 0
        let (status, text) = ShimStatus.run { message in
            primaries.withUnsafeBufferPointer {
                ck_lcms_gamma_profile(
                    $0.baseAddress, 1 / fileGamma, gray ? 1 : 0, "PNG " + said, &bytes, &size, message)
            }
        }
        guard status == ShimStatus.ok, let bytes else { return .failed(words: said, reason: text) }
        defer { ck_lcms_free_bytes(bytes) }
        return .profile(Array(UnsafeBufferPointer(start: bytes, count: size)), words: said)
    }

    /// A chunk's value to five decimals, as written: 0.45455, 0.64.
    private static func formatted(_ value: Double) -> String {
        let rounded = (value * 100_000).rounded() / 100_000
        return rounded == rounded.rounded() ? String(Int(rounded)) : "\(rounded)"
    }

    private static func readMetadata(_ handle: OpaquePointer, warnings: inout [CodecWarning]) -> ImageMetadata {
        var metadata = ImageMetadata()
        var data: UnsafePointer<UInt8>?
        var length: UInt32 = 0
        if ck_png_decoder_icc(handle, &data, &length) != 0, let data {
            metadata.iccProfile = Array(UnsafeBufferPointer(start: data, count: Int(length)))
        }
        if ck_png_decoder_exif(handle, &data, &length) != 0, let data {
            let exif = Array(UnsafeBufferPointer(start: data, count: Int(length)))
            let reading = EXIF.readOrientation(tiff: exif)
            metadata.exif = exif
            metadata.orientation = reading.orientation
            if let warning = reading.warning { warnings.append(CodecWarning(.exif, warning)) }
        }
        return metadata
    }
}
