import CropInteraction
import CropKit
import Foundation
import Hummingbird
import HummingbirdWebSocket

/// The editor's WebSocket protocol at `/api/session`.
///
/// 1. The page connects to `/api/session`, or to `/api/session?id=ID` with the id it was given before (a reload).
/// 2. The server answers `{"type": "hello", "session": ID, "restored": Bool, "image": {…}, "constraints": {…}}`;
///    `restored` is true when the session's last state comes back (from its recipe); `constraints` are the host's
///    (``CropConstraints``); `hostPages`, present only when some page may embed the editor, lists the origins the
///    page posts its messages to (``HostPageOrigins``); `"uploads": false`, present only then, says the page cannot
///    open other pictures (``EditorServer/Configuration/acceptsUploads``); `tuning` carries the session's tunables
///    (`CropSession.Configuration` with `fingerReach` and `fingerDrawSlop`), which the page's local model uses to
///    draw a gesture before its answer arrives.
/// 3. The page sends events as JSON objects (`EventMessage`), the first one a `viewport`. For **each** event the server
///    answers exactly one message: `{"type": "state", "state": …}` (`ViewStateMessage`) or
///    `{"type": "error", "message": …}` (the state is then unchanged). A page keeps at most one event in flight and
///    coalesces pointer moves while it waits.
/// 4. Besides the engine's events, `{"type": "autoStraighten"}` asks the server to measure the picture's tilt
///    (`ImagePipeline.estimateStraighten`) and set the straighten angle to it: the answer is the state with a
///    `"notice"` saying by how much and how sure, or an error (nothing changed) when the measure is not confident.
///    `{"type": "propose", "measure": "attention"}` (or `"entropy"`) moves the crop onto the one CropKit proposes at
///    the crop's aspect (`ImagePipeline.proposeCrop`, placed by `CropSession.setCrop(orientedRect:)`),
///    answered with the state and a notice, as one undo step.
///
/// 5. `{"type": "flush"}` saves the session's crop beside its photo now (a page sends it before it leaves or hides,
///    and before it goes to another photo) and is answered with the state. Edits are saved anyway within a second of
///    the last one, and `POST /api/sessions/ID/flush` does the same for a page that can only send a beacon.
/// 6. Resynchronising: each event may carry `"seq"` (increasing within one page load) and the connection URL a
///    `page` token naming that page load. Every answer to an event with a `seq` repeats it (`"seq"`), and the hello of
///    a page reconnecting to its session (same `id`, same `page`) carries `"applied"`: the last `seq` the session
///    applied, so the page resends only the events after it. The session is the truth; the page's drawing is not.
///
/// Messages are text frames of at most ``EditorServer/Configuration/maximumEventBytes`` bytes.
public enum EditorProtocol {
    /// A message from the server.
    public enum ServerMessage: Encodable, Sendable {
        /// The session the connection edits.
        case hello(
            session: String, restored: Bool, image: ImageDescription, constraints: CropConstraints = .none,
            hostPages: HostPageOrigins = .none, acceptsUploads: Bool = true, applied: Int = 0,
            tuning: CropSession.Configuration? = nil)
        /// The view state after an event (`sequence`: the event's `seq`), with a line for the person when the server
        /// decided something itself.
        case state(CropViewState, notice: String? = nil, sequence: Int? = nil)
        /// An event (`sequence`: its `seq`) was refused; nothing changed.
        case error(message: String, sequence: Int? = nil)

        private enum Key: String, CodingKey {
            case type, session, restored, image, message, constraints, hostPages, uploads, applied
            case tuning
            case sequence = "seq"
        }

        /// The session's tunables and the engine's finger constants: what the page's local model needs to predict
        /// a gesture as the session will apply it.
        private struct Tuning: Encodable {
            var configuration: CropSession.Configuration
            private enum Key: String, CodingKey { case fingerReach, fingerDrawSlop }
            func encode(to encoder: any Encoder) throws {
                try configuration.encode(to: encoder)
                var c = encoder.container(keyedBy: Key.self)
                try c.encode(CropSession.fingerReach, forKey: .fingerReach)
                try c.encode(CropSession.fingerDrawSlop, forKey: .fingerDrawSlop)
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            switch self {
            case .hello(
                let session, let restored, let image, let constraints, let hostPages, let acceptsUploads,
                let applied, let tuning):
                try c.encode("hello", forKey: .type)
                try c.encode(session, forKey: .session)
                try c.encode(restored, forKey: .restored)
                try c.encode(image, forKey: .image)
                try c.encode(constraints, forKey: .constraints)
                if !hostPages.isEmpty { try c.encode(hostPages, forKey: .hostPages) }
                if !acceptsUploads { try c.encode(false, forKey: .uploads) }
                if applied > 0 { try c.encode(applied, forKey: .applied) }
                try c.encodeIfPresent(tuning.map(Tuning.init), forKey: .tuning)
            case .state(let state, let notice, let sequence):
                try StateReplyMessage(state: state, notice: notice, sequence: sequence).encode(to: encoder)
            case .error(let message, let sequence):
                try c.encode("error", forKey: .type)
                try c.encode(message, forKey: .message)
                try c.encodeIfPresent(sequence, forKey: .sequence)
            }
        }

        /// The message as JSON text.
        public var text: String { EditorProtocol.text(of: self) }
    }

    /// A server message as JSON text, keys sorted. The values are plain numbers, strings and booleans: encoding
    /// cannot fail.
    static func text(of message: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(message)).map { String(decoding: $0, as: UTF8.self) }
            ?? #"{"type":"error","message":"the server could not encode its answer"}"#
    }

    /// A readable explanation of why an event could not be decoded or applied.
    static func explain(_ error: any Error) -> String {
        switch error {
        case let e as EditorError: return e.description
        case let e as GeometryError: return e.description
        case DecodingError.keyNotFound(let key, _): return "invalid event: missing field '\(key.stringValue)'"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return "invalid event: field '\(path)' has the wrong type"
        case DecodingError.dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return "invalid event: \(path.isEmpty ? "" : "'\(path)': ")\(context.debugDescription)"
        default: return "invalid event: \(error)"
        }
    }
}
