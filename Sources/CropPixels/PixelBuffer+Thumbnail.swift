import CropGeometry

extension PixelBuffer {
    /// A square thumbnail `side` pixels wide: the image scaled to cover the square with the longer side cropped
    /// about the centre, optionally inside a transparent border of `border` pixels (the picture then fills the
    /// inner `side − 2·border` square) and with corners rounded to `cornerRadius` (see ``roundedCorners(radius:border:)``).
    /// Alpha is added only for a border or rounded corners.
    ///
    /// - Throws: ``PixelError/invalidArgument(name:reason:)`` when the border leaves no pixel or the radius is
    ///   negative; ``PixelError`` for a side below 1.
    /// - Complexity: as ``resized(width:height:from:options:)`` plus O(side²).
    public func thumbnail(
        side: Int, border: Int = 0, cornerRadius: Double = 0, options: ResampleOptions = .default
    ) throws(PixelError) -> PixelBuffer {
        guard border >= 0, side - 2 * border >= 1 else {
            throw .invalidArgument(name: "border", reason: "\(border) leaves no pixel of a \(side)-pixel thumbnail")
        }
        guard cornerRadius >= 0, !cornerRadius.isNaN else {
            throw .invalidArgument(name: "cornerRadius", reason: "\(cornerRadius) must be a number ≥ 0")
        }
        let inner = side - 2 * border
        let layout = try ResizeLayout.fill(
            sourceWidth: width, sourceHeight: height, width: inner, height: inner, place: Alignment.center.place)
        return try resized(width: inner, height: inner, from: layout.sourceRect, options: options)
            .framed(border: border, cornerRadius: cornerRadius)
    }

    /// The image inside a transparent border of `border` pixels, its corners rounded to `cornerRadius` (see
    /// ``roundedCorners(radius:border:)``); the image itself when both are 0. Alpha is added only when needed.
    ///
    /// - Throws: ``PixelError/invalidArgument(name:reason:)`` for a negative border or radius.
    /// - Complexity: O(pixels).
    public func framed(border: Int, cornerRadius: Double) throws(PixelError) -> PixelBuffer {
        guard border >= 0 else { throw .invalidArgument(name: "border", reason: "\(border) must be ≥ 0") }
        guard cornerRadius >= 0, !cornerRadius.isNaN else {
            throw .invalidArgument(name: "cornerRadius", reason: "\(cornerRadius) must be a number ≥ 0")
        }
        var out = self
        if border > 0 { out = try out.addingTransparentBorder(border) }
        if cornerRadius > 0 { out = try out.roundedCorners(radius: cornerRadius, border: border) }
        return out
    }
}
