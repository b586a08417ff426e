/// A width and a height in a continuous coordinate space.
///
/// `Size` itself accepts any values, so that it can carry intermediate results; APIs that need a valid extent
/// (finite, non-negative) check it and throw ``GeometryError``.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    /// The horizontal extent.
    public var width: Double
    /// The vertical extent.
    public var height: Double

    /// Creates a size.
    @inlinable
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// Creates a size from integer pixel dimensions.
    @inlinable
    public init(width: Int, height: Int) {
        self.width = Double(width)
        self.height = Double(height)
    }

    /// The empty size.
    public static let zero = Size(width: 0.0, height: 0.0)

    /// The same size with width and height exchanged.
    @inlinable
    public var transposed: Size { Size(width: height, height: width) }

    /// `width / height`; infinite or NaN when the height is zero.
    @inlinable
    public var aspectRatio: Double { width / height }

    /// `width × height`.
    @inlinable
    public var area: Double { width * height }

    /// Whether both extents are finite and non-negative.
    @inlinable
    public var isValidExtent: Bool { width.isFinite && height.isFinite && width >= 0 && height >= 0 }

    /// Whether either extent is zero (or negative).
    @inlinable
    public var isEmpty: Bool { !(width > 0 && height > 0) }

    /// Scales both extents.
    @inlinable
    public static func * (lhs: Size, rhs: Double) -> Size { Size(width: lhs.width * rhs, height: lhs.height * rhs) }

    /// Whether the two sizes are within `tolerance` of each other on both axes.
    @inlinable
    public func isApproximatelyEqual(to other: Size, tolerance: Double = 1e-9) -> Bool {
        abs(width - other.width) <= tolerance && abs(height - other.height) <= tolerance
    }

    public var description: String { "\(width)×\(height)" }
}
