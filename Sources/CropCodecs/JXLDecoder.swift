import CJXL
import CropGeometry
import CropPixels

/// A JPEG XL decoder over libjxl (loaded at run time by the CJXL shim, like libtiff; no libjxl headers are needed to
/// build).
///
/// It reads the first frame (an animation's, composited; the frames are counted from their headers, libjxl skipping
/// their pixels, and an animation's frames are read by ``JXLFrames``):
/// - 8-bit files come out as 8-bit samples, deeper or floating-point ones as 16-bit; gray or RGB, with alpha when the
///   file has it (premultiplied alpha is unpremultiplied, since CropKit's buffers hold straight alpha);
/// - in the colour space of the data's ICC profile (``ImageMetadata/iccProfile``): the original's for lossless files
///   and for lossy (XYB) files whose colour space libjxl can name (sRGB, Display P3 …, the profile made by libjxl),
///   sRGB for a lossy file made from another ICC profile (named in a warning).
///
/// The codestream's orientation becomes ``ImageMetadata/orientation`` (applied by the pipeline like an EXIF
/// orientation, never here; JPEG XL's own orientation takes precedence over an Exif box's, as the format specifies),
/// and the Exif box is kept. Every allocation of libjxl's is counted against a cap derived from the pixel limits, so
/// a hostile file cannot make it allocate more. The picture is decoded whole on the first row request
/// (``WholePictureDecoder``), on every core.
package final class JXLDecoder: WholePictureDecoder {
    package let info: ImageInfo
    package let metadata: ImageMetadata
    package let outputWidth: Int
    package let outputHeight: Int
    package let outputFormat: PixelFormat
    package let warnings: [CodecWarning]

    private let handle: OpaquePointer
    var pictureRows: PictureRows

    /// libjxl's working memory per stored pixel, besides the output. Measured (peak RSS of a 256-px thumbnail, less the
    /// decoded picture): a 24 MP lossy file (`cjxl -e 3 -q 85`) 3.4 bytes a pixel, a lossless one (`-d 0 -e 1`) 2.3;
    /// libjxl decodes group by group into the output. 8 leaves room for other encodings.
    static let workingBytesPerPixel = 8.0

    /// Reads the header, the colour profile and the Exif box; checks the size against the limits.
    ///
    /// - Throws: ``CodecError/corruptData(format:message:)`` or ``CodecError/truncated(format:detail:)`` for data
    ///   libjxl rejects, ``CodecError/tooManyPixels(width:height:limit:)`` above the limits,
    ///   ``CodecError/resourceLimit(format:message:)`` when libjxl would need more memory than the limits allow,
    ///   ``CodecError/libraryUnavailable(format:reason:)`` when libjxl is not installed.
    package init(input: DecoderInput, options: DecodeOptions = DecodeOptions()) throws(CodecError) {
        let bytes = try input.allBytes()
        let maxMemory = Self.memoryCap(options.limits)
        var opened: OpaquePointer?
        var header = ck_jxl_info()
        do {
            try ShimStatus.call(format: .jxl) { message in
                bytes.withUnsafeBufferPointer {
                    ck_jxl_open($0.baseAddress, $0.count, maxMemory, &opened, &header, message)
                }
            }
        } catch {
            ck_jxl_close(opened)
            throw error
        }
        guard let opened else { throw .corruptData(format: .jxl, message: "libjxl opened nothing") }
        do throws(CodecError) {
            let width = Int(header.width), height = Int(header.height)
            do {
                try options.limits.check(width: width, height: height)
            } catch {
                throw CodecError(error)
            }
            var warnings: [CodecWarning] = []
            // An animation's frames are counted from their headers (libjxl skips their pixels).
            var frames: UInt32 = 0, seconds = 0.0, loops: UInt32 = 0
            if header.animation != 0 {
                try ShimStatus.call(format: .jxl) { ck_jxl_count_frames(opened, &frames, &seconds, &loops, $0) }
            }
            if header.other_extra_channels > 0 {
                warnings.append(
                    CodecWarning(
                        .jxl,
                        "\(header.other_extra_channels) extra channel(s) besides alpha (depth, spot colours …) are not read"
                    ))
            }
            if header.profile_converted != 0 {
                warnings.append(
                    CodecWarning(
                        .icc, "a lossy JPEG XL made from an ICC profile libjxl cannot apply: decoded as sRGB"))
            }
            if options.strict, let first = warnings.first(where: { $0.source == .jxl }) {
                throw .corruptData(format: .jxl, message: first.message + " (strict mode)")
            }
            func bytes(_ pointer: UnsafePointer<UInt8>?, _ count: UInt32) -> [UInt8]? {
                guard let pointer, count > 0 else { return nil }
                return Array(UnsafeBufferPointer(start: pointer, count: Int(count)))
            }
            // A file that names sRGB has no profile of its own (libjxl makes one up for it), as a JPEG without one.
            let profile =
                header.names_srgb != 0 || header.profile_converted != 0 ? nil : bytes(header.icc, header.icc_size)
            let exif = bytes(header.exif, header.exif_size)
            metadata = ImageMetadata(
                orientation: Orientation(exifValue: Int(header.orientation)) ?? .up, iccProfile: profile, exif: exif)
            let alpha = header.alpha_bits > 0
            let layout: ChannelLayout =
                header.color_channels == 1 ? (alpha ? .grayAlpha : .gray) : (alpha ? .rgba : .rgb)
            let depth: BitDepth = header.bits_per_sample > 8 || header.exponent_bits > 0 ? .sixteen : .eight
            let output = PixelFormat(layout, depth)
            var model = [header.uses_original_profile != 0 ? "lossless or original colour space" : "lossy (XYB)"]
            if header.exponent_bits > 0 { model.append("\(header.bits_per_sample)-bit float") }
            if header.container != 0 { model.append("container") }
            if header.jpeg_reconstruction != 0 { model.append("JPEG reconstruction data") }
            if alpha { model.append(header.alpha_premultiplied != 0 ? "premultiplied alpha" : "alpha") }
            var described = ImageInfo(
                format: .jxl, width: width, height: height, orientation: metadata.orientation, layout: layout,
                bitDepth: Int(header.bits_per_sample), decodedDepth: depth, iccProfileSize: profile?.count,
                hasEXIF: exif != nil, isProgressive: false, isInterlaced: false,
                colorModel: model.joined(separator: ", "),
                decoderMemory: DecoderMemory(perStoredPixel: Double(output.bytesPerPixel) + Self.workingBytesPerPixel))
            if frames > 1 {
                described.frameCount = Int(frames)
                described.duration = seconds
                described.playCount = Int(loops)
            }
            info = described
            outputWidth = width
            outputHeight = height
            outputFormat = output
            self.warnings = warnings
            pictureRows = PictureRows(height: height)
            handle = opened
        } catch {
            ck_jxl_close(opened)
            throw error
        }
    }

    /// Decodes whole JPEG XL data.
    package convenience init(data: [UInt8], options: DecodeOptions = DecodeOptions()) throws(CodecError) {
        try self.init(input: .memory(InputBytes(data)), options: options)
    }

    deinit {
        ck_jxl_close(handle)
    }

    /// What libjxl may allocate for a picture within `limits`: its working planes for the largest allowed picture,
    /// and no more (at least 64 MB).
    static func memoryCap(_ limits: PixelLimits) -> Int {
        let (cap, overflow) = limits.maxPixels.multipliedReportingOverflow(by: Int(workingBytesPerPixel) + 8)
        return overflow ? Int.max : Swift.max(cap, 64 << 20)
    }

    /// Decodes the first frame into a new buffer, on every core.
    func decodePicture() throws(CodecError) -> PixelBuffer {
        var buffer = try makeOutputBuffer(format: outputFormat)
        let channels = Int32(outputFormat.channelCount), sixteen: Int32 = outputFormat.depth == .sixteen ? 1 : 0
        try buffer.withUnsafeMutableRows { rows throws(CodecError) in
            try ShimStatus.call(format: .jxl) { message in
                ck_jxl_decode(
                    handle, rows.row(0).assumingMemoryBound(to: UInt8.self), rows.bytesPerRow, channels, sixteen,
                    Int32(Parallel.coreCount), message)
            }
        }
        return buffer
    }
}
