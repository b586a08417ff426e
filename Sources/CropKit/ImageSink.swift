import CropCodecs

/// Where a pipeline's output goes, and so what ``ImagePipeline/run(_:_:to:)`` returns:
///
/// | sink | returns | |
/// |---|---|---|
/// | ``image`` | ``RenderedImage`` | the pixels and their metadata; nothing is encoded |
/// | ``data(_:)`` | ``EncodedImage`` | the encoded file in memory (JPEG unless ``SaveOptions/format`` says) |
/// | ``file(_:options:)`` | ``WrittenFile`` | encoded and written atomically: a temporary file, then renamed |
///
/// Encoded outputs keep the ICC profile and the EXIF block (orientation reset to 1, since outputs are upright)
/// unless ``SaveOptions/stripMetadata`` is set. A file sink fails before anything is decoded when its name gives no
/// format or the file exists and ``SaveOptions/overwrite`` is off, and never leaves a partial file.
public struct ImageSink<Output: Sendable>: Sendable {
    /// What the sink does with the output, and how it wraps it.
    enum Target: Sendable {
        case image(@Sendable (Image, RenderReport) -> Output)
        case data(SaveOptions, @Sendable ([UInt8], ImageFormat, RenderReport) -> Output)
        case file(String, SaveOptions, @Sendable (String, ImageFormat, Int, RenderReport) -> Output)
    }

    let target: Target

    /// The encoding options (defaults for ``image``).
    var options: SaveOptions {
        switch target {
        case .image: SaveOptions()
        case .data(let options, _), .file(_, let options, _): options
        }
    }

    /// The format the output is encoded in, `nil` for pixels.
    ///
    /// - Throws: ``CropKitError/invalidRequest(name:reason:)`` when a file's name gives no format and none is set, or
    ///   the format is one CropKit only reads (see ``SaveOptions/outputFormat(path:)``).
    func encodedFormat() throws(CropKitError) -> ImageFormat? {
        switch target {
        case .image:
            return nil
        case .data(let options, _):
            return try options.outputFormat(path: nil)
        case .file(let path, let options, _):
            return try options.outputFormat(path: path)
        }
    }

    /// Fails early, before any decoding, when the output cannot be written: no format, or a file that exists and may
    /// not be replaced.
    func checkWritable() throws(CropKitError) {
        _ = try encodedFormat()
        if case .file(let path, let options, _) = target {
            try mappingErrors { try FileIO.checkCanCreate(path: path, overwrite: options.overwrite) }
        }
    }
}

extension ImageSink where Output == RenderedImage {
    /// Return the pixels (``RenderedImage``); nothing is encoded.
    public static var image: ImageSink<RenderedImage> {
        ImageSink(target: .image { image, report in RenderedImage(image: image, report: report) })
    }
}

extension ImageSink where Output == EncodedImage {
    /// Encode into memory (``EncodedImage``), in ``SaveOptions/format`` (JPEG when `nil`).
    public static func data(_ options: SaveOptions = SaveOptions()) -> ImageSink<EncodedImage> {
        ImageSink(
            target: .data(options) { bytes, format, report in
                EncodedImage(bytes: bytes, format: format, report: report)
            })
    }
}

extension ImageSink where Output == WrittenFile {
    /// Encode and write to `path` atomically (``WrittenFile``), in ``SaveOptions/format`` or the one the name's
    /// extension gives.
    public static func file(_ path: String, options: SaveOptions = SaveOptions()) -> ImageSink<WrittenFile> {
        ImageSink(
            target: .file(path, options) { path, format, byteCount, report in
                WrittenFile(path: path, format: format, byteCount: byteCount, report: report)
            })
    }
}
