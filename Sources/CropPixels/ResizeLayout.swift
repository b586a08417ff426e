import CropGeometry

/// Where a content-mode resize samples the source and where the result goes.
package struct ResizeLayout: Hashable, Sendable, CustomStringConvertible {
    /// The size of the output image.
    package let outputSize: PixelSize
    /// The part of the source that is resampled (fractional; the whole source except for ``ResizeMode/fill(gravity:)``).
    package var sourceRect: Rect
    /// The size the source rectangle is resampled to.
    package let imageSize: PixelSize
    /// The column of the output where the resampled image's left edge sits (non-zero only for
    /// ``ResizeMode/pad(background:alignment:)``).
    package let imageX: Int
    /// The row of the output where the resampled image's top edge sits (non-zero only for
    /// ``ResizeMode/pad(background:alignment:)``).
    package let imageY: Int

    init(outputSize: PixelSize, sourceRect: Rect, imageSize: PixelSize, imageOrigin: (Int, Int)) {
        self.outputSize = outputSize
        self.sourceRect = sourceRect
        self.imageSize = imageSize
        imageX = imageOrigin.0
        imageY = imageOrigin.1
    }

    package var description: String {
        "ResizeLayout(output \(outputSize), source \(sourceRect) → \(imageSize) at (\(imageX), \(imageY)))"
    }
}
