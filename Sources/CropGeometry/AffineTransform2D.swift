/// An affine transform of the plane, stored as Core Graphics stores `CGAffineTransform`.
///
/// A point `(x, y)` maps to
/// ```
/// x' = a·x + c·y + tx
/// y' = b·x + d·y + ty
/// ```
/// The six numbers have the same names and meaning as `CGAffineTransform`'s, so on Apple platforms
/// `CGAffineTransform(a: t.a, b: t.b, c: t.c, d: t.d, tx: t.tx, ty: t.ty)` is the whole adapter.
/// (It is not called `AffineTransform` to stay clear of Foundation's type of that name.)
///
/// Composition follows Core Graphics too: `t1.concatenating(t2)` applies `t1` first, then `t2`.
public struct AffineTransform2D: Hashable, Sendable, CustomStringConvertible {
    /// x scale (the x coefficient of x').
    public var a: Double
    /// The x coefficient of y'.
    public var b: Double
    /// The y coefficient of x'.
    public var c: Double
    /// y scale (the y coefficient of y').
    public var d: Double
    /// x translation.
    public var tx: Double
    /// y translation.
    public var ty: Double

    /// Creates a transform from its six coefficients (Core Graphics order).
    @inlinable
    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.tx = tx
        self.ty = ty
    }

    /// The transform that leaves every point where it is.
    public static let identity = AffineTransform2D(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// A translation by `(tx, ty)`.
    @inlinable
    public static func translation(x tx: Double, y ty: Double) -> AffineTransform2D {
        AffineTransform2D(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty)
    }

    /// A scale about the origin.
    @inlinable
    public static func scale(x sx: Double, y sy: Double) -> AffineTransform2D {
        AffineTransform2D(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
    }

    /// A rotation about the origin by `angle` radians, in the mathematical sense of the matrix
    /// `[cos −sin; sin cos]`.
    ///
    /// In CropKit's y-down coordinates a positive angle therefore turns *clockwise on screen*. Use
    /// ``rotation(counterClockwiseOnScreen:)`` when you mean what a viewer sees.
    public static func rotation(_ angle: Double) -> AffineTransform2D {
        let (s, c) = (EngineMath.sin(angle), EngineMath.cos(angle))
        return AffineTransform2D(a: c, b: s, c: -s, d: c, tx: 0, ty: 0)
    }

    /// A rotation about the origin that turns the picture counter-clockwise *as seen on screen* (y grows down).
    public static func rotation(counterClockwiseOnScreen angle: Double) -> AffineTransform2D {
        rotation(-angle)
    }

    /// `self` followed by `other`.
    @inlinable
    public func concatenating(_ other: AffineTransform2D) -> AffineTransform2D {
        AffineTransform2D(
            a: a * other.a + b * other.c,
            b: a * other.b + b * other.d,
            c: c * other.a + d * other.c,
            d: c * other.b + d * other.d,
            tx: tx * other.a + ty * other.c + other.tx,
            ty: tx * other.b + ty * other.d + other.ty)
    }

    /// `self` followed by a translation.
    @inlinable
    public func translatedBy(x: Double, y: Double) -> AffineTransform2D {
        concatenating(.translation(x: x, y: y))
    }

    /// `self` followed by a scale about the origin.
    @inlinable
    public func scaledBy(x: Double, y: Double) -> AffineTransform2D {
        concatenating(.scale(x: x, y: y))
    }

    /// `self` followed by a rotation about the origin (see ``rotation(_:)`` for the sign).
    @inlinable
    public func rotated(by angle: Double) -> AffineTransform2D {
        concatenating(.rotation(angle))
    }

    /// `a·d − b·c`; zero for a transform that collapses the plane.
    @inlinable
    public var determinant: Double { a * d - b * c }

    /// Whether the transform can be inverted (a finite, non-zero determinant).
    @inlinable
    public var isInvertible: Bool {
        let det = determinant
        return det.isFinite && det != 0
    }

    /// The inverse transform, or `nil` when the transform is not invertible.
    @inlinable
    public func inverted() -> AffineTransform2D? {
        let det = determinant
        guard det.isFinite, det != 0 else { return nil }
        let ia = d / det, ib = -b / det, ic = -c / det, id = a / det
        return AffineTransform2D(
            a: ia, b: ib, c: ic, d: id,
            tx: -(tx * ia + ty * ic),
            ty: -(tx * ib + ty * id))
    }

    /// Whether this is exactly the identity.
    @inlinable
    public var isIdentity: Bool { self == .identity }

    /// Whether all six coefficients are finite.
    @inlinable
    public var isFinite: Bool {
        a.isFinite && b.isFinite && c.isFinite && d.isFinite && tx.isFinite && ty.isFinite
    }

    /// Applies the transform to a point.
    @inlinable
    public func apply(to p: Point) -> Point {
        Point(x: a * p.x + c * p.y + tx, y: b * p.x + d * p.y + ty)
    }

    /// Applies only the linear part (no translation), as for a direction vector.
    @inlinable
    public func applyLinear(to v: Point) -> Point {
        Point(x: a * v.x + c * v.y, y: b * v.x + d * v.y)
    }

    /// The bounding box of the transformed rectangle. Exact for transforms that map axis-aligned rectangles to
    /// axis-aligned rectangles (scales, translations, quarter turns, flips).
    public func apply(to rect: Rect) -> Rect {
        Rect(bounding: rect.corners.map(apply(to:)))!
    }

    /// Whether the two transforms are within `tolerance` of each other in all six coefficients.
    @inlinable
    public func isApproximatelyEqual(to other: AffineTransform2D, tolerance: Double = 1e-9) -> Bool {
        abs(a - other.a) <= tolerance && abs(b - other.b) <= tolerance && abs(c - other.c) <= tolerance
            && abs(d - other.d) <= tolerance && abs(tx - other.tx) <= tolerance && abs(ty - other.ty) <= tolerance
    }

    public var description: String { "[a: \(a), b: \(b), c: \(c), d: \(d), tx: \(tx), ty: \(ty)]" }
}
