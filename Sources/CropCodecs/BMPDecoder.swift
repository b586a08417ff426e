import CropGeometry
import CropPixels

/// A BMP decoder: CropKit's own reader (``BMPFile``) for every bitmap Windows and OS/2 write, palette, RLE, 16, 24
/// and 32-bit, bottom-up or top-down.
///
/// The output is 8-bit RGB, or RGBA when the header gives an alpha mask (a 32-bit BGRA bitmap); a version 5 header's
/// embedded ICC profile is kept. A file that ends early decodes in lenient mode with the missing rows black and a
/// warning; strict mode refuses it. The picture is decoded whole on the first row request (``WholePictureDecoder``).
package final class BMPDecoder: WholePictureDecoder {
    package let info: ImageInfo
    package let metadata: ImageMetadata
    package let outputWidth: Int
    package let outputHeight: Int
    package let outputFormat: PixelFormat
    package private(set) var warnings: [CodecWarning]

    private let bytes: [UInt8]
    private let file: BMPFile
    private let strict: Bool
    var pictureRows: PictureRows

    /// Reads and checks the headers and the colour table; checks the size against the limits.
    ///
    /// - Throws: as ``BMPFile/init(_:)``, and ``CodecError/tooManyPixels(width:height:limit:)`` above the limits;
    ///   in strict mode, ``CodecError/corruptData(format:message:)`` for anything the reader would repair.
    package init(input: DecoderInput, options: DecodeOptions = DecodeOptions()) throws(CodecError) {
        let bytes = try input.allBytes()
        let file = try BMPFile(bytes)
        do {
            try options.limits.check(width: file.width, height: file.height)
        } catch {
            throw CodecError(error)
        }
        if options.strict, let repair = file.repairs.first {
            throw .corruptData(format: .bmp, message: repair + " (strict mode)")
        }
        let layout: ChannelLayout = file.hasAlpha ? .rgba : .rgb
        info = ImageInfo(
            format: .bmp, width: file.width, height: file.height, orientation: .up, layout: layout,
            bitDepth: file.bitsPerPixel, decodedDepth: .eight, iccProfileSize: file.iccProfile?.count, hasEXIF: false,
            isProgressive: false, isInterlaced: false, colorModel: file.description,
            // The file's bytes are held anyway; the picture itself.
            decoderMemory: DecoderMemory(perStoredPixel: Double(layout.channelCount)))
        metadata = ImageMetadata(orientation: .up, iccProfile: file.iccProfile, exif: nil)
        outputWidth = file.width
        outputHeight = file.height
        outputFormat = PixelFormat(layout, .eight)
        warnings = file.repairs.map { CodecWarning(.bmp, $0) }
        strict = options.strict
        self.bytes = bytes
        self.file = file
        pictureRows = PictureRows(height: file.height)
    }

    /// Decodes whole BMP data.
    package convenience init(data: [UInt8], options: DecodeOptions = DecodeOptions()) throws(CodecError) {
        try self.init(input: .memory(InputBytes(data)), options: options)
    }

    /// Decodes the pixels onto a cleared buffer.
    func decodePicture() throws(CodecError) -> PixelBuffer {
        var buffer = try makeOutputBuffer()
        let repairs = file.decode(bytes, into: &buffer)
        if strict, let repair = repairs.first { throw .corruptData(format: .bmp, message: repair + " (strict mode)") }
        warnings += repairs.map { CodecWarning(.bmp, $0) }
        return buffer
    }
}
