import CropGeometry

/// What a quarter turn does to a W:H aspect lock. There is deliberately no default: the caller decides, so a turn
/// never changes an output ratio behind the user's back.
public enum RotationAspectPolicy: String, CaseIterable, Hashable, Sendable {
    /// The same region of the picture stays selected and turns with it, so the output turns too: a 2:3 lock becomes
    /// 3:2 (`.original` stays `.original`, which is the turned picture's ratio). Turning back restores the crop
    /// exactly.
    case followPicture
    /// The output keeps its ratio: a 2:3 lock stays 2:3 (`.original` becomes the explicit pre-turn ratio). The crop
    /// becomes the 2:3 crop with the *same area* as the turned region, on the same content point, then shrunk by the
    /// minimal zoom if it does not fit. Same area (rather than "the largest that fits") keeps the user's zoom, and
    /// makes turning back restore the crop (within rounding, about 1e-9 px). A free crop simply turns.
    case keepOutputRatio
}
