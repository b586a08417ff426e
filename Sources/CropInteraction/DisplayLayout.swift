import CropEngine
import CropGeometry

/// How to draw a crop state in a view: the picture's transform and the crop box, in view coordinates.
///
/// The straightened frame maps to the view by a uniform scale ``scale`` and a translation, so the crop box stays
/// axis-aligned on screen while the picture is drawn turned under it, about the crop's content point (which lands
/// on the box's centre): as the straighten changes, a re-fitted layout keeps the box where it is and turns the
/// picture about the box's centre. The display transform differs from the render plan's only by a scale (and the
/// translation between output and view origins):
/// `storedToView = plan.transform⁻¹ · scale(scale · plan.scale) · translation`.
///
/// **Context margin.** The box fits the viewport less the insets but never takes more than
/// ``maximumBoxFraction`` of the viewport on either axis, so a band of the surrounding picture stays visible around
/// it (for a UI to dim, and to draw a new box in or tap on). A fraction of 1 fits the box to the inset area alone.
public struct DisplayLayout: Hashable, Sendable {
    /// The view's size.
    public let viewportSize: Size
    /// The insets the crop box is fitted within.
    public let insets: EdgeInsets
    /// The largest share of the viewport's width and of its height the crop box may take (in `(0, 1]`).
    public let maximumBoxFraction: Double
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
            x: Double(sourceSize.width) / previewSize.width, y: Double(sourceSize.height) / previewSize.height
        )
        .concatenating(storedToView)
    }
}

extension CropState {
    /// The layout that shows the crop box as large as possible, centred, inside `viewportSize` less `insets` — as
    /// the rotate-and-crop tools of photo apps do — but no larger than `maximumBoxFraction` of the viewport on
    /// either axis (so a band of the picture around the box stays visible). The crop's content point lands on the
    /// box's centre.
    ///
    /// The scale is `min(aw / w, ah / h, f·vw / w, f·vh / h)` for the inset area `aw × ah`, the viewport `vw × vh`,
    /// the fraction `f` and the crop `w × h`; the box is centred in the inset area.
    ///
    /// Throws `GeometryError.invalidSize(_:)` when the viewport is not finite and positive or the insets leave
    /// no room, and `GeometryError.invalidValue(name:value:reason:)` when `maximumBoxFraction` is not in `(0, 1]`.
    public func displayLayout(viewportSize: Size, insets: EdgeInsets = .zero, maximumBoxFraction: Double = 1)
        throws(GeometryError) -> DisplayLayout
    {
        try requirePositive(viewportSize, "viewportSize")
        guard insets.isValid else { throw .invalidSize("insets \(insets): must be finite and not negative") }
        try requireBoxFraction(maximumBoxFraction)
        let available = insets.inset(Rect(size: viewportSize))
        guard available.width > 0, available.height > 0 else {
            throw .invalidSize("viewport \(viewportSize) less insets \(insets) leaves no room for the crop")
        }
        let c = crop
        let boxWidth = Swift.min(available.width, maximumBoxFraction * viewportSize.width)
        let boxHeight = Swift.min(available.height, maximumBoxFraction * viewportSize.height)
        let k = Swift.min(boxWidth / c.width, boxHeight / c.height)
        return displayLayout(
            viewportSize: viewportSize, insets: insets, maximumBoxFraction: maximumBoxFraction,
            scale: k, frameAnchor: c.center, viewAnchor: available.center)
    }

    /// The layout with a given frame → view mapping: `frameAnchor` in the frame lands on `viewAnchor`, scaled by
    /// `scale` (used to freeze the view during a gesture on the box).
    func displayLayout(
        viewportSize: Size, insets: EdgeInsets, maximumBoxFraction: Double, scale k: Double,
        frameAnchor: Point, viewAnchor: Point
    ) -> DisplayLayout {
        let frameToView = AffineTransform2D(
            a: k, b: 0, c: 0, d: k, tx: viewAnchor.x - k * frameAnchor.x, ty: viewAnchor.y - k * frameAnchor.y)
        // upright → view: the frame turns the upright picture by θ about its centre; written about the crop's
        // content point q (whose frame position is the crop's centre), so q lands exactly where the frame says.
        var uprightToView = frameToView
        let angle = straightenAngle
        if angle != 0 {
            let q = cropContentCenter, c = crop.center
            let viewOfQ = frameToView.apply(to: c)
            uprightToView = AffineTransform2D.translation(x: -q.x, y: -q.y)
                .concatenating(.rotation(counterClockwiseOnScreen: angle * .pi / 180))
                .scaledBy(x: k, y: k)
                .translatedBy(x: viewOfQ.x, y: viewOfQ.y)
        }
        let orientedToView = userTransform.concatenating(uprightToView)
        let storedToView = orientation.transform(storedSize: sourceSize.size).concatenating(uprightToView)
        return DisplayLayout(
            viewportSize: viewportSize, insets: insets, maximumBoxFraction: maximumBoxFraction, scale: k,
            cropBox: frameToView.apply(to: crop), frameToView: frameToView, uprightToView: uprightToView,
            orientedToView: orientedToView, storedToView: storedToView,
            pictureCorners: Rect(size: uprightSize.size).corners.map(uprightToView.apply(to:)))
    }
}

/// Checks a layout's maximum box fraction: finite, in `(0, 1]`.
func requireBoxFraction(_ fraction: Double) throws(GeometryError) {
    guard fraction.isFinite, fraction > 0, fraction <= 1 else {
        throw .invalidValue(name: "maximumBoxFraction", value: fraction, reason: "must be greater than 0 and at most 1")
    }
}
