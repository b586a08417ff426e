import CropGeometry
import CropPixels

extension PixelBuffer {
    /// Resizes into a `width × height` box with a content mode, in one resampling pass (a fill crop is part of the
    /// resampling, not a separate step). A fill with `Gravity.attention` or `Gravity.entropy` keeps the window
    /// ``InterestMap`` finds most interesting; that is why this lives on the analysis floor, not the pixel floor
    /// (which gives the layouts and the resampling).
    ///
    /// The format is kept, except that `ResizeMode.pad(background:alignment:)` with a background that is not
    /// opaque adds alpha to an opaque image.
    ///
    /// - Throws: `PixelError` for a box below 1×1 or above the default pixel limit.
    /// - Complexity: as `resized(width:height:from:options:)`.
    public func resized(
        width: Int, height: Int, mode: ResizeMode, options: ResampleOptions = .default
    ) throws(PixelError) -> PixelBuffer {
        var layout = try mode.layout(sourceWidth: self.width, sourceHeight: self.height, width: width, height: height)
        if case .fill(let gravity) = mode, gravity.isSmart {
            layout.sourceRect = try gravity.window(layout.sourceRect.size, in: self)
        }
        let image = try resized(
            width: layout.imageSize.width, height: layout.imageSize.height, from: layout.sourceRect, options: options)
        guard case .pad(let background, _) = mode, layout.imageSize != layout.outputSize else { return image }
        return try image.padded(
            toWidth: width, height: height, x: layout.imageX, y: layout.imageY, background: background)
    }
}
