import CropGeometry

/// How an image is resized into a box of a given size.
public enum ResizeMode: Hashable, Sendable {
    /// Scale each axis to the box; the aspect ratio is not kept. The output is the box.
    case stretch
    /// Scale, keeping the aspect ratio, to the largest size that fits in the box. The output is that fitted size
    /// (one side equals the box, the other is at most the box).
    case fit
    /// Scale, keeping the aspect ratio, to the smallest size that covers the box, and crop the overhang; `gravity`
    /// says which part is kept (the centre, an edge, a corner, a focal point, or the most interesting part). The
    /// output is the box.
    case fill(gravity: Gravity = .center)
    /// Fit, then pad to the box with `background` (transparent or a colour), the image placed by `alignment`. The
    /// output is the box; it gains an alpha channel only if `background` is not opaque.
    case pad(background: PixelColor = .transparent, alignment: Alignment = .center)

    /// The geometry of resizing a `sourceWidth × sourceHeight` image into a `width × height` box.
    ///
    /// - Throws: ``PixelError/invalidDimensions(width:height:reason:)`` when a size is below 1.
    package func layout(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int) throws(PixelError) -> ResizeLayout {
        try PixelLimits.unlimited.check(width: sourceWidth, height: sourceHeight)
        try PixelLimits.unlimited.check(width: width, height: height)
        let (sw, sh) = (Double(sourceWidth), Double(sourceHeight))
        let full = Rect(x: 0, y: 0, width: sw, height: sh)
        // Whether the source is relatively wider than the box (exact integer comparison of the two ratios).
        let wider = sourceWidth * height >= sourceHeight * width
        func fitted() -> PixelSize {
            wider
                ? PixelSize(validWidth: width, height: Swift.max(1, Int((sh * Double(width) / sw).rounded())))
                : PixelSize(validWidth: Swift.max(1, Int((sw * Double(height) / sh).rounded())), height: height)
        }
        let box = PixelSize(validWidth: width, height: height)
        switch self {
        case .stretch:
            return ResizeLayout(outputSize: box, sourceRect: full, imageSize: box, imageOrigin: (0, 0))
        case .fit:
            let size = fitted()
            return ResizeLayout(outputSize: size, sourceRect: full, imageSize: size, imageOrigin: (0, 0))
        case .fill(let gravity):
            // Crop the source to the box's aspect ratio, placed by the gravity, then scale that to the box.
            let crop = wider
                ? Size(width: sh * Double(width) / Double(height), height: sh)
                : Size(width: sw, height: sw * Double(height) / Double(width))
            let rect = gravity.place(crop, in: full)
            return ResizeLayout(outputSize: box, sourceRect: rect, imageSize: box, imageOrigin: (0, 0))
        case .pad(_, let alignment):
            let size = fitted()
            let x = Int((Double(width - size.width) * alignment.horizontalFraction).rounded())
            let y = Int((Double(height - size.height) * alignment.verticalFraction).rounded())
            return ResizeLayout(outputSize: box, sourceRect: full, imageSize: size, imageOrigin: (x, y))
        }
    }
}

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
        let layout = try ResizeMode.fill(gravity: .center)
            .layout(sourceWidth: width, sourceHeight: height, width: inner, height: inner)
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
