import CropKit

/// The picture `cropkit edit` works on, read once: its bytes, header facts and a small preview.
///
/// The preview is a copy of the **stored** pixels (no EXIF orientation applied), downscaled once with
/// shrink-on-load so its longer side is at most `previewMaximumSide`. That is the image a `CropViewState`'s
/// `image.transform` positions: the browser never needs a new preview when the user turns or flips.
public struct EditedImage: Sendable {
    /// A name for the picture (the file's name), used for the download's file name.
    public let name: String
    /// The encoded file.
    public let bytes: [UInt8]
    /// Its header: format, stored size, EXIF orientation.
    public let info: ImageInfo
    /// The encoded preview (stored orientation, no metadata): WebP at quality 85 (lossless for a PNG source), about half
    /// the bytes of the JPEG it replaces (1600 px previews of four test photos: 32–145 KB against 93–250 KB).
    public let preview: [UInt8]
    /// The preview's pixel size (stored orientation).
    public let previewSize: PixelSize
    /// The preview's format.
    public let previewFormat: ImageFormat

    /// Reads the picture's header and makes its preview.
    ///
    /// - Parameters:
    ///   - name: the picture's name (a file name; only its last path component is kept).
    ///   - bytes: the JPEG, PNG or WebP file.
    ///   - pipeline: the pipeline that makes the preview (its pixel limit applies).
    ///   - previewMaximumSide: the preview's longer side at most, in pixels (≥ 16).
    /// - Throws: `CropKitError` when the bytes are not a readable image or exceed the pixel limit.
    public init(name: String, bytes: [UInt8], pipeline: ImagePipeline = ImagePipeline(), previewMaximumSide: Int = 1600)
        throws(CropKitError)
    {
        let source = ImageSource.data(bytes)
        let info = try source.info(strict: pipeline.strict)
        let format = ImageFormat.webp
        let result = try pipeline.run(source, Self.previewSteps(info, previewMaximumSide), to: Self.previewSink(info))
        self.name = String(name.split(separator: "/").last ?? "image")
        self.bytes = bytes
        self.info = info
        self.preview = result.bytes
        self.previewSize = result.size
        self.previewFormat = format
    }

    /// The memory making the preview of `bytes` will hold at its peak, planned from the header (what a render queue
    /// with a memory budget reserves before ``init(name:bytes:pipeline:previewMaximumSide:)`` runs).
    package static func previewMemory(bytes: [UInt8], pipeline: ImagePipeline, previewMaximumSide: Int)
        throws(CropKitError)
        -> Int
    {
        let source = ImageSource.data(bytes)
        let info = try source.info(strict: pipeline.strict)
        return try pipeline.memoryPlan(source, previewSteps(info, previewMaximumSide), to: previewSink(info)).peakBytes
    }

    /// The preview's steps: the stored orientation, fitted within `side` (at least 16) pixels.
    static func previewSteps(_ info: ImageInfo, _ side: Int) -> [ImageOperation] {
        let side = max(16, side)
        return ImageOperation.undoing(info.orientation) + [.fit(within: PixelSize(validWidth: side, height: side))]
    }

    /// WebP at quality 85, alpha kept; lossless for a PNG source, whose pixels are drawn exactly.
    private static func previewSink(_ info: ImageInfo) -> ImageSink<EncodedImage> {
        var options = SaveOptions(format: .webp, quality: 85, lossless: info.format == .png, stripMetadata: true)
        options.frames = .first  // the editor shows an animation's first frame; Done writes every frame
        return .data(options)
    }

    /// The MIME type of the preview.
    public var previewContentType: String { previewFormat.mimeType }
}
