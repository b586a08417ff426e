// Input checks shared by every public entry point. Nothing in the geometry layer traps on user input: each public
// operation runs these first and throws ``GeometryError`` naming the offending value.

@inline(__always)
package func requireFinite(_ value: Double, _ name: String) throws(GeometryError) {
    guard value.isFinite else { throw .invalidValue(name: name, value: value, reason: "must be finite") }
}

@inline(__always)
package func requirePositive(_ value: Double, _ name: String) throws(GeometryError) {
    guard value.isFinite, value > 0 else {
        throw .invalidValue(name: name, value: value, reason: "must be finite and greater than zero")
    }
}

@inline(__always)
package func requireNonNegative(_ value: Double, _ name: String) throws(GeometryError) {
    guard value.isFinite, value >= 0 else {
        throw .invalidValue(name: name, value: value, reason: "must be finite and not negative")
    }
}

@inline(__always)
package func requireFinite(_ point: Point, _ name: String) throws(GeometryError) {
    try requireFinite(point.x, "\(name).x")
    try requireFinite(point.y, "\(name).y")
}

package func requirePositive(_ size: Size, _ name: String) throws(GeometryError) {
    guard size.width.isFinite, size.height.isFinite, size.width > 0, size.height > 0 else {
        throw .invalidSize("\(name) \(size): both extents must be finite and greater than zero")
    }
}

package func requireValid(_ rect: Rect, _ name: String) throws(GeometryError) {
    guard rect.isFinite, rect.width > 0, rect.height > 0 else {
        throw .invalidRect("\(name) \(rect): must be finite with a positive width and height")
    }
}

extension Double {
    /// `self` limited to `lower...upper` (`lower` wins when the range is empty).
    @inline(__always)
    package func clamped(_ lower: Double, _ upper: Double) -> Double {
        Swift.max(lower, Swift.min(upper, self))
    }
}
