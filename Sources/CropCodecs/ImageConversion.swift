import CropPixels

/// Options for ``ImageConversion``.
public struct ConversionOptions: Hashable, Sendable {
    /// The output format; `nil` takes it from the output path's extension.
    public var format: ImageFormat?
    /// Encoder settings.
    public var encode: EncodeOptions
    /// Decoder settings (limits, strictness).
    public var decode: DecodeOptions
    /// Drop all metadata (EXIF with its orientation, ICC profile). The pixels are not rotated.
    public var stripMetadata: Bool
    /// Replace an existing output file.
    public var overwrite: Bool

    /// Creates options.
    public init(
        format: ImageFormat? = nil, encode: EncodeOptions = EncodeOptions(), decode: DecodeOptions = DecodeOptions(),
        stripMetadata: Bool = false, overwrite: Bool = false
    ) {
        self.format = format
        self.encode = encode
        self.decode = decode
        self.stripMetadata = stripMetadata
        self.overwrite = overwrite
    }
}

/// What a conversion did.
public struct ConversionResult: Sendable {
    /// The input's header facts.
    public var input: ImageInfo
    /// The format written.
    public var outputFormat: ImageFormat
    /// Bytes written.
    public var outputByteCount: Int
    /// Warnings from the decoder and the encoder.
    public var warnings: [CodecWarning]
}

/// Decode-and-re-encode, streaming rows from the decoder to the encoder so that the decoded image is never held
/// whole: peak memory is the decoder's and encoder's own state (for a progressive JPEG, libjpeg's coefficient
/// buffer) plus the compressed input and output.
public enum ImageConversion {
    /// Rows moved from the decoder to the encoder at a time.
    static let stripRows = 32

    /// Converts the file at `inputPath` and writes `outputPath` atomically. Metadata is kept (orientation included,
    /// since the pixels are not rotated) unless ``ConversionOptions/stripMetadata``.
    ///
    /// - Throws: ``CodecError/fileExists(path:)`` before any work when the output exists and overwriting is off;
    ///   ``CodecError/invalidArgument(name:reason:)`` when no format is given and the extension names none; any
    ///   decoding, encoding or I/O error. No output file is left behind on error.
    public static func convert(inputPath: String, outputPath: String, options: ConversionOptions = ConversionOptions())
        throws(CodecError) -> ConversionResult
    {
        guard let format = options.format ?? ImageFormat(pathExtensionOf: outputPath) else {
            throw .invalidArgument(
                name: "output format",
                reason: "cannot tell it from the name \(outputPath); use a .jpg or .png extension or give the format")
        }
        try FileIO.checkCanCreate(path: outputPath, overwrite: options.overwrite)
        let data = try FileIO.readFile(atPath: inputPath)
        return try transcode(data, to: format, options: options) { encoder throws(CodecError) in
            try encoder.finish(writingTo: outputPath, overwrite: options.overwrite)
        }
    }

    /// Converts in-memory image data to `format`, streaming rows.
    public static func convert(_ data: [UInt8], to format: ImageFormat, options: ConversionOptions = ConversionOptions())
        throws(CodecError) -> ([UInt8], ConversionResult)
    {
        var bytes: [UInt8] = []
        let result = try transcode(data, to: format, options: options) { encoder throws(CodecError) in
            bytes = try encoder.finish()
        }
        return (bytes, result)
    }

    /// Decodes, streams every row into a new encoder, and lets `output` finish the encoder.
    private static func transcode(
        _ data: [UInt8], to format: ImageFormat, options: ConversionOptions,
        output: (any ImageRowEncoder) throws(CodecError) -> Void
    ) throws(CodecError) -> ConversionResult {
        let decoder = try ImageCodec.makeDecoder(data: data, options: options.decode)
        let metadata = options.stripMetadata ? ImageMetadata.none : decoder.metadata
        let encoder = try ImageCodec.makeEncoder(
            format: format, width: decoder.outputWidth, height: decoder.outputHeight,
            inputFormat: decoder.outputFormat, metadata: metadata, options: options.encode)
        try pump(from: decoder, to: encoder)
        try decoder.finish()
        var count = 0
        try encoder.finish { bytes throws(CodecError) in count = bytes.count }
        try output(encoder)
        return ConversionResult(
            input: decoder.info, outputFormat: format, outputByteCount: count,
            warnings: decoder.warnings + encoder.warnings)
    }

    /// Moves every row from `decoder` to `encoder` through a strip buffer.
    static func pump(from decoder: any ImageRowDecoder, to encoder: any ImageRowEncoder) throws(CodecError) {
        let bytesPerRow = decoder.outputWidth * decoder.outputFormat.bytesPerPixel
        let strip = UnsafeMutableRawPointer.allocate(byteCount: bytesPerRow * stripRows, alignment: 16)
        defer { strip.deallocate() }
        while decoder.rowsRead < decoder.outputHeight {
            let n = try decoder.readRows(into: strip, bytesPerRow: bytesPerRow, maxRows: stripRows)
            guard n > 0 else {
                throw .truncated(
                    format: decoder.info.format,
                    detail: "the decoder stopped after \(decoder.rowsRead) of \(decoder.outputHeight) rows")
            }
            try encoder.writeRows(from: strip, bytesPerRow: bytesPerRow, count: n)
        }
    }
}
