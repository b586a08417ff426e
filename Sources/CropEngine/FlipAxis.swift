import CropGeometry

/// A mirror of the picture, as seen on screen.
public enum FlipAxis: String, CaseIterable, Hashable, Sendable {
    /// Left–right.
    case horizontal
    /// Top–bottom.
    case vertical
}
