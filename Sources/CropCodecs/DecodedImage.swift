import CropPixels

/// A decoded image: its pixels, its metadata, the header facts and any warnings met on the way.
package struct DecodedImage: Sendable {
    /// The decoded pixels (the output size when a JPEG scale was used).
    package var pixels: PixelBuffer
    /// EXIF orientation, ICC profile and EXIF block.
    package var metadata: ImageMetadata
    /// What the header said (stored size, format, depth …).
    package var info: ImageInfo
    /// Recoverable problems met while decoding.
    package var warnings: [CodecWarning]

    /// Creates a decoded image.
    package init(pixels: PixelBuffer, metadata: ImageMetadata, info: ImageInfo, warnings: [CodecWarning]) {
        self.pixels = pixels
        self.metadata = metadata
        self.info = info
        self.warnings = warnings
    }
}
