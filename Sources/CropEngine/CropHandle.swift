import CropGeometry

/// One of the eight resize handles of a crop box: four corners and four edge midpoints.
///
/// Encoded in JSON as its name (`"topLeft"`, `"top"`, …).
public enum CropHandle: String, CaseIterable, Hashable, Sendable {
    /// The top-left corner.
    case topLeft
    /// The middle of the top edge.
    case top
    /// The top-right corner.
    case topRight
    /// The middle of the right edge.
    case right
    /// The bottom-right corner.
    case bottomRight
    /// The middle of the bottom edge.
    case bottom
    /// The bottom-left corner.
    case bottomLeft
    /// The middle of the left edge.
    case left

    /// Whether the handle is a corner (it moves two edges).
    public var isCorner: Bool {
        switch self {
        case .topLeft, .topRight, .bottomRight, .bottomLeft: true
        default: false
        }
    }

    /// The horizontal edge the handle moves: −1 the left edge, +1 the right edge, 0 neither.
    public var horizontalDirection: Int {
        switch self {
        case .topLeft, .left, .bottomLeft: -1
        case .topRight, .right, .bottomRight: 1
        case .top, .bottom: 0
        }
    }

    /// The vertical edge the handle moves: −1 the top edge, +1 the bottom edge, 0 neither.
    public var verticalDirection: Int {
        switch self {
        case .topLeft, .top, .topRight: -1
        case .bottomLeft, .bottom, .bottomRight: 1
        case .left, .right: 0
        }
    }

    /// Where the handle sits on `rect`.
    public func position(in rect: Rect) -> Point {
        Point(
            x: rect.midX + Double(horizontalDirection) * rect.width / 2,
            y: rect.midY + Double(verticalDirection) * rect.height / 2)
    }

    /// The handle under `point`, or `nil`.
    ///
    /// A corner is hit within `radius` of its corner point; an edge anywhere within `radius` of its segment. Corners
    /// win over edges, then the nearest wins. Inside the box the reach is limited to a quarter of its shorter side, so
    /// the middle of even a small box is never a handle (it stays draggable).
    public static func hitTest(_ point: Point, rect: Rect, radius: Double) -> CropHandle? {
        guard point.isFinite, rect.isFinite, radius.isFinite, radius >= 0 else { return nil }
        let reach = rect.contains(point) ? Swift.min(radius, Swift.min(rect.width, rect.height) / 4) : radius
        var best: (handle: CropHandle, distance: Double)?
        for handle in allCases {
            let d = handle.distance(from: point, to: rect)
            guard d <= reach else { continue }
            // Corners first, then the nearest.
            if let current = best {
                if current.handle.isCorner && !handle.isCorner { continue }
                if current.handle.isCorner == handle.isCorner && d >= current.distance { continue }
            }
            best = (handle, d)
        }
        return best?.handle
    }

    /// Distance from `point` to the handle's corner point, or to its edge segment.
    package func distance(from point: Point, to rect: Rect) -> Double {
        if isCorner { return position(in: rect).distance(to: point) }
        if horizontalDirection == 0 {
            let y = verticalDirection < 0 ? rect.minY : rect.maxY
            return Point(x: point.x.clamped(rect.minX, rect.maxX), y: y).distance(to: point)
        }
        let x = horizontalDirection < 0 ? rect.minX : rect.maxX
        return Point(x: x, y: point.y.clamped(rect.minY, rect.maxY)).distance(to: point)
    }
}
