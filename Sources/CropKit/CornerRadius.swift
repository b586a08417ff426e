/// A corner radius for ``ImageOperation/roundCorners(_:border:)``.
public enum CornerRadius: Hashable, Sendable {
    /// Quarter circles of this many pixels (clamped to half the shorter side).
    case pixels(Double)
    /// The largest centred square, cut as a circle.
    case circle
}
