import CropEngine
import CropGeometry

/// The editor's pointer mode.
public enum InteractionMode: String, CaseIterable, Hashable, Sendable {
    /// Presses act on the crop box (draw, move, resize).
    case crop
    /// Presses pan the picture under the fixed box.
    case pan
}
