import CropKit

/// What the page learns about the picture (`GET /api/image` and the WebSocket's `hello`).
public struct ImageDescription: Codable, Hashable, Sendable {
    /// The preview image the view state's transform positions.
    public struct Preview: Codable, Hashable, Sendable {
        /// Where to get it.
        public var url: String
        /// Its width in pixels (stored orientation).
        public var width: Int
        /// Its height in pixels (stored orientation).
        public var height: Int
        /// Its MIME type.
        public var contentType: String
    }
    /// The picture's id in the server's ``EditorLibrary`` (`"0"` for the picture the server started with).
    public var id: String
    /// The file's name.
    public var name: String
    /// `"jpeg"` or `"png"`.
    public var format: String
    /// The displayed width (after the EXIF orientation).
    public var width: Int
    /// The displayed height.
    public var height: Int
    /// The stored width.
    public var storedWidth: Int
    /// The stored height.
    public var storedHeight: Int
    /// The EXIF orientation, 1…8.
    public var orientation: Int
    /// The preview.
    public var preview: Preview

    /// Describes `image`, held under `id`.
    public init(_ image: EditedImage, id: String = "0") {
        self.id = id
        name = image.name
        format = image.info.format.rawValue
        width = image.info.displayedSize.width
        height = image.info.displayedSize.height
        storedWidth = image.info.width
        storedHeight = image.info.height
        orientation = image.info.orientation.exifValue
        preview = Preview(
            url: "api/images/\(id)/preview", width: image.previewSize.width, height: image.previewSize.height,
            contentType: image.previewContentType)
    }
}
