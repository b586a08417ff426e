/// How an image is laid out in a view's bounds, with the semantics of UIKit's `UIView.ContentMode`.
///
/// - ``scaleToFill`` stretches the image to the bounds (the aspect ratio is not kept).
/// - ``aspectFit`` scales it to fit entirely inside, centred (letterboxed).
/// - ``aspectFill`` scales it to cover the bounds, centred (the overhang is clipped).
/// - ``center`` and the eight edge/corner modes keep the image at its natural size and align it.
///
/// Every mode gives the frame the image occupies (``frame(imageSize:in:)``) and the mapping between image and view
/// coordinates in both directions (``imageToViewTransform(imageSize:in:)``).
public enum ContentMode: String, CaseIterable, Hashable, Sendable {
    /// Stretched to the bounds; the aspect ratio is not kept.
    case scaleToFill
    /// Scaled to fit inside the bounds, centred (letterboxed).
    case aspectFit
    /// Scaled to cover the bounds, centred (the overhang is clipped).
    case aspectFill
    /// At its natural size; centred on both axes.
    case center
    /// At its natural size; centred horizontally, at the top.
    case top
    /// At its natural size; centred horizontally, at the bottom.
    case bottom
    /// At its natural size; at the left, centred vertically.
    case left
    /// At its natural size; at the right, centred vertically.
    case right
    /// At its natural size; at the top-left corner.
    case topLeft
    /// At its natural size; at the top-right corner.
    case topRight
    /// At its natural size; at the bottom-left corner.
    case bottomLeft
    /// At its natural size; at the bottom-right corner.
    case bottomRight

    /// The alignment used to position the image (``Alignment/center`` for the three scaling modes).
    public var alignment: Alignment {
        switch self {
        case .scaleToFill, .aspectFit, .aspectFill, .center: .center
        case .top: .top
        case .bottom: .bottom
        case .left: .left
        case .right: .right
        case .topLeft: .topLeft
        case .topRight: .topRight
        case .bottomLeft: .bottomLeft
        case .bottomRight: .bottomRight
        }
    }

    /// The size the image is drawn at in `bounds`.
    public func displaySize(imageSize: Size, boundsSize: Size) -> Size {
        switch self {
        case .scaleToFill:
            return boundsSize
        case .aspectFit, .aspectFill:
            guard imageSize.width > 0, imageSize.height > 0 else { return .zero }
            let sx = boundsSize.width / imageSize.width, sy = boundsSize.height / imageSize.height
            let s = self == .aspectFit ? Swift.min(sx, sy) : Swift.max(sx, sy)
            return imageSize * s
        default:
            return imageSize
        }
    }

    /// The frame, in the view's coordinates, that the image occupies when laid out in `bounds`.
    public func frame(imageSize: Size, in bounds: Rect) -> Rect {
        alignment.place(displaySize(imageSize: imageSize, boundsSize: bounds.size), in: bounds)
    }

    /// The transform from image coordinates to view coordinates; `nil` when the image or the bounds are empty.
    public func imageToViewTransform(imageSize: Size, in bounds: Rect) -> AffineTransform2D? {
        guard !imageSize.isEmpty, !bounds.isEmpty else { return nil }
        let f = frame(imageSize: imageSize, in: bounds)
        return AffineTransform2D.scale(x: f.width / imageSize.width, y: f.height / imageSize.height)
            .translatedBy(x: f.minX, y: f.minY)
    }

    /// Maps a point from image coordinates to view coordinates.
    public func viewPoint(fromImage point: Point, imageSize: Size, in bounds: Rect) -> Point? {
        imageToViewTransform(imageSize: imageSize, in: bounds)?.apply(to: point)
    }

    /// Maps a point from view coordinates to image coordinates.
    public func imagePoint(fromView point: Point, imageSize: Size, in bounds: Rect) -> Point? {
        imageToViewTransform(imageSize: imageSize, in: bounds)?.inverted()?.apply(to: point)
    }

    /// Maps a rectangle from image coordinates to view coordinates.
    public func viewRect(fromImage rect: Rect, imageSize: Size, in bounds: Rect) -> Rect? {
        imageToViewTransform(imageSize: imageSize, in: bounds)?.apply(to: rect)
    }

    /// Maps a rectangle from view coordinates to image coordinates.
    public func imageRect(fromView rect: Rect, imageSize: Size, in bounds: Rect) -> Rect? {
        imageToViewTransform(imageSize: imageSize, in: bounds)?.inverted()?.apply(to: rect)
    }
}
