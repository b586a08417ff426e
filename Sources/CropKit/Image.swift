import CropCodecs
import CropGeometry
import CropPixels

/// A decoded picture: its pixels and the metadata to write back with them.
///
/// Loading applies the EXIF orientation by default, so ``pixels`` are upright and ``metadata`` says orientation 1;
/// writing keeps the ICC profile and the EXIF block unless asked to strip them.
///
/// ```swift
/// let photo = try Image(contentsOfFile: "IMG_0001.jpg")            // upright, whatever its EXIF orientation
/// let small = try photo.pixels.resized(width: 800, height: 600, mode: .fit)
/// try Image(pixels: small, metadata: photo.metadata).write(toFile: "small.jpg")
/// ```
///
/// For large files prefer ``ImagePipeline``: it decodes at a reduced scale when it can and streams rows from the
/// decoder to the encoder instead of holding whole images.
public struct Image: Sendable {
    /// The pixels.
    public var pixels: PixelBuffer
    /// The metadata written with the pixels: orientation (1 once upright), ICC profile, EXIF block.
    public var metadata: ImageMetadata

    /// Wraps pixels and their metadata.
    public init(pixels: PixelBuffer, metadata: ImageMetadata = .none) {
        self.pixels = pixels
        self.metadata = metadata
    }

    /// Decodes an image from a file or from memory.
    ///
    /// - Parameters:
    ///   - source: the file, or the bytes of a JPEG, PNG or WebP file.
    ///   - appliesOrientation: turn the pixels upright according to the EXIF orientation (the default) and set the
    ///     metadata's orientation to 1; `false` keeps the stored pixels and their orientation tag.
    ///   - limits: the decompression-bomb guard, checked against the header before any pixel memory is allocated.
    ///   - strict: treat the codec's corrupt-data warnings as errors.
    /// - Throws: ``CropKitError/codec(_:)`` naming the problem (unreadable file, not an image, truncated or corrupt
    ///   data, too many pixels …).
    public init(
        source: ImageSource, appliesOrientation: Bool = true, limits: PixelLimits = .default, strict: Bool = false
    ) throws(CropKitError) {
        let decoded = try mappingErrors { () throws(CodecError) -> DecodedImage in
            let options = DecodeOptions(limits: limits, strict: strict)
            switch source {
            case .file(let path): return try ImageCodec.decode(fileAtPath: path, options: options)
            case .data(let bytes): return try ImageCodec.decode(bytes, options: options)
            }
        }
        if appliesOrientation {
            pixels = decoded.pixels.applyingOrientation(decoded.metadata.orientation)
            metadata = decoded.metadata.uprighted()
        } else {
            pixels = decoded.pixels
            metadata = decoded.metadata
        }
    }

    /// Decodes an image file; see ``init(source:appliesOrientation:limits:strict:)``.
    public init(contentsOfFile path: String, appliesOrientation: Bool = true) throws(CropKitError) {
        try self.init(source: .file(path), appliesOrientation: appliesOrientation)
    }

    /// The pixel size.
    public var size: PixelSize { PixelSize(validWidth: pixels.width, height: pixels.height) }

    /// Encodes the image in ``SaveOptions/format`` (JPEG when `nil`), with its metadata unless stripped.
    ///
    /// JPEG has no alpha: transparent pixels are composited over white.
    public func encoded(options: SaveOptions = SaveOptions()) throws(CropKitError) -> [UInt8] {
        let format = try options.outputFormat(path: nil)
        let (pixels, meta) = try prepared(for: options)
        return try mappingErrors {
            try ImageCodec.encode(pixels, as: format, metadata: meta, options: options.encodeOptions)
        }
    }

    /// The pixels and metadata to write under `options`' colour and metadata policy (see ``SaveOptions/colorProfile``).
    private func prepared(for options: SaveOptions) throws(CropKitError) -> (PixelBuffer, ImageMetadata) {
        let color = OutputColor(metadata: metadata, pixelFormat: pixels.format, options: options)
        guard let transform = color.transform else { return (pixels, color.metadata) }
        var converted = pixels
        converted.withUnsafeMutableRows { rows in
            for y in 0..<rows.height { transform.convert(rows.row(y), to: rows.row(y), pixels: rows.width) }
        }
        return (converted, color.metadata)
    }

    /// Encodes the image and writes it atomically (temporary file, then rename); an existing file is an error
    /// unless ``SaveOptions/overwrite`` is set. The format is ``SaveOptions/format`` or the path's extension.
    public func write(toFile path: String, options: SaveOptions = SaveOptions()) throws(CropKitError) {
        let format = try options.outputFormat(path: path)
        let (pixels, meta) = try prepared(for: options)
        try mappingErrors {
            try ImageCodec.write(
                pixels, toPath: path, format: format, metadata: meta, options: options.encodeOptions,
                overwrite: options.overwrite)
        }
    }
}
