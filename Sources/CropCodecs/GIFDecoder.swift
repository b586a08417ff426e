import CGIF
import CropGeometry
import CropPixels

/// A GIF decoder over giflib (loaded at run time by the CGIF shim, like libwebp; no giflib headers are needed to
/// build).
///
/// It gives the first frame composited on the canvas, as a browser shows the file before any animation runs: the
/// canvas outside the frame and the frame's transparent colour stay transparent (``GIFFrames`` reads every frame of
/// an animation). When the first frame reaches past the logical screen the canvas grows to hold it, as
/// browsers do. The output is 8-bit RGBA when anything can be transparent, RGB otherwise. GIF has no orientation,
/// ICC profile or EXIF; the picture is decoded whole on the first row request (``WholePictureDecoder``).
package final class GIFDecoder: WholePictureDecoder {
    package let info: ImageInfo
    package let metadata = ImageMetadata.none
    package let outputWidth: Int
    package let outputHeight: Int
    package let outputFormat: PixelFormat
    package let warnings: [CodecWarning]

    private let bytes: [UInt8]
    var pictureRows: PictureRows

    /// Reads the screen and frame descriptors and counts the frames; checks the canvas against the limits.
    ///
    /// - Throws: ``CodecError/notAnImage(reason:)`` without a GIF header, ``CodecError/truncated(format:detail:)``
    ///   or ``CodecError/corruptData(format:message:)`` when the descriptors up to the first frame are broken,
    ///   ``CodecError/tooManyPixels(width:height:limit:)`` above the limits,
    ///   ``CodecError/libraryUnavailable(format:reason:)`` when giflib is not installed.
    package init(input: DecoderInput, options: DecodeOptions = DecodeOptions()) throws(CodecError) {
        let bytes = try input.allBytes()
        var gif = ck_gif_info()
        try ShimStatus.call(format: .gif) { message in
            bytes.withUnsafeBufferPointer { ck_gif_read_info($0.baseAddress, $0.count, &gif, message) }
        }
        let width = Int(gif.canvas_width), height = Int(gif.canvas_height)
        do {
            try options.limits.check(width: width, height: height)
        } catch {
            throw CodecError(error)
        }
        // Repairs (what strict mode refuses) first, then what is merely worth saying.
        var repairs: [String] = []
        if width != Int(gif.screen_width) || height != Int(gif.screen_height) {
            let screen = "\(gif.screen_width)×\(gif.screen_height)"
            let frame = "\(gif.frame_width)×\(gif.frame_height) at (\(gif.frame_left), \(gif.frame_top))"
            repairs.append(
                "the first frame (\(frame)) reaches past the \(screen) screen: the canvas grows to \(width)×\(height)")
        }
        let frames = Int(gif.frame_count)
        if gif.count_incomplete != 0 {
            repairs.append("the file breaks after frame \(frames): only the frames before were counted")
        }
        if gif.default_palette != 0 {
            repairs.append(
                "no colour table (neither the frame's nor a global one): read as a grey ramp, as Pillow reads it")
        }
        if options.strict, let repair = repairs.first {
            throw .corruptData(format: .gif, message: repair + " (strict mode)")
        }
        var warnings = repairs.map { CodecWarning(.gif, $0) }
        if gif.count_incomplete == 0 && frames >= Int(CK_GIF_FRAME_COUNT_CAP) {
            warnings.append(CodecWarning(.gif, "frames were counted up to \(frames) and no further"))
        }
        let coversCanvas =
            gif.frame_left == 0 && gif.frame_top == 0 && Int(gif.frame_width) == width
            && Int(gif.frame_height) == height
        let hasAlpha = gif.transparent_index >= 0 || !coversCanvas
        let layout: ChannelLayout = hasAlpha ? .rgba : .rgb
        let version = gif.version89 != 0 ? "GIF89a" : "GIF87a"
        let table =
            (gif.default_palette != 0 ? "no palette (a grey ramp)" : "palette of \(gif.color_count)")
            + (gif.lzw_code_size != 0 ? ", LZW code size \(gif.lzw_code_size)" : "")
        var info = ImageInfo(
            format: .gif, width: width, height: height, orientation: .up, layout: layout, bitDepth: 8,
            decodedDepth: .eight, iccProfileSize: nil, hasEXIF: false, isProgressive: false,
            isInterlaced: gif.interlaced != 0,
            colorModel: hasAlpha ? "\(version) \(table), with transparency" : "\(version) \(table)",
            frameCount: frames > 1 ? frames : nil,
            // The RGBA canvas and the frame's indices.
            decoderMemory: DecoderMemory(perStoredPixel: 5))
        if frames > 1 {
            info.playCount = gif.loop_count > 0 ? Int(gif.loop_count) + 1 : gif.loop_count == 0 ? 0 : nil
            info.duration = Double(gif.total_delay_cs) / 100
        }
        self.info = info
        outputWidth = width
        outputHeight = height
        outputFormat = PixelFormat(layout, .eight)
        self.warnings = warnings
        self.bytes = bytes
        pictureRows = PictureRows(height: height)
    }

    /// Decodes whole GIF data.
    package convenience init(data: [UInt8], options: DecodeOptions = DecodeOptions()) throws(CodecError) {
        try self.init(input: .memory(InputBytes(data)), options: options)
    }

    /// Decodes the first frame onto the cleared canvas.
    func decodePicture() throws(CodecError) -> PixelBuffer {
        var buffer = try makeOutputBuffer()
        let alpha: Int32 = outputFormat.hasAlpha ? 1 : 0
        let width = Int32(outputWidth), height = Int32(outputHeight)
        try buffer.withUnsafeMutableRows { rows throws(CodecError) in
            try ShimStatus.call(format: .gif) { message in
                bytes.withUnsafeBufferPointer { data in
                    ck_gif_decode(
                        data.baseAddress, data.count, rows.row(0).assumingMemoryBound(to: UInt8.self),
                        rows.bytesPerRow, width, height, alpha, message)
                }
            }
        }
        return buffer
    }
}
