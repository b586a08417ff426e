/// Distances inset from each edge of a rectangle, as UIKit's `UIEdgeInsets` (all in the same units as the rectangle).
public struct EdgeInsets: Hashable, Sendable, CustomStringConvertible {
    /// Distance from the top edge.
    public var top: Double
    /// Distance from the left edge.
    public var left: Double
    /// Distance from the bottom edge.
    public var bottom: Double
    /// Distance from the right edge.
    public var right: Double

    /// Creates insets from the four distances.
    @inlinable
    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// The same distance on every side.
    @inlinable
    public init(all inset: Double) {
        self.init(top: inset, left: inset, bottom: inset, right: inset)
    }

    /// No inset.
    public static let zero = EdgeInsets()

    /// Whether all four distances are finite and not negative.
    @inlinable
    public var isValid: Bool {
        [top, left, bottom, right].allSatisfy { $0.isFinite && $0 >= 0 }
    }

    /// `rect` shrunk by the insets (the result may be empty).
    @inlinable
    public func inset(_ rect: Rect) -> Rect {
        Rect(
            x: rect.minX + left, y: rect.minY + top,
            width: rect.width - left - right, height: rect.height - top - bottom)
    }

    public var description: String { "(top: \(top), left: \(left), bottom: \(bottom), right: \(right))" }
}
