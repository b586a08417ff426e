extension PixelBuffer {
    /// The image placed on a `width × height` canvas filled with `background`, its top-left corner at `(x, y)`.
    ///
    /// The format is kept, except that a background that is not opaque adds alpha to an opaque image.
    ///
    /// - Throws: ``PixelError/invalidArgument(name:reason:)`` when the image does not fit the canvas at `(x, y)`,
    ///   ``PixelError`` for a canvas below 1×1 or above the default pixel limit.
    /// - Complexity: O(canvas pixels).
    public func padded(
        toWidth width: Int, height: Int, x: Int, y: Int, background: PixelColor
    ) throws(PixelError) -> PixelBuffer {
        guard x >= 0, y >= 0, x <= width - self.width, y <= height - self.height else {
            throw .invalidArgument(
                name: "position",
                reason: "a \(self.width)×\(self.height) image at (\(x), \(y)) does not fit a \(width)×\(height) canvas")
        }
        let layout = background.isOpaque ? format.layout : format.layout.withAlpha
        var out = try PixelBuffer(width: width, height: height, format: format.with(layout: layout))
        out.fill(background)
        (layout == format.layout ? self : addingAlpha()).copy(into: &out, x: x, y: y)
        return out
    }
}
