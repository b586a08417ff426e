import CropEngine
import CropGeometry
import CropInteraction

/// The JSON form of a ``CropEvent`` on the editor's WebSocket: an object with a `"type"` discriminator.
///
/// Coordinates are view coordinates (the same space as the viewport and the view state), y down.
///
/// | type | fields | meaning |
/// |---|---|---|
/// | `pointerDown` | `id`, `x`, `y`, `intent`? (`"auto"`/`"pan"`/`"draw"`/`"touch"`, default auto) | a pointer pressed |
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
/// | `resizeBy` | `handle` (`"topLeft"`, `"top"`, …), `dx`, `dy` (source pixels along the screen's axes) | arrow keys on a focused handle |
/// | `resetCrop` | — | crop back to the whole picture |
/// | `reset` | — | everything back to the untouched state |
/// | `undo` / `redo` | — | history |
/// | `viewport` | `width`, `height`, `insets`? (`{top,left,bottom,right}`) | the view was resized |
/// | `mode` | `mode` (`"crop"`/`"pan"`) | pointer mode |
///
/// Example: `{"type":"pointerDown","id":1,"x":120.5,"y":80}`.
package struct EventMessage: Codable, Hashable, Sendable {
    /// The event.
    package var event: CropEvent

    package init(_ event: CropEvent) {
        self.event = event
    }

    /// The JSON `"type"` of `event`.
    package static func type(of event: CropEvent) -> String {
        switch event {
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
        case .resizeBy: "resizeBy"
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
        case width, height, insets, mode, handle
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        let type = try c.decode(String.self, forKey: .type)
        func point() throws -> Point {
            Point(x: try c.decode(Double.self, forKey: .x), y: try c.decode(Double.self, forKey: .y))
        }
        switch type {
        case "pointerDown":
            event = .pointerDown(
                id: try c.decode(Int.self, forKey: .id), location: try point(),
                intent: try c.decodeIfPresent(PointerIntent.self, forKey: .intent) ?? .auto)
        case "pointerMove":
            event = .pointerMove(id: try c.decode(Int.self, forKey: .id), location: try point())
        case "pointerUp":
            event = .pointerUp(id: try c.decode(Int.self, forKey: .id), location: try point())
        case "pointerCancel":
            event = .pointerCancel(id: try c.decode(Int.self, forKey: .id))
        case "zoom":
            event = .zoom(factor: try c.decode(Double.self, forKey: .factor), anchor: try point())
        case "straighten":
            event = .straighten(
                angle: try c.decode(Double.self, forKey: .angle),
                isFinal: try c.decodeIfPresent(Bool.self, forKey: .final) ?? true)
        case "straightenBy":
            event = .straightenBy(delta: try c.decode(Double.self, forKey: .delta))
        case "rotate":
            event = .rotate(
                try c.decode(QuarterTurn.self, forKey: .direction),
                aspectPolicy: try c.decode(RotationAspectPolicy.self, forKey: .aspectPolicy))
        case "flip":
            event = .flip(try c.decode(FlipAxis.self, forKey: .axis))
        case "aspect":
            event = .aspect(try c.decode(AspectLock.self, forKey: .aspect))
        case "swapAspect":
            event = .swapAspect
        case "nudge":
            event = .nudge(dx: try c.decode(Double.self, forKey: .dx), dy: try c.decode(Double.self, forKey: .dy))
        case "resizeBy":
            event = .resizeBy(
                handle: try c.decode(CropHandle.self, forKey: .handle), dx: try c.decode(Double.self, forKey: .dx),
                dy: try c.decode(Double.self, forKey: .dy))
        case "resetCrop":
            event = .resetCrop
        case "reset":
            event = .reset
        case "undo":
            event = .undo
        case "redo":
            event = .redo
        case "viewport":
            event = .viewport(
                size: Size(
                    width: try c.decode(Double.self, forKey: .width),
                    height: try c.decode(Double.self, forKey: .height)),
                insets: try c.decodeIfPresent(EdgeInsets.self, forKey: .insets) ?? .zero)
        case "mode":
            event = .mode(try c.decode(InteractionMode.self, forKey: .mode))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: c, debugDescription: "unknown event type '\(type)'")
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(Self.type(of: event), forKey: .type)
        func point(_ p: Point) throws {
            try c.encode(p.x, forKey: .x)
            try c.encode(p.y, forKey: .y)
        }
        switch event {
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
        case .resizeBy(let handle, let dx, let dy):
            try c.encode(handle, forKey: .handle)
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
