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

/// The editor's pointer mode.
public enum InteractionMode: String, CaseIterable, Hashable, Sendable, Codable {
    /// Presses act on the crop box (draw, move, resize).
    case crop
    /// Presses pan the picture under the fixed box.
    case pan
}

/// One input to an ``EditorSession``: what a UI (the browser editor over a WebSocket, a native view) sends.
///
/// JSON: an object with a `"type"` discriminator. Coordinates are view coordinates (the same space as the
/// viewport and the ``EditorViewState``), y down.
///
/// | type | fields | meaning |
/// |---|---|---|
/// | `pointerDown` | `id`, `x`, `y`, `intent`? (`"auto"`/`"pan"`/`"draw"`, default auto) | a pointer pressed |
/// | `pointerMove` | `id`, `x`, `y` | it moved (coalesce freely: only the latest position matters) |
/// | `pointerUp` | `id`, `x`, `y` | it lifted |
/// | `pointerCancel` | `id` | the gesture is abandoned; its effect is undone |
/// | `zoom` | `factor` (> 1 zooms in), `x`, `y` (anchor) | wheel or trackpad pinch |
/// | `straighten` | `angle` (−45…45), `final`? (default true) | slider value; `final: false` while dragging |
/// | `straightenBy` | `delta` (degrees) | −/+ buttons and `[`/`]` keys |
/// | `rotate` | `direction` (`"clockwise"`/`"counterClockwise"`), `aspectPolicy` (`"followPicture"`/`"keepOutputRatio"`, required) | quarter turn |
/// | `flip` | `axis` (`"horizontal"`/`"vertical"`) | mirror |
/// | `aspect` | `aspect` (`"free"`/`"original"`/`"W:H"`) | aspect preset |
/// | `swapAspect` | — | W:H ↔ H:W |
/// | `nudge` | `dx`, `dy` (source pixels along the screen's axes) | arrow keys: move the crop over the picture |
/// | `resetCrop` | — | crop back to the whole picture |
/// | `reset` | — | everything back to the untouched state |
/// | `undo` / `redo` | — | history |
/// | `viewport` | `width`, `height`, `insets`? (`{top,left,bottom,right}`) | the view was resized |
/// | `mode` | `mode` (`"crop"`/`"pan"`) | pointer mode |
///
/// Example: `{"type":"pointerDown","id":1,"x":120.5,"y":80}`.
public enum EditorEvent: Hashable, Sendable, Codable {
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

    /// The JSON `"type"` of this event.
    public var type: String {
        switch self {
        case .pointerDown: "pointerDown"
        case .pointerMove: "pointerMove"
        case .pointerUp: "pointerUp"
        case .pointerCancel: "pointerCancel"
        case .zoom: "zoom"
        case .straighten: "straighten"
        case .straightenBy: "straightenBy"
        case .rotate: "rotate"
        case .flip: "flip"
        case .aspect: "aspect"
        case .swapAspect: "swapAspect"
        case .nudge: "nudge"
        case .resetCrop: "resetCrop"
        case .reset: "reset"
        case .undo: "undo"
        case .redo: "redo"
        case .viewport: "viewport"
        case .mode: "mode"
        }
    }

    private enum Key: String, CodingKey {
        case type, id, x, y, intent, factor, angle, final, delta, direction, aspectPolicy, axis, aspect, dx, dy
        case width, height, insets, mode
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        let type = try c.decode(String.self, forKey: .type)
        func point() throws -> Point {
            Point(x: try c.decode(Double.self, forKey: .x), y: try c.decode(Double.self, forKey: .y))
        }
        switch type {
        case "pointerDown":
            self = .pointerDown(
                id: try c.decode(Int.self, forKey: .id), location: try point(),
                intent: try c.decodeIfPresent(PointerIntent.self, forKey: .intent) ?? .auto)
        case "pointerMove":
            self = .pointerMove(id: try c.decode(Int.self, forKey: .id), location: try point())
        case "pointerUp":
            self = .pointerUp(id: try c.decode(Int.self, forKey: .id), location: try point())
        case "pointerCancel":
            self = .pointerCancel(id: try c.decode(Int.self, forKey: .id))
        case "zoom":
            self = .zoom(factor: try c.decode(Double.self, forKey: .factor), anchor: try point())
        case "straighten":
            self = .straighten(
                angle: try c.decode(Double.self, forKey: .angle),
                isFinal: try c.decodeIfPresent(Bool.self, forKey: .final) ?? true)
        case "straightenBy":
            self = .straightenBy(delta: try c.decode(Double.self, forKey: .delta))
        case "rotate":
            self = .rotate(
                try c.decode(QuarterTurn.self, forKey: .direction),
                aspectPolicy: try c.decode(RotationAspectPolicy.self, forKey: .aspectPolicy))
        case "flip":
            self = .flip(try c.decode(FlipAxis.self, forKey: .axis))
        case "aspect":
            self = .aspect(try c.decode(AspectLock.self, forKey: .aspect))
        case "swapAspect":
            self = .swapAspect
        case "nudge":
            self = .nudge(dx: try c.decode(Double.self, forKey: .dx), dy: try c.decode(Double.self, forKey: .dy))
        case "resetCrop":
            self = .resetCrop
        case "reset":
            self = .reset
        case "undo":
            self = .undo
        case "redo":
            self = .redo
        case "viewport":
            self = .viewport(
                size: Size(width: try c.decode(Double.self, forKey: .width),
                           height: try c.decode(Double.self, forKey: .height)),
                insets: try c.decodeIfPresent(EdgeInsets.self, forKey: .insets) ?? .zero)
        case "mode":
            self = .mode(try c.decode(InteractionMode.self, forKey: .mode))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: c, debugDescription: "unknown event type '\(type)'")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(type, forKey: .type)
        func point(_ p: Point) throws {
            try c.encode(p.x, forKey: .x)
            try c.encode(p.y, forKey: .y)
        }
        switch self {
        case .pointerDown(let id, let location, let intent):
            try c.encode(id, forKey: .id)
            try point(location)
            try c.encode(intent, forKey: .intent)
        case .pointerMove(let id, let location), .pointerUp(let id, let location):
            try c.encode(id, forKey: .id)
            try point(location)
        case .pointerCancel(let id):
            try c.encode(id, forKey: .id)
        case .zoom(let factor, let anchor):
            try c.encode(factor, forKey: .factor)
            try point(anchor)
        case .straighten(let angle, let isFinal):
            try c.encode(angle, forKey: .angle)
            try c.encode(isFinal, forKey: .final)
        case .straightenBy(let delta):
            try c.encode(delta, forKey: .delta)
        case .rotate(let direction, let policy):
            try c.encode(direction, forKey: .direction)
            try c.encode(policy, forKey: .aspectPolicy)
        case .flip(let axis):
            try c.encode(axis, forKey: .axis)
        case .aspect(let lock):
            try c.encode(lock, forKey: .aspect)
        case .nudge(let dx, let dy):
            try c.encode(dx, forKey: .dx)
            try c.encode(dy, forKey: .dy)
        case .viewport(let size, let insets):
            try c.encode(size.width, forKey: .width)
            try c.encode(size.height, forKey: .height)
            try c.encode(insets, forKey: .insets)
        case .mode(let mode):
            try c.encode(mode, forKey: .mode)
        case .swapAspect, .resetCrop, .reset, .undo, .redo:
            break
        }
    }
}
