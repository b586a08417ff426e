import CropEngine
import CropGeometry
import CropInteraction
import Foundation

/// How the server made a connection's session: what a page needs to run the very same session in its own copy of
/// the engine (the WebAssembly module, `web/cropkit-engine.js`), sent once, with the state that answers the
/// connection's first `viewport`.
///
/// ```json
/// {"width": 4032, "height": 3024, "orientation": 6, "minimumCropSize": 1,
///  "configuration": {"touchRadius": 24, …, "previewSize": {"width": 1600, "height": 1200}},
///  "recipe": { …see Recipe… }}
/// ```
///
/// `width`, `height`: the stored picture's pixels; `orientation`: its EXIF orientation; `recipe`: the recipe the
/// session started from (absent: the untouched picture). With the connection's first viewport these make the page's
/// session equal to the server's, number for number.
struct SessionStartMessage: Encodable, Hashable, Sendable {
    var storedSize: PixelSize
    var orientation: Orientation
    var minimumCropSize: Double
    var configuration: CropSession.Configuration
    var recipe: Recipe?

    private enum Key: String, CodingKey { case width, height, orientation, minimumCropSize, configuration, recipe }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(storedSize.width, forKey: .width)
        try c.encode(storedSize.height, forKey: .height)
        try c.encode(orientation.rawValue, forKey: .orientation)
        try c.encode(minimumCropSize, forKey: .minimumCropSize)
        try c.encode(configuration, forKey: .configuration)
        try c.encodeIfPresent(recipe, forKey: .recipe)
    }
}

/// A change the server decided itself (Auto straighten, Suggest) as the engine call a page replays on its own
/// session: `{"type": "straighten", "angle": 3.2, "final": true}` or `{"type": "setCrop", "x", "y", "width",
/// "height"}` (a rectangle of the oriented picture, `CropSession.setCrop(orientedRect:)`).
enum AppliedChangeMessage: Encodable, Hashable, Sendable {
    case straighten(Double)
    case setCrop(Rect)

    private enum Key: String, CodingKey { case type, angle, final, x, y, width, height }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        switch self {
        case .straighten(let angle):
            try c.encode("straighten", forKey: .type)
            try c.encode(angle, forKey: .angle)
            try c.encode(true, forKey: .final)
        case .setCrop(let r):
            try c.encode("setCrop", forKey: .type)
            try c.encode(r.minX, forKey: .x)
            try c.encode(r.minY, forKey: .y)
            try c.encode(r.width, forKey: .width)
            try c.encode(r.height, forKey: .height)
        }
    }
}

/// The server's answer to an event or a batch of them: `{"type": "state", "state": …, "seq": N, "notice": …}` as
/// ``EditorProtocol/ServerMessage/state(_:notice:sequence:)`` writes it, with `start` on a connection's first state
/// and `decided` when the server decided the change itself (Auto, Suggest).
struct StateReplyMessage: Encodable {
    var state: CropViewState
    var notice: String?
    var sequence: Int?
    var start: SessionStartMessage?
    var applied: AppliedChangeMessage?

    private enum Key: String, CodingKey {
        case type, state, notice, start
        case applied = "decided"
        case sequence = "seq"
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode("state", forKey: .type)
        try c.encode(ViewStateMessage(state), forKey: .state)
        try c.encodeIfPresent(notice, forKey: .notice)
        try c.encodeIfPresent(sequence, forKey: .sequence)
        try c.encodeIfPresent(start, forKey: .start)
        try c.encodeIfPresent(applied, forKey: .applied)
    }

    /// The message as JSON text (keys sorted, as every server message).
    var text: String { EditorProtocol.text(of: self) }
}
