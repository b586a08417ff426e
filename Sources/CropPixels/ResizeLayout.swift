import CropGeometry

/// Where a content-mode resize samples the source and where the result goes. The pixel floor lays out the four
/// ways a picture goes into a box; which part a fill keeps is the caller's `place` function (CropAnalysis' `ResizeMode`
/// passes its gravity's).
package struct ResizeLayout: Hashable, Sendable, CustomStringConvertible {
    /// The size of the output image.
    package let outputSize: PixelSize
    /// The part of the source that is resampled (fractional; the whole source except for a fill).
    package var sourceRect: Rect
    /// The size the source rectangle is resampled to.
    package let imageSize: PixelSize
    /// The column of the output where the resampled image's left edge sits (non-zero only for a pad).
    package let imageX: Int
    /// The row of the output where the resampled image's top edge sits (non-zero only for a pad).
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

    /// Each axis scaled to the box.
    package static func stretch(
        sourceWidth: Int, sourceHeight: Int, width: Int, height: Int
    ) throws(PixelError) -> ResizeLayout {
        let (full, box) = try checked(sourceWidth, sourceHeight, width, height)
        return ResizeLayout(outputSize: box, sourceRect: full, imageSize: box, imageOrigin: (0, 0))
    }

    /// The largest size of the source's aspect that fits in the box.
    package static func fit(
        sourceWidth: Int, sourceHeight: Int, width: Int, height: Int
    ) throws(PixelError) -> ResizeLayout {
        let (full, _) = try checked(sourceWidth, sourceHeight, width, height)
        let size = fitted(sourceWidth, sourceHeight, width, height)
        return ResizeLayout(outputSize: size, sourceRect: full, imageSize: size, imageOrigin: (0, 0))
    }

    /// The box covered: the source cropped to the box's aspect, the crop placed by `place(cropSize, sourceBounds)`.
    package static func fill(
        sourceWidth: Int, sourceHeight: Int, width: Int, height: Int, place: (Size, Rect) -> Rect
    ) throws(PixelError) -> ResizeLayout {
        let (full, box) = try checked(sourceWidth, sourceHeight, width, height)
        let (sw, sh) = (full.width, full.height)
        let crop =
            wider(sourceWidth, sourceHeight, width, height)
            ? Size(width: sh * Double(width) / Double(height), height: sh)
            : Size(width: sw, height: sw * Double(height) / Double(width))
        return ResizeLayout(outputSize: box, sourceRect: place(crop, full), imageSize: box, imageOrigin: (0, 0))
    }

    /// The fitted picture inside the box, placed by `alignment`.
    package static func pad(
        sourceWidth: Int, sourceHeight: Int, width: Int, height: Int, alignment: Alignment
    ) throws(PixelError) -> ResizeLayout {
        let (full, box) = try checked(sourceWidth, sourceHeight, width, height)
        let size = fitted(sourceWidth, sourceHeight, width, height)
        let x = Int((Double(width - size.width) * alignment.horizontalFraction).rounded())
        let y = Int((Double(height - size.height) * alignment.verticalFraction).rounded())
        return ResizeLayout(outputSize: box, sourceRect: full, imageSize: size, imageOrigin: (x, y))
    }

    private static func checked(
        _ sourceWidth: Int, _ sourceHeight: Int, _ width: Int, _ height: Int
    ) throws(PixelError) -> (full: Rect, box: PixelSize) {
        try PixelLimits.unlimited.check(width: sourceWidth, height: sourceHeight)
        try PixelLimits.unlimited.check(width: width, height: height)
        return (
            Rect(x: 0, y: 0, width: Double(sourceWidth), height: Double(sourceHeight)),
            PixelSize(validWidth: width, height: height)
        )
    }

    /// Whether the source is relatively wider than the box (exact integer comparison of the two ratios).
    private static func wider(_ sourceWidth: Int, _ sourceHeight: Int, _ width: Int, _ height: Int) -> Bool {
        sourceWidth * height >= sourceHeight * width
    }

    private static func fitted(_ sourceWidth: Int, _ sourceHeight: Int, _ width: Int, _ height: Int) -> PixelSize {
        let (sw, sh) = (Double(sourceWidth), Double(sourceHeight))
        return wider(sourceWidth, sourceHeight, width, height)
            ? PixelSize(validWidth: width, height: Swift.max(1, Int((sh * Double(width) / sw).rounded())))
            : PixelSize(validWidth: Swift.max(1, Int((sw * Double(height) / sh).rounded())), height: height)
    }
}
