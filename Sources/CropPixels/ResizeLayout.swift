import CropGeometry

/// Where a content-mode resize samples the source and where the result goes.
public struct ResizeLayout: Hashable, Sendable, CustomStringConvertible {
    /// The size of the output image.
    public let outputSize: PixelSize
    /// The part of the source that is resampled (fractional; the whole source except for ``ResizeMode/fill(gravity:)``).
    public let sourceRect: Rect
    /// The size the source rectangle is resampled to.
    public let imageSize: PixelSize
    /// The column of the output where the resampled image's left edge sits (non-zero only for
    /// ``ResizeMode/pad(background:alignment:)``).
    public let imageX: Int
    /// The row of the output where the resampled image's top edge sits (non-zero only for
    /// ``ResizeMode/pad(background:alignment:)``).
    public let imageY: Int

    init(outputSize: PixelSize, sourceRect: Rect, imageSize: PixelSize, imageOrigin: (Int, Int)) {
        self.outputSize = outputSize
        self.sourceRect = sourceRect
        self.imageSize = imageSize
        imageX = imageOrigin.0
        imageY = imageOrigin.1
    }

    public var description: String {
        "ResizeLayout(output \(outputSize), source \(sourceRect) → \(imageSize) at (\(imageX), \(imageY)))"
    }
}
