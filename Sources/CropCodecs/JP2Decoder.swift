import CJP2
import CropGeometry
import CropPixels

/// A JPEG 2000 decoder over OpenJPEG (loaded at run time by the CJP2 shim; no OpenJPEG headers are needed to build).
///
/// It reads JP2 files and raw J2K codestreams: gray or RGB, with an alpha component when the file names one, as 8-bit
/// samples, or 16-bit when a component has more than 8 bits (signed components offset to unsigned); subsampled colour
/// (sYCC 4:2:0 and the like) is brought to full size and sYCC turned into RGB; the JP2 `colr` box's ICC profile is
/// kept. Shrink-on-load is OpenJPEG's own: asked for 1/2, 1/4 or 1/8 (``DecodeOptions/jpegScale``), it decodes only
/// the resolution levels that size needs, so the time and the memory fall with it
/// (``ImageInfo/largestShrinkOnLoad`` says how far a file allows). CMYK is refused. The picture is decoded whole on
/// the first row request (``WholePictureDecoder``), on every core.
package final class JP2Decoder: WholePictureDecoder {
    package let info: ImageInfo
    package let metadata: ImageMetadata
    package let outputWidth: Int
    package let outputHeight: Int
    package let outputFormat: PixelFormat
    package let warnings: [CodecWarning]

    private let handle: OpaquePointer
    private let reduce: Int32
    var pictureRows: PictureRows

    /// Reads the main header; checks the size against the limits.
    ///
    /// - Throws: ``CodecError/corruptData(format:message:)`` for data OpenJPEG rejects,
    ///   ``CodecError/unsupportedFeature(format:feature:)`` for CMYK, ``CodecError/tooManyPixels(width:height:limit:)``
    ///   above the limits, ``CodecError/libraryUnavailable(format:reason:)`` when OpenJPEG is not installed.
    package init(input: DecoderInput, options: DecodeOptions = DecodeOptions()) throws(CodecError) {
        let bytes = try input.allBytes()
        var opened: OpaquePointer?
        var header = ck_jp2_info()
        do {
            try ShimStatus.call(format: .jp2) { message in
                bytes.withUnsafeBufferPointer { ck_jp2_open($0.baseAddress, $0.count, &opened, &header, message) }
            }
        } catch {
            ck_jp2_close(opened)
            throw error
        }
        guard let opened else { throw .corruptData(format: .jp2, message: "OpenJPEG opened nothing") }
        do throws(CodecError) {
            let width = Int(header.width), height = Int(header.height)
            do {
                try options.limits.check(width: width, height: height)
            } catch {
                throw CodecError(error)
            }
            var warnings: [CodecWarning] = []
            let used = Int(header.channels)
            if Int(header.components) > used {
                warnings.append(CodecWarning(.jp2, "\(header.components) components: the first \(used) are read"))
            }
            if options.strict, let first = warnings.first {
                throw .corruptData(format: .jp2, message: first.message + " (strict mode)")
            }
            // The largest reduction the file's resolution levels allow, at most 8.
            let levels = Swift.max(1, Int(header.resolutions))
            let largest = 1 << Swift.min(3, levels - 1)
            let asked = Swift.min(options.jpegScale.rawValue, largest)
            reduce = Int32(asked.trailingZeroBitCount)
            var reducedWidth: UInt32 = 0, reducedHeight: UInt32 = 0
            ck_jp2_reduced_size(opened, reduce, &reducedWidth, &reducedHeight)
            let profile = header.icc.map { Array(UnsafeBufferPointer(start: $0, count: Int(header.icc_size))) }
            metadata = ImageMetadata(orientation: .up, iccProfile: profile, exif: nil)
            let layout: ChannelLayout =
                switch header.channels {
                case 1: .gray
                case 2: .grayAlpha
                case 3: .rgb
                default: .rgba
                }
            let depth: BitDepth = header.sixteen != 0 ? .sixteen : .eight
            outputFormat = PixelFormat(layout, depth)
            outputWidth = Int(reducedWidth)
            outputHeight = Int(reducedHeight)
            let space =
                switch header.color_space {
                case 1: "sRGB"
                case 2: "gray"
                case 3: "sYCC"
                case 4: "e-YCC"
                default: header.channels <= 2 ? "gray" : "RGB"
                }
            var model = [header.jp2 != 0 ? "JP2" : "J2K codestream", space, "\(header.components) components"]
            if header.subsampled != 0 { model.append("subsampled") }
            if header.is_signed != 0 { model.append("signed") }
            model.append("\(levels) resolution levels")
            if header.tiles > 1 { model.append("\(header.tiles) tiles of \(header.tile_width)×\(header.tile_height)") }
            var info = ImageInfo(
                format: .jp2, width: width, height: height, orientation: .up, layout: layout,
                bitDepth: Int(header.precision), decodedDepth: depth, iccProfileSize: profile?.count, hasEXIF: false,
                isProgressive: false, isInterlaced: false, colorModel: model.joined(separator: ", "),
                // OpenJPEG holds each component of the decoded resolution as 32-bit integers, and its code blocks.
                decoderMemory: DecoderMemory(
                    perStoredPixel: 0,
                    perDecodedPixel: Double(4 * Int(header.components) + 4 + outputFormat.bytesPerPixel)))
            info.largestShrinkOnLoad = largest
            self.info = info
            self.warnings = warnings
            pictureRows = PictureRows(height: outputHeight)
            handle = opened
        } catch {
            ck_jp2_close(opened)
            throw error
        }
    }

    /// Decodes whole JPEG 2000 data.
    package convenience init(data: [UInt8], options: DecodeOptions = DecodeOptions()) throws(CodecError) {
        try self.init(input: .memory(InputBytes(data)), options: options)
    }

    deinit {
        ck_jp2_close(handle)
    }

    /// Decodes the picture at the chosen reduction into a new buffer, on every core.
    func decodePicture() throws(CodecError) -> PixelBuffer {
        var buffer = try makeOutputBuffer(format: outputFormat)
        try buffer.withUnsafeMutableRows { rows throws(CodecError) in
            try ShimStatus.call(format: .jp2) { message in
                ck_jp2_decode(
                    handle, reduce, Int32(Parallel.coreCount), rows.row(0).assumingMemoryBound(to: UInt8.self),
                    rows.bytesPerRow, message)
            }
        }
        return buffer
    }
}
