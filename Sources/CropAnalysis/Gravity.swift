import CropGeometry
import CropPixels

/// Which part of a picture a fill crop keeps: a fixed place (the centre, an edge or a corner), the part around a
/// focal point, or the part a smart measure finds most interesting.
///
/// It lives on the analysis floor, not with the geometry primitives, because ``attention`` and ``entropy`` need the
/// pixels: ``window(_:in:)`` measures them with ``InterestMap`` and keeps the window holding the most interest (the
/// pipeline does the same on a small copy of the picture). ``place(_:in:)``, geometry alone, places them at the
/// centre.
public enum Gravity: Hashable, Sendable, Codable {
    /// A fixed place.
    case alignment(Alignment)
    /// Keep this point as near the crop's centre as the picture allows. `x` and `y` are fractions (0…1) of the
    /// picture's width and height, from its top-left corner.
    case focus(Point)
    /// Keep this point as near the crop's centre as the picture allows, in the picture's pixels (`x`, `y` from its
    /// top-left corner). `ImagePipeline` reads it in the displayed source picture (EXIF orientation applied) and
    /// carries it through the crop, turns and straighten to the picture the step sees; ``place(_:in:)`` reads it in
    /// `bounds`' coordinates.
    case pixelFocus(Point)
    /// Where the eye goes: edges, saturated colour and skin.
    case attention
    /// Where the information is: local luma entropy.
    case entropy
    /// Where the people are: the window keeps every face ``HOGFaceDetector`` finds when they fit together, else the
    /// largest group it can keep whole, each with room above the head (``Face/window(_:keeping:in:)``); with no face
    /// found, it falls back to ``attention``.
    case face

    /// Keep the centre: ``alignment(_:)`` with `Alignment.center`.
    public static let center = Gravity.alignment(.center)
    /// Keep the top edge's middle: ``alignment(_:)`` with `Alignment.top`.
    public static let top = Gravity.alignment(.top)
    /// Keep the bottom edge's middle: ``alignment(_:)`` with `Alignment.bottom`.
    public static let bottom = Gravity.alignment(.bottom)
    /// Keep the left edge's middle: ``alignment(_:)`` with `Alignment.left`.
    public static let left = Gravity.alignment(.left)
    /// Keep the right edge's middle: ``alignment(_:)`` with `Alignment.right`.
    public static let right = Gravity.alignment(.right)
    /// Keep the top-left corner: ``alignment(_:)`` with `Alignment.topLeft`.
    public static let topLeft = Gravity.alignment(.topLeft)
    /// Keep the top-right corner: ``alignment(_:)`` with `Alignment.topRight`.
    public static let topRight = Gravity.alignment(.topRight)
    /// Keep the bottom-left corner: ``alignment(_:)`` with `Alignment.bottomLeft`.
    public static let bottomLeft = Gravity.alignment(.bottomLeft)
    /// Keep the bottom-right corner: ``alignment(_:)`` with `Alignment.bottomRight`.
    public static let bottomRight = Gravity.alignment(.bottomRight)

    /// Whether the place depends on the pixels (``attention``, ``entropy`` or ``face``).
    public var isSmart: Bool {
        switch self {
        case .attention, .entropy, .face: true
        case .alignment, .focus, .pixelFocus: false
        }
    }

    /// Whether this is a fixed place (``alignment(_:)``).
    public var isAlignment: Bool {
        if case .alignment = self { return true }
        return false
    }

    /// The rectangle of `size` (at most `bounds`' size on each side) placed inside `bounds`; the smart gravities
    /// place it at the centre.
    public func place(_ size: Size, in bounds: Rect) -> Rect {
        switch self {
        case .alignment(let alignment):
            return alignment.place(size, in: bounds)
        case .focus(let point):
            func start(_ fraction: Double, _ length: Double, _ extent: Double) -> Double {
                let free = extent - length
                guard free > 0 else { return free / 2 }
                return Swift.min(Swift.max(fraction * extent - length / 2, 0), free)
            }
            return Rect(
                x: bounds.minX + start(point.x, size.width, bounds.width),
                y: bounds.minY + start(point.y, size.height, bounds.height), width: size.width, height: size.height)
        case .pixelFocus(let point):
            return Gravity.focus(
                Point(
                    x: bounds.width > 0 ? (point.x - bounds.minX) / bounds.width : 0.5,
                    y: bounds.height > 0 ? (point.y - bounds.minY) / bounds.height : 0.5)
            ).place(size, in: bounds)
        case .attention, .entropy, .face:
            return Alignment.center.place(size, in: bounds)
        }
    }

    /// The window of `size` (at most the picture's size on each side) this gravity keeps of `image`, in the
    /// picture's pixels: for ``attention`` and ``entropy`` the window ``InterestMap`` finds the most interesting, for
    /// ``face`` the one keeping the faces (or attention's without a face), for the others ``place(_:in:)`` in the
    /// picture's bounds.
    ///
    /// - Throws: `PixelError` only if the analysis copy cannot be made (it cannot for a valid buffer).
    public func window(_ size: Size, in image: PixelBuffer) throws(PixelError) -> Rect {
        if self == .face {
            let bounds = Rect(x: 0, y: 0, width: Double(image.width), height: Double(image.height))
            if let placed = Face.window(size, keeping: try HOGFaceDetector().faces(in: image), in: bounds) {
                return placed.rect
            }
            return try Gravity.attention.window(size, in: image)
        }
        guard let measure = InterestMap.measure(for: self) else {
            return place(size, in: Rect(x: 0, y: 0, width: Double(image.width), height: Double(image.height)))
        }
        return try InterestMap(image, measure: measure).bestWindow(size).rect
    }

    /// The focal point that places a window exactly at `window` inside `bounds` (its centre, as fractions).
    public static func focus(on window: Rect, in bounds: Rect) -> Gravity {
        .focus(
            Point(
                x: bounds.width > 0 ? (window.midX - bounds.minX) / bounds.width : 0.5,
                y: bounds.height > 0 ? (window.midY - bounds.minY) / bounds.height : 0.5))
    }
}
