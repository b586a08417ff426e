import CropEngine
import CropGeometry

/// The gesture a ``CropSession`` is in the middle of. JSON: its name.
public enum CropGesture: String, CaseIterable, Hashable, Sendable {
    /// No gesture: the view is at rest.
    case none
    /// A press outside the box that has not moved past the tap slop yet.
    case pressing
    /// Drawing a new box (the view is frozen until the pointer lifts).
    case drawing
    /// Moving the box (view frozen).
    case moving
    /// Resizing the box by a handle (view frozen).
    case resizing
    /// Panning the picture under the fixed box.
    case panning
    /// Two-pointer pinch: zoom about the midpoint and pan.
    case pinching
    /// Slider drag or straighten steps (one undo step).
    case straightening
    /// Wheel zoom steps (one undo step).
    case zooming
    /// Arrow-key nudges (one undo step).
    case nudging
    /// Arrow-key steps of one handle (one undo step per handle).
    case keyResizing
}
