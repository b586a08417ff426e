import CropGeometry

/// A quarter turn of the picture, as seen on screen.
public enum QuarterTurn: String, CaseIterable, Hashable, Sendable {
    /// A quarter turn clockwise.
    case clockwise
    /// A quarter turn counter-clockwise.
    case counterClockwise
}
