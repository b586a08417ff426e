import CAVIF
import CHEIF
import CropGeometry
import CropPixels

/// A HEIF/HEIC and AVIF decoder over libheif (loaded at run time by the CHEIF shim; HEVC through libde265, AV1
/// through dav1d or libaom, whatever libheif was built with).
///
/// Decodes the primary image's stored pixels: grid (tiled) images assembled, the alpha plane attached. The `irot` and
/// `imir` transform properties are read by CropKit (``HEIFTransforms``) and become ``ImageMetadata/orientation``, so
/// the pipeline applies them exactly once, like an EXIF orientation; the EXIF orientation inside the file is only
/// informative and is never applied (it is rewritten on encode). A `clap` (clean aperture) crop is applied to the
/// stored pixels first, as HEIF orders it and libheif rounds it: ``ImageInfo`` gives the size after it (hevc32.heif,
/// 64×64 stored, is 32×32; rainbow-451x461.heic, 452×462, is 451×461).
/// An ICC profile (`rICC`/`prof`) comes back byte for byte; `nclx` colour is reported in ``ImageInfo/colorModel``. 8-bit files decode to 8-bit RGB(A), 10- and 12-bit files to 16-bit RGB(A) with the
/// samples widened to the full range. libheif decodes a whole picture at once, so the first
/// ``readRows(into:bytesPerRow:maxRows:)`` decodes it.
///
/// Shrink-on-load (``DecodeOptions/jpegScale``, for 8-bit pictures without alpha: ``ImageInfo/shrinksOnLoad``)
/// averages each 2×2, 4×4 or 8×8 block straight from libheif's picture, so CropKit never holds the full-size one;
/// each side is divided and rounded up as for JPEG.
package final class HEIFDecoder: WholePictureDecoder {
    package let info: ImageInfo
    package let metadata: ImageMetadata
    package let outputWidth: Int
    package let outputHeight: Int
    package let outputFormat: PixelFormat
    package let warnings: [CodecWarning]

    /// The bytes libheif reads in place (it keeps pointers into them until the handle closes).
    private let bytes: InputBytes
    private let handle: OpaquePointer
    /// The shrink-on-load factor applied (``JPEGScale/full`` when the picture does not shrink on load).
    private let shrink: JPEGScale
    /// Whether the alpha plane is in limited range (16…235 at 8 bits) and must be expanded after decoding.
    private let alphaIsLimited: Bool
    /// The part of the stored picture read: the clean aperture, or all of it.
    private let window: (x: Int, y: Int, width: Int, height: Int)
    /// Whether libavif decodes the picture instead of libheif: an AVIF with an alpha item and `irot`/`imir`, whose
    /// alpha libheif 1.15 refuses ("Unsupported color conversion") or drops when the file does not tie the alpha item
    /// to the transforms (as `avifenc --irot` writes). libavif reads the stored colour and alpha whatever the file
    /// ties, and CropKit applies the transforms to both, as Pillow and avifdec show such files.
    private let viaLibavif: Bool
    /// The stored picture's size (before the aperture), and the strictness asked for, for libavif.
    private let storedSize: (width: Int, height: Int)
    private let strict: Bool
    var pictureRows: PictureRows

    /// Reads the file's boxes and the primary image's properties; checks the size against the limits before
    /// anything is decoded.
    ///
    /// - Throws: ``CodecError/corruptData(format:message:)`` or ``CodecError/truncated(format:detail:)`` with
    ///   libheif's message, ``CodecError/tooManyPixels(width:height:limit:)`` above the limits,
    ///   ``CodecError/libraryUnavailable(format:reason:)`` when libheif is not installed.
    package init(input: DecoderInput, format: ImageFormat = .heif, options: DecodeOptions = DecodeOptions())
        throws(CodecError)
    {
        var bytes: InputBytes
        switch input {
        case .memory(let memory): bytes = memory
        case .file(let file): bytes = try InputBytes(file: file)
        }
        // A top-level box of size 0 runs to the end of the file (ISO 14496-12), which libheif 1.15 does not read ("No
        // 'meta' box" of libavif's draw_points_idat_metasize0.avif): give it its size.
        if let closed = ISOBoxReader.closingOpenEndedBox(UnsafeBufferPointer(start: bytes.pointer, count: bytes.count))
        {
            bytes = InputBytes(closed)
        }
        var opened: OpaquePointer?
        var header = ck_heif_info()
        do throws(CodecError) {
            do throws(CodecError) {
                try ShimStatus.call(format: format) { message in
                    ck_heif_open(bytes.pointer, bytes.count, &opened, &header, message)
                }
            } catch {
                // Entity groups libheif 1.15 does not know make it refuse the whole file: read it without them.
                let buffer = UnsafeBufferPointer(start: bytes.pointer, count: bytes.count)
                guard let plain = ISOBoxReader(bytes: Array(buffer)).withoutEntityGroups() else { throw error }
                bytes = InputBytes(plain)
                try ShimStatus.call(format: format) { message in
                    ck_heif_open(bytes.pointer, bytes.count, &opened, &header, message)
                }
            }
        } catch {
            // libheif 1.15 calls a picture coded in a way it does not read "invalid input"; say what it is instead.
            let buffer = UnsafeBufferPointer(start: bytes.pointer, count: bytes.count)
            if let type = ISOBoxReader(bytes: Array(buffer)).primaryItemType(), let coding = Self.unreadCodings[type] {
                throw .unsupportedFeature(
                    format: format, feature: "\(coding) ('\(type)' items), which libheif 1.15 does not read")
            }
            throw error
        }
        guard let opened else { throw .corruptData(format: format, message: "libheif opened no image") }
        do throws(CodecError) {
            guard header.stored_width > 0, header.stored_height > 0 else {
                throw .corruptData(
                    format: format, message: "a primary image of \(header.stored_width)×\(header.stored_height)")
            }
            let storedWidth = Int(header.stored_width), storedHeight = Int(header.stored_height)
            do {
                try options.limits.check(width: storedWidth, height: storedHeight)
            } catch {
                throw CodecError(error)
            }
            var icc = [UInt8](repeating: 0, count: header.icc_size)
            var exif = [UInt8](repeating: 0, count: header.exif_size)
            try ShimStatus.call(format: format) { message in
                icc.withUnsafeMutableBufferPointer { iccBuffer in
                    exif.withUnsafeMutableBufferPointer { exifBuffer in
                        ck_heif_copy_metadata(
                            opened, header.icc_size > 0 ? iccBuffer.baseAddress : nil,
                            header.exif_size > 0 ? exifBuffer.baseAddress : nil, message)
                    }
                }
            }
            if exif.starts(with: EXIF.jpegSegmentHeader) { exif.removeFirst(EXIF.jpegSegmentHeader.count) }
            let all = Array(UnsafeBufferPointer(start: bytes.pointer, count: bytes.count))
            let transforms = HEIFTransforms(all)
            let boxes = ISOBoxReader(bytes: all)
            let viaLibavif = format == .avif && transforms.orientation != .up && boxes.alphaItemProperties() != nil
            let hasAlpha = header.has_alpha != 0 || viaLibavif, bits = Int(header.bits)
            // An alpha item libheif cannot attach (libavif's alpha_noispe.avif: no 'ispe') would be dropped without a
            // word; refuse the file instead, as avifdec and Pillow do.
            if !hasAlpha, let alpha = boxes.alphaItemProperties() {
                let missing = alpha.contains { $0.type == "ispe" } ? "" : " (it has no 'ispe' property)"
                throw CodecError.unsupportedFeature(
                    format: format,
                    feature:
                        "an alpha item libheif 1.15 cannot read\(missing); decoding without it would lose the transparency"
                )
            }
            // libheif 1.15 cannot decode a picture whose bit depth it cannot tell (heif-convert refuses it too), and
            // on such a file its decoder has been seen to spawn threads until the process aborts: refuse it here.
            guard bits > 0 else {
                throw CodecError.corruptData(
                    format: format,
                    message: "the primary image's bit depth is undefined (no pixi or decoder configuration)")
            }
            let depth: BitDepth = bits > 8 ? .sixteen : .eight
            let layout: ChannelLayout = hasAlpha ? .rgba : .rgb
            var apertureWarnings: [CodecWarning] = []
            var window = (x: 0, y: 0, width: storedWidth, height: storedHeight)
            if let aperture = transforms.cleanAperture {
                if let kept = aperture.window(pictureWidth: storedWidth, pictureHeight: storedHeight) {
                    window = kept
                } else {
                    apertureWarnings.append(
                        CodecWarning(
                            .heif,
                            "the clean aperture (clap) keeps nothing of the picture; the whole stored picture is read"))
                }
            }
            let width = window.width, height = window.height
            // libheif 1.15 leaves an AVIF alpha plane coded in limited range as it is (an opaque pixel reads 235):
            // CropKit expands it, as libavif and Pillow do (star.avifs).
            // (libavif expands it itself.)
            alphaIsLimited = hasAlpha && format == .avif && !viaLibavif && boxes.alphaIsLimitedRange() == true
            var colour = (format == .avif ? "AV1, " : "HEVC, ") + "\(bits)-bit"
            var colourWarnings: [CodecWarning] = []
            switch header.profile_type {
            case 0x6E63_6C78:
                let nclx = NCLXColor(header)
                colour += ", nclx colour (\(nclx.description))"
                if icc.isEmpty && !nclx.isSRGBLike {
                    do {
                        icc = try nclx.iccProfile(format: format)
                        colour += ", described by an ICC profile built from it"
                    } catch {
                        colourWarnings.append(
                            CodecWarning(
                                .icc,
                                nclx.isHDR
                                    ? "the \(nclx.description) is HDR: pixels kept as coded, not converted"
                                    : "\(error); pixels kept as coded"))
                    }
                }
            case 0x7249_4343, 0x7072_6F66: colour += ", ICC profile"
            default: break
            }
            if header.image_count > 1 { colour += ", \(header.image_count) images (the primary is read)" }
            // An AVIF image sequence (a `moov` track beside the primary item): libavif counts its frames.
            var sequence: (frames: Int, duration: Double)?
            if format == .avif, boxes.children(of: 0..<all.count).contains(where: { $0.type == "moov" }) {
                sequence = AVIFFrames.sequence(in: bytes, options: options).flatMap { $0.frames > 1 ? $0 : nil }
                if let sequence { colour += ", an image sequence of \(sequence.frames) frames" }
            }
            if alphaIsLimited { colour += ", limited-range alpha (expanded)" }
            if viaLibavif { colour += ", alpha with transforms (decoded by libavif)" }
            if !transforms.names.isEmpty {
                colour +=
                    ", "
                    + transforms.names.map {
                        $0 == "clap" && (width, height) != (storedWidth, storedHeight)
                            ? "clap \(width)×\(height) of \(storedWidth)×\(storedHeight)" : $0
                    }.joined(separator: ", ")
            }
            metadata = ImageMetadata(
                orientation: transforms.orientation, iccProfile: icc.isEmpty ? nil : icc,
                exif: exif.isEmpty ? nil : exif)
            var info = ImageInfo(
                format: format, width: width, height: height, orientation: transforms.orientation, layout: layout,
                bitDepth: bits, decodedDepth: depth, iccProfileSize: icc.isEmpty ? nil : icc.count,
                hasEXIF: !exif.isEmpty, isProgressive: false, isInterlaced: false, colorModel: colour,
                // libheif's decoded planes and reference frames, and its interleaved picture (twice for 16-bit
                // samples), then CropKit's picture at the shrink-on-load scale.
                // (Per pixel kept: libheif decodes the whole stored picture, however little the aperture keeps.)
                decoderMemory: DecoderMemory(
                    perStoredPixel: Double((depth == .sixteen ? 20 : 10) + (layout.hasAlpha ? 2 : 0))
                        * Double(storedWidth * storedHeight) / Double(width * height),
                    perDecodedPixel: Double(PixelFormat(layout, depth).bytesPerPixel)))
            if let sequence {
                // libavif 0.11 reads no loop count: taken to play for ever, as browsers play a sequence that does
                // not say.
                (info.frameCount, info.playCount, info.duration) = (sequence.frames, 0, sequence.duration)
            }
            self.info = info
            shrink = info.shrinksOnLoad ? options.jpegScale : .full
            (outputWidth, outputHeight) = shrink.scaledSize(width: width, height: height)
            outputFormat = PixelFormat(layout, depth)
            warnings = colourWarnings + apertureWarnings
            self.window = window
            self.viaLibavif = viaLibavif
            storedSize = (storedWidth, storedHeight)
            strict = options.strict
            pictureRows = PictureRows(height: outputHeight)
            self.bytes = bytes
            handle = opened
        } catch {
            ck_heif_close(opened)
            throw error
        }
    }

    /// Maps a limited-range alpha channel (16…235, scaled to the sample depth) onto the full range, clamped, as
    /// libavif's YUV-to-RGB conversion does for alpha.
    static func expandLimitedAlpha(_ buffer: inout PixelBuffer) {
        guard buffer.format.layout == .rgba else { return }
        let width = buffer.width, sixteen = buffer.format.depth == .sixteen
        buffer.withUnsafeMutableRows { rows in
            for y in 0..<rows.height {
                if sixteen {
                    let row = rows.row(y).assumingMemoryBound(to: UInt16.self)
                    for x in 0..<width {
                        let a = Double(row[4 * x + 3]) / 65535 * 255
                        row[4 * x + 3] = UInt16(((a - 16) / 219 * 65535).rounded().clamped(0, 65535))
                    }
                } else {
                    let row = rows.row(y).assumingMemoryBound(to: UInt8.self)
                    for x in 0..<width {
                        let a = Int(row[4 * x + 3])
                        row[4 * x + 3] = UInt8(min(255, max(0, ((a - 16) * 255 + 109) / 219)))
                    }
                }
            }
        }
    }

    /// Item types of HEIF pictures libheif 1.15 does not decode, and what they are.
    static let unreadCodings = [
        "unci": "uncompressed pictures (ISO/IEC 23001-17)", "jpeg": "JPEG-coded pictures",
        "j2k1": "JPEG 2000-coded pictures",
        "vvc1": "VVC-coded pictures", "avc1": "H.264-coded pictures", "mski": "mask items",
    ]

    /// Reads HEIF data in memory.
    package convenience init(data: [UInt8], format: ImageFormat = .heif, options: DecodeOptions = DecodeOptions())
        throws(CodecError)
    {
        try self.init(input: .memory(InputBytes(data)), format: format, options: options)
    }

    deinit {
        ck_heif_close(handle)
    }

    /// Decodes the primary image into a new buffer.
    func decodePicture() throws(CodecError) -> PixelBuffer {
        if viaLibavif { return try decodeThroughLibavif() }
        var buffer = try makeOutputBuffer()
        let alpha: Int32 = outputFormat.hasAlpha ? 1 : 0, wide: Int32 = outputFormat.depth == .sixteen ? 1 : 0
        let handle = handle, format = info.format
        let factor = Int32(shrink.denominator)
        let (x, y, w, h) = (Int32(window.x), Int32(window.y), Int32(window.width), Int32(window.height))
        try buffer.withUnsafeMutableRows { rows throws(CodecError) in
            let output = rows.row(0).assumingMemoryBound(to: UInt8.self)
            try ShimStatus.call(format: format) { message in
                factor > 1
                    ? ck_heif_decode_shrunk(handle, factor, x, y, w, h, output, rows.bytesPerRow, message)
                    : ck_heif_decode(handle, alpha, wide, x, y, w, h, output, rows.bytesPerRow, message)
            }
        }
        if alphaIsLimited { Self.expandLimitedAlpha(&buffer) }
        return buffer
    }

    /// The stored picture decoded by libavif (RGBA), cut to the clean aperture.
    private func decodeThroughLibavif() throws(CodecError) -> PixelBuffer {
        let stored = window.x == 0 && window.y == 0 && (window.width, window.height) == (outputWidth, outputHeight)
        let (storedWidth, storedHeight) = storedSize
        var picture: PixelBuffer
        do {
            picture = try PixelBuffer(
                width: storedWidth, height: storedHeight, format: outputFormat, limits: .unlimited)
        } catch {
            throw CodecError(error)
        }
        let wide: Int32 = outputFormat.depth == .sixteen ? 1 : 0, strict: Int32 = self.strict ? 1 : 0
        let bytes = bytes
        try picture.withUnsafeMutableRows { rows throws(CodecError) in
            try ShimStatus.call(format: .avif) { message in
                ck_avif_decode(
                    bytes.pointer, bytes.count, Int32(storedWidth), Int32(storedHeight), wide, strict,
                    rows.row(0).assumingMemoryBound(to: UInt8.self), rows.bytesPerRow, message)
            }
        }
        guard !stored else { return picture }
        do {
            return try picture.cropped(x: window.x, y: window.y, width: window.width, height: window.height)
        } catch {
            throw CodecError(error)
        }
    }
}
