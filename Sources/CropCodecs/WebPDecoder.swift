import CWebP
import CropGeometry
import CropPixels

/// A WebP decoder over libwebp (loaded at run time; see ``WebPLibrary``).
///
/// Lossy, lossless and alpha; the ICC profile and the EXIF orientation come from their chunks. An animation gives
/// its first frame, placed on the canvas (transparent elsewhere), with a warning saying so. libwebp decodes a whole
/// picture at once, so the first ``readRows(into:bytesPerRow:maxRows:)`` decodes it and rows are handed out from
/// that buffer; ``DecodeOptions/jpegScale`` asks libwebp's rescaler for a smaller picture straight away
/// (shrink-on-load, each side divided and rounded up as for JPEG; not for animations).
///
/// Output is 8-bit RGBA when the file has alpha, RGB otherwise.
package final class WebPDecoder: WholePictureDecoder {
    package let info: ImageInfo
    package private(set) var metadata: ImageMetadata
    package let outputWidth: Int
    package let outputHeight: Int
    package let outputFormat: PixelFormat
    package private(set) var warnings: [CodecWarning] = []

    private let bytes: [UInt8]
    private let container: WebPContainer
    var pictureRows: PictureRows

    /// Reads the container and the bitstream's header; checks the size against the limits.
    ///
    /// - Throws: ``CodecError/notAnImage(reason:)`` without a RIFF/WEBP header, ``CodecError/truncated(format:detail:)``
    ///   or ``CodecError/corruptData(format:message:)`` for a broken container or bitstream header,
    ///   ``CodecError/tooManyPixels(width:height:limit:)`` above the limits, ``CodecError/unsupportedFormat(_:)`` when
    ///   libwebp is not installed.
    package init(input: DecoderInput, options: DecodeOptions = DecodeOptions()) throws(CodecError) {
        let bytes = try input.allBytes()
        let container = try WebPContainer(bytes)
        if options.strict, let repair = container.warnings.first {
            throw .corruptData(format: .webp, message: repair + " (strict mode)")
        }
        var warnings = container.warnings.map { CodecWarning(.webp, $0) }
        let features: ck_webp_features
        if let frame = container.firstFrameFile(bytes) {
            features = try WebPLibrary.features(frame)
        } else if container.isAnimated {
            throw .corruptData(format: .webp, message: "the first animation frame has no VP8 or VP8L bitstream")
        } else {
            features = try WebPLibrary.features(bytes)
        }
        let width = container.canvas?.width ?? Int(features.width)
        let height = container.canvas?.height ?? Int(features.height)
        do {
            try options.limits.check(width: width, height: height)
            // The first frame is decoded on its own before it is placed: its size is checked too.
            if let frame = container.firstFrame { try options.limits.check(width: frame.width, height: frame.height) }
        } catch {
            throw CodecError(error)
        }
        var metadata = ImageMetadata(iccProfile: container.iccProfile, exif: container.exif)
        if let exif = container.exif {
            let reading = EXIF.readOrientation(tiff: exif)
            metadata.orientation = reading.orientation
            if let warning = reading.warning { warnings.append(CodecWarning(.exif, warning)) }
        }
        let hasAlpha = features.has_alpha != 0 || container.isAnimated
        let layout: ChannelLayout = hasAlpha ? .rgba : .rgb
        let kind = container.isAnimated ? "animated" : features.format == 2 ? "lossless" : "lossy"
        var info = ImageInfo(
            format: .webp, width: width, height: height, orientation: metadata.orientation, layout: layout,
            bitDepth: 8, decodedDepth: .eight, iccProfileSize: metadata.iccProfile?.count,
            hasEXIF: metadata.exif != nil, isProgressive: false, isInterlaced: false,
            colorModel: hasAlpha ? "\(kind), with alpha" : kind,
            frameCount: container.isAnimated ? container.frameCount : nil,
            // libwebp decodes into a whole RGBA picture at the rescaled size; a lossless bitstream also keeps its
            // whole ARGB picture, and an animation's first frame is rebuilt as a still file and composited.
            decoderMemory: container.isAnimated
                ? DecoderMemory(perStoredPixel: 8)
                : features.format == 2
                    ? DecoderMemory(perStoredPixel: 4, perDecodedPixel: 4)
                    : DecoderMemory(perStoredPixel: 0, perDecodedPixel: 4))
        if container.isAnimated {
            info.playCount = container.loopCount
            info.duration = Double(container.totalDuration) / 1000
        }
        self.info = info
        let scaled = (info.shrinksOnLoad ? options.jpegScale : .full).scaledSize(width: width, height: height)
        outputWidth = scaled.0
        outputHeight = scaled.1
        outputFormat = PixelFormat(layout, .eight)
        self.metadata = metadata
        self.warnings = warnings
        self.bytes = bytes
        self.container = container
        pictureRows = PictureRows(height: scaled.1)
    }

    /// Decodes whole WebP data.
    package convenience init(data: [UInt8], options: DecodeOptions = DecodeOptions()) throws(CodecError) {
        try self.init(input: .memory(InputBytes(data)), options: options)
    }

    /// Decodes the picture (or the first frame on its canvas) into a new buffer.
    func decodePicture() throws(CodecError) -> PixelBuffer {
        var buffer = try makeOutputBuffer()
        if let frameFile = container.firstFrameFile(bytes), let frame = container.firstFrame {
            // The frame, decoded on its own, placed on the transparent canvas (clipped to it).
            var decoded: PixelBuffer
            do {
                decoded = try PixelBuffer(width: frame.width, height: frame.height, format: .rgba8, limits: .unlimited)
            } catch {
                throw CodecError(error)
            }
            try WebPLibrary.decode(frameFile, into: &decoded, scaled: false)
            let x0 = Swift.min(frame.x, outputWidth), y0 = Swift.min(frame.y, outputHeight)
            let w = Swift.min(frame.width, outputWidth - x0), h = Swift.min(frame.height, outputHeight - y0)
            if w > 0 && h > 0 {
                buffer.withUnsafeMutableRows { target in
                    decoded.withUnsafeRows { source in
                        for y in 0..<h {
                            (target.row(y0 + y) + x0 * 4).copyMemory(from: source.row(y), byteCount: w * 4)
                        }
                    }
                }
            }
        } else {
            try WebPLibrary.decode(
                bytes, into: &buffer, scaled: outputWidth != info.width || outputHeight != info.height)
        }
        return buffer
    }
}
