import CropEngine
import CropGeometry

/// What a pointer press means beyond the default hit-testing.
public enum PointerIntent: String, CaseIterable, Hashable, Sendable {
    /// Decide from where the press lands: a handle resizes, inside the box moves it, outside draws a new box (or,
    /// as a tap, resets the crop). In ``InteractionMode/pan`` every press pans.
    case auto
    /// Pan the picture under the fixed box (for a modifier key such as Space or Alt held, or a middle button).
    case pan
    /// Draw a new box even inside the current one (for a modifier such as Shift).
    case draw
    /// Decide as ``auto`` does, for a finger: a handle grabs within ``CropSession/fingerReach`` (a 44-point square
    /// around each corner, inside and outside the box), a tap outside the box leaves the crop alone, and a press
    /// outside draws a new box only once it has moved ``CropSession/fingerDrawSlop``, so a stray tap or a short
    /// near-miss never replaces the crop.
    case touch
}
