import CropEngine
import CropGeometry

/// One input to a ``CropSession``: what a UI (the browser editor over a WebSocket, a native view) sends.
///
/// Coordinates are view coordinates (the same space as the viewport and the ``CropViewState``), y down. How a UI
/// carries events is its own business: the browser editor's JSON form lives with its server (`CropEditor`).
public enum CropEvent: Hashable, Sendable {
    /// A pointer (mouse button, finger, pen) pressed at `location` in view coordinates.
    case pointerDown(id: Int, location: Point, intent: PointerIntent)
    /// A pressed pointer moved to `location`.
    case pointerMove(id: Int, location: Point)
    /// A pointer was released at `location`; ends its gesture.
    case pointerUp(id: Int, location: Point)
    /// A pointer gesture was interrupted; the gesture is undone.
    case pointerCancel(id: Int)
    /// Zoom the picture under the box by `factor` (> 1 zooms in) about `anchor` (wheel, trackpad pinch).
    case zoom(factor: Double, anchor: Point)
    /// Set the straighten angle in degrees (−45…45); `isFinal` is false while a slider is still moving.
    case straighten(angle: Double, isFinal: Bool)
    /// Change the straighten angle by `delta` degrees.
    case straightenBy(delta: Double)
    /// Turn the picture a quarter turn; `aspectPolicy` says what happens to a W:H lock.
    case rotate(QuarterTurn, aspectPolicy: RotationAspectPolicy)
    /// Mirror the picture.
    case flip(FlipAxis)
    /// Set the aspect lock: the largest crop of that ratio centred on the current one.
    case aspect(AspectLock)
    /// Exchange the W:H lock's terms (3:2 ↔ 2:3).
    case swapAspect
    /// Move the crop by source pixels along the screen's axes (arrow keys).
    case nudge(dx: Double, dy: Double)
    /// Move one handle of the box by source pixels along the screen's axes (arrow keys on a focused handle): the
    /// opposite corner or edge stays put; the aspect lock, minimum size and picture apply, as in a handle drag.
    /// With an aspect lock, a corner's step along one axis moves it along the lock's diagonal, so that every arrow
    /// key changes the size.
    case resizeBy(handle: CropHandle, dx: Double, dy: Double)
    /// The crop back to the whole picture; angle, turns, flips and lock are kept.
    case resetCrop
    /// Everything back to the untouched state.
    case reset
    /// Undo the last gesture or discrete change.
    case undo
    /// Redo what was undone.
    case redo
    /// The view was resized (or first laid out).
    case viewport(size: Size, insets: EdgeInsets)
    /// Switch what a drag inside the box does (crop or pan).
    case mode(InteractionMode)
}
