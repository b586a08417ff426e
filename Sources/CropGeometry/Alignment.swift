/// Where a box sits inside a larger (or smaller) area: the centre, one of the four edges or one of the four corners.
///
/// Used as the alignment of un-scaled content modes and as the *gravity* of a fill crop.
public enum Alignment: String, CaseIterable, Hashable, Sendable {
    /// Centred on both axes.
    case center
    /// Centred horizontally, at the top.
    case top
    /// Centred horizontally, at the bottom.
    case bottom
    /// At the left, centred vertically.
    case left
    /// At the right, centred vertically.
    case right
    /// At the top-left corner.
    case topLeft
    /// At the top-right corner.
    case topRight
    /// At the bottom-left corner.
    case bottomLeft
    /// At the bottom-right corner.
    case bottomRight

    /// The horizontal position as a fraction of the free space: 0 left, 0.5 centre, 1 right.
    public var horizontalFraction: Double {
        switch self {
        case .left, .topLeft, .bottomLeft: 0
        case .center, .top, .bottom: 0.5
        case .right, .topRight, .bottomRight: 1
        }
    }

    /// The vertical position as a fraction of the free space: 0 top, 0.5 centre, 1 bottom.
    public var verticalFraction: Double {
        switch self {
        case .top, .topLeft, .topRight: 0
        case .center, .left, .right: 0.5
        case .bottom, .bottomLeft, .bottomRight: 1
        }
    }

    /// The rectangle of `size` placed inside `bounds` at this alignment. `size` may be larger than `bounds`, in which
    /// case the result overhangs on the sides the alignment does not pin.
    @inlinable
    public func place(_ size: Size, in bounds: Rect) -> Rect {
        Rect(
            x: bounds.minX + (bounds.width - size.width) * horizontalFraction,
            y: bounds.minY + (bounds.height - size.height) * verticalFraction,
            width: size.width, height: size.height)
    }
}
