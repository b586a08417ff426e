/// An axis-aligned rectangle: an origin (its top-left corner, minimum x and y) and a size.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    /// The top-left corner.
    public var origin: Point
    /// The extent.
    public var size: Size

    /// Creates a rectangle from its top-left corner and size.
    @inlinable
    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    /// Creates a rectangle from its top-left corner and size.
    @inlinable
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }

    /// Creates a rectangle from its centre and size.
    @inlinable
    public init(center: Point, size: Size) {
        self.init(origin: Point(x: center.x - size.width / 2, y: center.y - size.height / 2), size: size)
    }

    /// The rectangle `(0, 0, size)`.
    @inlinable
    public init(size: Size) {
        self.init(origin: .zero, size: size)
    }

    /// The smallest rectangle containing all the points; `nil` when there are none.
    public init?(bounding points: some Sequence<Point>) {
        var iterator = points.makeIterator()
        guard let first = iterator.next() else { return nil }
        var (minX, minY, maxX, maxY) = (first.x, first.y, first.x, first.y)
        while let p = iterator.next() {
            minX = Swift.min(minX, p.x)
            minY = Swift.min(minY, p.y)
            maxX = Swift.max(maxX, p.x)
            maxY = Swift.max(maxY, p.y)
        }
        self.init(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// The empty rectangle at the origin.
    public static let zero = Rect(origin: .zero, size: .zero)

    /// The left edge.
    @inlinable public var minX: Double { origin.x }
    /// The top edge.
    @inlinable public var minY: Double { origin.y }
    /// The right edge.
    @inlinable public var maxX: Double { origin.x + size.width }
    /// The bottom edge.
    @inlinable public var maxY: Double { origin.y + size.height }
    /// The horizontal centre.
    @inlinable public var midX: Double { origin.x + size.width / 2 }
    /// The vertical centre.
    @inlinable public var midY: Double { origin.y + size.height / 2 }
    /// The horizontal extent.
    @inlinable public var width: Double { size.width }
    /// The vertical extent.
    @inlinable public var height: Double { size.height }

    /// The centre point.
    @inlinable
    public var center: Point { Point(x: midX, y: midY) }

    /// The four corners: top-left, top-right, bottom-right, bottom-left.
    @inlinable
    public var corners: [Point] {
        [Point(x: minX, y: minY), Point(x: maxX, y: minY), Point(x: maxX, y: maxY), Point(x: minX, y: maxY)]
    }

    /// Whether the width or height is zero or negative.
    @inlinable
    public var isEmpty: Bool { size.isEmpty }

    /// Whether all four numbers are finite.
    @inlinable
    public var isFinite: Bool { origin.isFinite && size.width.isFinite && size.height.isFinite }

    /// The same rectangle with a non-negative width and height (the origin moves when an extent was negative).
    @inlinable
    public var standardized: Rect {
        Rect(x: Swift.min(minX, maxX), y: Swift.min(minY, maxY), width: abs(width), height: abs(height))
    }

    /// Whether the point lies inside or on the edge of the rectangle.
    @inlinable
    public func contains(_ point: Point) -> Bool {
        point.x >= minX && point.x <= maxX && point.y >= minY && point.y <= maxY
    }

    /// Whether `other` lies entirely inside this rectangle, allowing `tolerance` on every side.
    @inlinable
    public func contains(_ other: Rect, tolerance: Double = 0) -> Bool {
        other.minX >= minX - tolerance && other.minY >= minY - tolerance
            && other.maxX <= maxX + tolerance && other.maxY <= maxY + tolerance
    }

    /// The overlap of two rectangles, or `nil` when they do not overlap with a positive area.
    @inlinable
    public func intersection(_ other: Rect) -> Rect? {
        let x0 = Swift.max(minX, other.minX), y0 = Swift.max(minY, other.minY)
        let x1 = Swift.min(maxX, other.maxX), y1 = Swift.min(maxY, other.maxY)
        guard x1 > x0, y1 > y0 else { return nil }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The rectangle grown by `dx` on the left and right and `dy` on the top and bottom (negative values shrink it).
    @inlinable
    public func insetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: minX + dx, y: minY + dy, width: width - 2 * dx, height: height - 2 * dy)
    }

    /// The rectangle moved by `(dx, dy)`.
    @inlinable
    public func offsetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: minX + dx, y: minY + dy, width: width, height: height)
    }

    /// The smallest rectangle with integer coordinates that contains this one (rounds outwards).
    ///
    /// `tolerance` absorbs floating-point noise: an edge within `tolerance` of an integer snaps to it instead of
    /// taking a whole extra pixel.
    @inlinable
    public func integral(tolerance: Double = 1e-6) -> Rect {
        let x0 = (minX + tolerance).rounded(.down), y0 = (minY + tolerance).rounded(.down)
        let x1 = (maxX - tolerance).rounded(.up), y1 = (maxY - tolerance).rounded(.up)
        return Rect(x: x0, y: y0, width: Swift.max(0, x1 - x0), height: Swift.max(0, y1 - y0))
    }

    /// This rectangle, given in the pixels of a `from`-sized copy of a picture, in the pixels of its `to`-sized
    /// original: scaled by `to / from` on each axis, widened to whole pixels (the smallest integral rectangle that
    /// holds it) and clipped to the picture. `nil` when nothing of it is inside the picture.
    ///
    /// What an editor's preview rectangle covers of the source, so a render of it has every source pixel under it.
    public func wholePixels(scaledFrom from: PixelSize, to: PixelSize) -> Rect? {
        let sx = Double(to.width) / Double(from.width), sy = Double(to.height) / Double(from.height)
        let scaled = Rect(x: minX * sx, y: minY * sy, width: width * sx, height: height * sy).integral(tolerance: 1e-9)
        let left = Swift.max(0, scaled.minX), top = Swift.max(0, scaled.minY)
        let right = Swift.min(Double(to.width), scaled.maxX), bottom = Swift.min(Double(to.height), scaled.maxY)
        guard right > left, bottom > top else { return nil }
        return Rect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// Whether the two rectangles are within `tolerance` of each other in all four numbers.
    @inlinable
    public func isApproximatelyEqual(to other: Rect, tolerance: Double = 1e-9) -> Bool {
        origin.isApproximatelyEqual(to: other.origin, tolerance: tolerance)
            && size.isApproximatelyEqual(to: other.size, tolerance: tolerance)
    }

    public var description: String { "(\(minX), \(minY), \(width)×\(height))" }
}
