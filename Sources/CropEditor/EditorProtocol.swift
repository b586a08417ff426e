import CropKit
import Foundation
import Hummingbird
import HummingbirdWebSocket

/// The editor's WebSocket protocol at `/api/session`.
///
/// 1. The page connects to `/api/session`, or to `/api/session?id=ID` with the id it was given before (a reload).
/// 2. The server answers `{"type": "hello", "session": ID, "restored": Bool, "image": {…}}`; `restored` is true when
///    the session's last state comes back (from its recipe).
/// 3. The page sends ``EditorEvent`` JSON objects, the first one a `viewport`. For **each** event the server
///    answers exactly one message: `{"type": "state", "state": EditorViewState}` or
///    `{"type": "error", "message": …}` (the state is then unchanged). A page keeps at most one event in flight and
///    coalesces pointer moves while it waits.
///
/// Messages are text frames of at most ``EditorConfiguration/maximumEventBytes`` bytes.
public enum EditorProtocol {
    /// A message from the server.
    public enum ServerMessage: Encodable, Sendable {
        /// The session the connection edits.
        case hello(session: String, restored: Bool, image: ImageDescription)
        /// The view state after an event.
        case state(EditorViewState)
        /// An event was refused; nothing changed.
        case error(message: String)

        private enum Key: String, CodingKey { case type, session, restored, image, state, message }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            switch self {
            case .hello(let session, let restored, let image):
                try c.encode("hello", forKey: .type)
                try c.encode(session, forKey: .session)
                try c.encode(restored, forKey: .restored)
                try c.encode(image, forKey: .image)
            case .state(let state):
                try c.encode("state", forKey: .type)
                try c.encode(state, forKey: .state)
            case .error(let message):
                try c.encode("error", forKey: .type)
                try c.encode(message, forKey: .message)
            }
        }

        /// The message as JSON text.
        public var text: String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            // The values are plain numbers, strings and booleans: encoding cannot fail.
            return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) }
                ?? #"{"type":"error","message":"the server could not encode its answer"}"#
        }
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

extension EditorServer {
    /// The WebSocket router: `/api/session` only.
    public func makeWebSocketRouter() -> Router<BasicWebSocketRequestContext> {
        let router = Router(context: BasicWebSocketRequestContext.self)
        let host = configuration.host
        router.ws("/api/session") { request, _ in
            // A browser always sends Origin: only a page served under the editor's own host name may connect
            // (browsers send WebSockets across sites; a page elsewhere must not drive or read a session).
            if let origin = request.headers[.origin], let authority = request.head.authority {
                let originAuthority = origin.components(separatedBy: "://").last ?? origin
                guard hostName(originAuthority).lowercased() == hostName(authority).lowercased() else {
                    return .dontUpgrade
                }
            }
            if isLoopback(host), let authority = request.head.authority,
                !isLoopback(hostName(authority))
            {
                return .dontUpgrade
            }
            return .upgrade()
        } onUpgrade: { inbound, outbound, context in
            let requested = context.request.uri.queryParameters["id"].map(String.init)
            let (id, recipe) = await sessions.connect(id: requested)
            do {
                try await outbound.write(.text(EditorProtocol.ServerMessage.hello(
                    session: id, restored: recipe != nil, image: ImageDescription(image)).text))
                try await converse(session: id, restoring: recipe, inbound: inbound, outbound: outbound)
            } catch {
                await sessions.disconnect(id: id)
                throw error
            }
            await sessions.disconnect(id: id)
        }
        return router
    }

    /// Answers each event of one connection with the engine's state or an error. The connection's
    /// ``EditorSession`` is created by its first `viewport` event (from `recipe` when restoring).
    private func converse(session id: String, restoring recipe: Recipe?, inbound: WebSocketInboundStream,
                          outbound: WebSocketOutboundWriter) async throws
    {
        var session: EditorSession?
        let decoder = JSONDecoder()
        for try await message in inbound.messages(maxSize: configuration.maximumEventBytes) {
            let reply: EditorProtocol.ServerMessage
            do {
                guard case .text(let text) = message else {
                    throw EditorError.invalidParameter(name: "message", reason: "events are JSON text frames")
                }
                let event = try decoder.decode(EditorEvent.self, from: Data(text.utf8))
                guard await sessions.contains(session: id) else { throw EditorError.unknownSession(id) }
                let state: EditorViewState
                if var live = session {
                    state = try live.handle(event)
                    session = live
                } else if case .viewport(let size, let insets) = event {
                    let live = try await sessions.makeSession(recipe: recipe, viewportSize: size, insets: insets)
                    state = live.viewState
                    session = live
                } else {
                    throw EditorError.invalidParameter(
                        name: "event",
                        reason: "the first event of a connection must be 'viewport', not '\(event.type)'")
                }
                await sessions.update(id: id, recipe: state.recipe)
                reply = .state(state)
            } catch {
                reply = .error(message: EditorProtocol.explain(error))
            }
            try await outbound.write(.text(reply.text))
        }
    }
}
