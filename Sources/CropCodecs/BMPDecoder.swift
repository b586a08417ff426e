import CropGeometry
import CropPixels

/// A BMP decoder: CropKit's own reader (``BMPFile``) for every bitmap Windows and OS/2 write, palette, RLE, 16, 24
/// and 32-bit, bottom-up or top-down.
///
/// The output is 8-bit RGB, or RGBA when the header gives an alpha mask (a 32-bit BGRA bitmap); a version 5 header's
/// embedded ICC profile is kept. A file that ends early decodes in lenient mode with the missing rows black and a
/// warning; strict mode refuses it. Uncompressed rows are read one by one straight from the file's bytes, in any
/// order, so a bitmap costs its file and a band of rows, never the whole picture; RLE is decoded whole on the first
/// row request (``WholePictureDecoder``).
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
    /// Rows handed out by the row-by-row path.
    private var streamedRows = 0
    /// Whether the row-by-row path makes alpha opaque (every alpha value is 0), known at its first row.
    private var opaque: Bool?
    private var badIndexSaid = false

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
            bitDepth: file.bitsPerSample, decodedDepth: .eight, iccProfileSize: file.iccProfile?.count, hasEXIF: false,
            isProgressive: false, isInterlaced: false, colorModel: file.description,
            // The file's bytes are held anyway; RLE decodes the whole picture, the rest rows only.
            decoderMemory: file.isRunLengthCoded ? DecoderMemory(perStoredPixel: Double(layout.channelCount)) : .rows)
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
        for message in file.decode(bytes, into: &buffer) { try repair(message) }
        return buffer
    }

    package var rowsRead: Int { file.isRunLengthCoded ? pictureRows.rowsRead : streamedRows }

    package func readRows(into destination: UnsafeMutableRawPointer, bytesPerRow: Int, maxRows: Int)
        throws(CodecError) -> Int
    {
        try checkRowArguments(bytesPerRow: bytesPerRow, maxRows: maxRows)
        if file.isRunLengthCoded {
            return try pictureRows.read(
                into: destination, bytesPerRow: bytesPerRow, maxRows: maxRows, decode: decodePicture)
        }
        if opaque == nil {
            let allZero = file.alphaIsAllZero(bytes)
            if let missing = file.missingRowsRepair(fileSize: bytes.count) { try repair(missing) }
            if allZero { try repair(BMPFile.opaqueRepair) }
            opaque = allZero
        }
        let count = min(maxRows, outputHeight - streamedRows)
        let rowBytes = outputWidth * outputFormat.bytesPerPixel
        for i in 0..<count {
            let out = (destination + i * bytesPerRow).assumingMemoryBound(to: UInt8.self)
            out.initialize(repeating: 0, count: rowBytes)
            if file.decodeDisplayedRow(streamedRows + i, bytes, into: out, opaque: opaque == true), !badIndexSaid {
                badIndexSaid = true
                try repair(file.badIndexRepair())
            }
        }
        streamedRows += count
        return count
    }

    package func finish() throws(CodecError) {
        pictureRows.release()
    }

    /// A repair: a warning, or in strict mode the error.
    private func repair(_ message: String) throws(CodecError) {
        if strict { throw .corruptData(format: .bmp, message: message + " (strict mode)") }
        warnings.append(CodecWarning(.bmp, message))
    }
}
