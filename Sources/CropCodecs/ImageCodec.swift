import CropPixels

/// Format-independent entry points: detect the format from the bytes, then decode or encode whole images or make
/// streaming decoders and encoders.
package enum ImageCodec {
    /// Reads the header and metadata without decoding pixels (see ``ImageInfo/read(_:strict:)``).
    package static func readInfo(_ data: [UInt8], strict: Bool = false) throws(CodecError) -> ImageInfo {
        try ImageInfo.read(data, strict: strict)
    }

    /// Makes a streaming decoder for the data's format (detected from its magic bytes).
    package static func makeDecoder(data: [UInt8], options: DecodeOptions = DecodeOptions()) throws(CodecError)
        -> any ImageRowDecoder
    {
        try makeDecoder(input: .memory(InputBytes(data)), options: options)
    }

    /// Makes a streaming decoder for an input in memory or in a file (read a chunk at a time, never whole), its
    /// format detected from its first bytes.
    package static func makeDecoder(input: DecoderInput, options: DecodeOptions = DecodeOptions()) throws(CodecError)
        -> any ImageRowDecoder
    {
        let format = try ImageFormat.detect(input.prefix(ImageFormat.signatureLength))
        return switch format {
        case .jpeg: try JPEGDecoder(input: input, options: options)
        case .png: try PNGDecoder(input: input, options: options)
        case .webp: try WebPDecoder(input: input, options: options)
        case .heif, .avif: try HEIFDecoder(input: input, format: format, options: options)
        case .gif: try GIFDecoder(input: input, options: options)
        case .tiff: try TIFFDecoder(input: input, options: options)
        case .jxl: try JXLDecoder(input: input, options: options)
        case .jp2: try JP2Decoder(input: input, options: options)
        case .bmp: try BMPDecoder(input: input, options: options)
        }
    }

    /// Decodes a whole image of either format.
    package static func decode(_ data: [UInt8], options: DecodeOptions = DecodeOptions()) throws(CodecError)
        -> DecodedImage
    {
        let decoder = try makeDecoder(data: data, options: options)
        let pixels = try decoder.decodeAll()
        return DecodedImage(pixels: pixels, metadata: decoder.metadata, info: decoder.info, warnings: decoder.warnings)
    }

    /// Reads and decodes an image file (read a chunk at a time).
    package static func decode(fileAtPath path: String, options: DecodeOptions = DecodeOptions()) throws(CodecError)
        -> DecodedImage
    {
        let decoder = try makeDecoder(input: .file(InputFile(path: path)), options: options)
        let pixels = try decoder.decodeAll()
        return DecodedImage(pixels: pixels, metadata: decoder.metadata, info: decoder.info, warnings: decoder.warnings)
    }

    /// Encodes an image and writes it atomically to `path` (see ``FileIO/writeAtomically(_:toPath:overwrite:)``).
    ///
    /// - Parameter format: the format to write; `nil` takes it from the path's extension.
    /// - Throws: ``CodecError/invalidArgument(name:reason:)`` when no format is given and the extension names none,
    ///   ``CodecError/fileExists(path:)`` when the file exists and `overwrite` is false, encoding and I/O errors.
    package static func write(
        _ image: PixelBuffer, toPath path: String, format: ImageFormat? = nil, metadata: ImageMetadata = .none,
        options: EncodeOptions = EncodeOptions(), overwrite: Bool = false
    ) throws(CodecError) {
        guard let format = format ?? ImageFormat(pathExtensionOf: path) else {
            throw .invalidArgument(
                name: "output format",
                reason: "cannot tell it from the name \(path); use a .jpg, .png, .webp, .avif, .heic or .gif extension")
        }
        let file = try AtomicFile(path: path, overwrite: overwrite)
        let encoder = try makeEncoder(
            format: format, width: image.width, height: image.height, inputFormat: image.format, metadata: metadata,
            options: options, output: file)
        try encoder.writeRows(from: image, startRow: 0, count: image.height)
        try encoder.finish { _ throws(CodecError) in }
        try file.commit()
    }

    /// Makes a streaming encoder, writing into memory or, as it goes, into `output`.
    package static func makeEncoder(
        format: ImageFormat, width: Int, height: Int, inputFormat: PixelFormat, metadata: ImageMetadata = .none,
        options: EncodeOptions = EncodeOptions(), output: AtomicFile? = nil
    ) throws(CodecError) -> any ImageRowEncoder {
        switch format {
        case .jpeg:
            try JPEGEncoder(
                width: width, height: height, inputFormat: inputFormat, metadata: metadata, options: options.jpeg,
                output: output)
        case .png:
            try PNGEncoder(
                width: width, height: height, inputFormat: inputFormat, metadata: metadata, options: options.png,
                output: output)
        case .webp:
            try WebPEncoder(
                width: width, height: height, inputFormat: inputFormat, metadata: metadata, options: options.webp,
                output: output)
        case .heif, .avif:
            try HEIFEncoder(
                format: format, width: width, height: height, inputFormat: inputFormat, metadata: metadata,
                options: options.heif, output: output)
        case .gif:
            try GIFEncoder(width: width, height: height, inputFormat: inputFormat, metadata: metadata, output: output)
        case .jxl:
            try JXLEncoder(
                width: width, height: height, inputFormat: inputFormat, metadata: metadata, options: options.jxl,
                output: output)
        case .tiff, .bmp, .jp2: throw notWritable(format)
        }
    }

    /// Encodes a whole image.
    package static func encode(
        _ image: PixelBuffer, as format: ImageFormat, metadata: ImageMetadata = .none,
        options: EncodeOptions = EncodeOptions()
    ) throws(CodecError) -> [UInt8] {
        switch format {
        case .jpeg: try JPEGEncoder.encode(image, metadata: metadata, options: options.jpeg)
        case .png: try PNGEncoder.encode(image, metadata: metadata, options: options.png)
        case .webp: try WebPEncoder.encode(image, metadata: metadata, options: options.webp)
        case .heif, .avif: try HEIFEncoder.encode(image, as: format, metadata: metadata, options: options.heif)
        case .gif: try GIFEncoder.encode(image, metadata: metadata)
        case .jxl: try JXLEncoder.encode(image, metadata: metadata, options: options.jxl)
        case .tiff, .bmp, .jp2: throw notWritable(format)
        }
    }

    /// The error for a format CropKit reads but does not write.
    package static func notWritable(_ format: ImageFormat) -> CodecError {
        .unsupportedFormat(
            "writing \(format.displayName) (CropKit reads it; write JPEG, PNG, WebP, AVIF, HEIC, GIF or JPEG XL)")
    }
}
