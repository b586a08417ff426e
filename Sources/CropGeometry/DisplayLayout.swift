/// How to draw a crop state in a view: the picture's transform and the crop box, in view coordinates.
///
/// The straightened frame maps to the view by a uniform scale ``scale`` and a translation, so the crop box stays
/// axis-aligned on screen while the picture is drawn turned under it. The display transform differs from the
/// render plan's only by a scale (and the translation between output and view origins):
/// `storedToView = plan.transform⁻¹ · scale(scale · plan.scale) · translation`.
public struct DisplayLayout: Hashable, Sendable {
    /// The view's size.
    public let viewportSize: Size
    /// The insets the crop box is fitted within.
    public let insets: EdgeInsets
    /// View points per source pixel.
    public let scale: Double
    /// The crop box in view coordinates.
    public let cropBox: Rect
    /// Straightened frame (crop) coordinates → view.
    public let frameToView: AffineTransform2D
    /// Upright picture coordinates → view (includes the straighten).
    public let uprightToView: AffineTransform2D
    /// Oriented picture coordinates (the stored image after its EXIF orientation, before the user's turns and
    /// flips) → view.
    public let orientedToView: AffineTransform2D
    /// Stored image pixel coordinates → view: **the display transform**. Draw the stored image with it.
    public let storedToView: AffineTransform2D
    /// The upright picture's corners in view coordinates (top-left, top-right, bottom-right, bottom-left of the
    /// upright picture), a turned quadrilateral when straightened.
    public let pictureCorners: [Point]

    /// Maps a view point to frame (crop) coordinates.
    public func framePoint(fromView p: Point) -> Point {
        Point(x: (p.x - frameToView.tx) / scale, y: (p.y - frameToView.ty) / scale)
    }

    /// The transform that draws a copy of the stored image downscaled to `previewSize` (for example a preview made
    /// with shrink-on-load): preview pixel coordinates → view.
    public func storedPreviewTransform(previewSize: Size, sourceSize: PixelSize) -> AffineTransform2D {
        AffineTransform2D.scale(
            x: Double(sourceSize.width) / previewSize.width, y: Double(sourceSize.height) / previewSize.height)
            .concatenating(storedToView)
    }
}

extension CropState {
    /// The layout that shows the crop box as large as possible, centred, inside `viewportSize` less `insets` — as
    /// the rotate-and-crop tools of photo apps do.
    ///
    /// Throws ``GeometryError/invalidSize(_:)`` when the viewport is not finite and positive, or the insets leave
    /// no room.
    public func displayLayout(viewportSize: Size, insets: EdgeInsets = .zero) throws(GeometryError) -> DisplayLayout {
        try requirePositive(viewportSize, "viewportSize")
        guard insets.isValid else { throw .invalidSize("insets \(insets): must be finite and not negative") }
        let available = insets.inset(Rect(size: viewportSize))
        guard available.width > 0, available.height > 0 else {
            throw .invalidSize("viewport \(viewportSize) less insets \(insets) leaves no room for the crop")
        }
        let c = crop
        let k = Swift.min(available.width / c.width, available.height / c.height)
        return displayLayout(viewportSize: viewportSize, insets: insets, scale: k, frameAnchor: c.center,
                             viewAnchor: available.center)
    }

    /// The layout with a given frame → view mapping: `frameAnchor` in the frame lands on `viewAnchor`, scaled by
    /// `scale` (used to freeze the view during a gesture on the box).
    func displayLayout(viewportSize: Size, insets: EdgeInsets, scale k: Double, frameAnchor: Point,
                       viewAnchor: Point) -> DisplayLayout
    {
        let frameToView = AffineTransform2D(
            a: k, b: 0, c: 0, d: k, tx: viewAnchor.x - k * frameAnchor.x, ty: viewAnchor.y - k * frameAnchor.y)
        let centre = Rect(size: uprightSize.size).center
        var uprightToFrame = AffineTransform2D.identity
        let angle = straightenAngle
        if angle != 0 {
            uprightToFrame = AffineTransform2D.translation(x: -centre.x, y: -centre.y)
                .concatenating(.rotation(counterClockwiseOnScreen: angle * .pi / 180))
                .translatedBy(x: centre.x, y: centre.y)
        }
        let uprightToView = uprightToFrame.concatenating(frameToView)
        let orientedToView = userTransform.concatenating(uprightToView)
        let storedToView = orientation.transform(storedSize: sourceSize.size).concatenating(uprightToView)
        return DisplayLayout(
            viewportSize: viewportSize, insets: insets, scale: k, cropBox: frameToView.apply(to: crop),
            frameToView: frameToView, uprightToView: uprightToView, orientedToView: orientedToView,
            storedToView: storedToView,
            pictureCorners: Rect(size: uprightSize.size).corners.map(uprightToView.apply(to:)))
    }
}
