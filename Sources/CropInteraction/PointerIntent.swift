import CropEngine
import CropGeometry

/// What a pointer press means beyond the default hit-testing.
public enum PointerIntent: String, CaseIterable, Hashable, Sendable, Codable {
    /// Decide from where the press lands: a handle resizes, inside the box moves it, outside draws a new box (or,
    /// as a tap, resets the crop). In ``InteractionMode/pan`` every press pans.
    case auto
    /// Pan the picture under the fixed box (for a modifier key such as Space or Alt held, or a middle button).
    case pan
    /// Draw a new box even inside the current one (for a modifier such as Shift).
    case draw
}
