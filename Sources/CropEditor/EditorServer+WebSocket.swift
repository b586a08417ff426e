import CropInteraction
import CropKit
import Foundation
import Hummingbird
import HummingbirdWebSocket
import ServiceLifecycle

extension EditorServer {
    /// The WebSocket router: `/api/session?image=…&id=…` only.
    public func makeWebSocketRouter() -> Router<BasicWebSocketRequestContext> {
        let router = Router(context: BasicWebSocketRequestContext.self)
        router.ws("/api/session") { request, _ in
            acceptsWebSocket(request) ? .upgrade() : .dontUpgrade
        } onUpgrade: { inbound, outbound, context in
            try await converse(request: context.request, inbound: inbound, outbound: outbound)
        }
        return router
    }

    /// Whether a WebSocket upgrade `request` may connect: a browser always sends Origin, and only a page served
    /// under the editor's own host name may connect (browsers send WebSockets across sites; a page elsewhere must
    /// not drive or read a session); on loopback, only to a loopback host name.
    ///
    /// - Parameter request: the upgrade request.
    public func acceptsWebSocket(_ request: Request) -> Bool {
        if let origin = request.headers[.origin], let authority = request.head.authority {
            let originAuthority = origin.components(separatedBy: "://").last ?? origin
            guard hostName(originAuthority).lowercased() == hostName(authority).lowercased() else { return false }
        }
        if isLoopback(configuration.host), let authority = request.head.authority, !isLoopback(hostName(authority)) {
            return false
        }
        return true
    }

    /// Runs the editor protocol (``EditorProtocol``) on one upgraded connection.
    ///
    /// On a graceful shutdown (SIGTERM) the server closes the connection ("going away") after saving its pending
    /// edit, so `cropkit edit` stops with pages open; the page reconnects if the server comes back.
    ///
    /// - Parameters:
    ///   - request: the upgrade request, whose query names the picture (`image`), the session to resume (`id`) and
    ///     the page load (`page`).
    ///   - inbound: the connection's messages from the page.
    ///   - outbound: where the answers go.
    public func converse(request: Request, inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter)
        async throws
    {
        let query = request.uri.queryParameters
        let requested = query["id"].map(String.init)
        let page = query["page"].map(String.init)
        let imageID = query["image"].map(String.init) ?? library.firstID
        let image: EditedImage
        do { image = try await library.image(imageID) } catch {
            // Said once, then the connection closes: the page shows why.
            try await outbound.write(
                .text(EditorProtocol.ServerMessage.error(message: EditorProtocol.explain(error)).text))
            return
        }
        let (id, recipe) = await sessions.connect(
            id: requested, image: imageID, savedCrop: try? library.savedCrop(of: imageID))
        let saver = CropSaver(library: library, imageID: imageID, now: configuration.now)
        await sessions.attach(saver, to: id)
        let connection = Connection(
            session: id, page: page, image: image, imageID: imageID, restoring: recipe,
            saver: saver)
        do {
            try await outbound.write(
                .text(
                    EditorProtocol.ServerMessage.hello(
                        session: id, restored: recipe != nil, image: ImageDescription(image, id: imageID),
                        constraints: configuration.constraints, hostPages: configuration.hostPages,
                        acceptsUploads: configuration.acceptsUploads,
                        applied: await sessions.lastSequence(of: id, page: page),
                        tuning: sessions.sessionConfiguration
                    ).text))
            try await withThrowingTaskGroup(of: Void.self) { group in
                // A run of key steps keeps its gesture open (one undo step), so no event says "at rest": its last
                // change is saved by this tick once the interval has passed.
                group.addTask {
                    while true {
                        try await Task.sleep(for: CropSaver.interval / 2)
                        await saver.flushIfDue()
                    }
                }
                defer { group.cancelAll() }
                try await withGracefulShutdownHandler {
                    try await answer(inbound: inbound, outbound: outbound, connection: connection)
                } onGracefulShutdown: {
                    Task { try? await outbound.close(.goingAway, reason: "cropkit is stopping") }
                }
            }
        } catch {
            await end(connection)
            throw error
        }
        await end(connection)
    }

    /// One WebSocket connection's session, picture and saver.
    private struct Connection: Sendable {
        var session: String
        var page: String?
        var image: EditedImage
        var imageID: String
        var restoring: Recipe?
        var saver: CropSaver
    }

    /// The connection ended: its last change is saved (unless Cancel removed the session: Cancel put the saved crop
    /// back) and the session waits for a reconnect.
    private func end(_ connection: Connection) async {
        if await sessions.contains(session: connection.session) { await connection.saver.flush() }
        await sessions.disconnect(id: connection.session)
    }

    /// Answers each event of one connection with the engine's state or an error, and saves the crop beside its
    /// photo as it changes (``CropSaver``). The connection's ``CropSession`` is created by its first `viewport`
    /// event (from the connection's recipe when restoring); the state that answers it carries `start`, how it was
    /// made. A message may also be a batch, a JSON array of events, answered with one state (``applyBatch``).
    private func answer(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, connection: Connection)
        async throws
    {
        let id = connection.session, image = connection.image, saver = connection.saver
        var session: CropSession?
        let decoder = JSONDecoder()
        for try await message in inbound.messages(maxSize: configuration.maximumEventBytes) {
            var sequence: Int?
            let reply: String
            do {
                guard case .text(let text) = message else {
                    throw EditorError.invalidParameter(name: "message", reason: "events are JSON text frames")
                }
                let data = Data(text.utf8)
                guard await sessions.contains(session: id) else { throw EditorError.unknownSession(id) }
                if text.first(where: { !$0.isWhitespace }) == "[" {
                    let batch = try decoder.decode([SequencedEvent].self, from: data)
                    sequence = batch.last?.seq
                    reply = try await applyBatch(batch, to: &session, connection: connection).text
                } else {
                    sequence = (try? decoder.decode(Sequenced.self, from: data))?.seq
                    if let request = try? decoder.decode(ServerRequest.self, from: data),
                        ServerRequest.types.contains(request.type)
                    {
                        guard var live = session else {
                            throw EditorError.invalidParameter(
                                name: "event",
                                reason: "the first event of a connection must be 'viewport', not '\(request.type)'")
                        }
                        var (state, notice, applied): (CropViewState, String?, AppliedChangeMessage?)
                        switch request.type {
                        case "flush": (state, notice, applied) = (live.viewState, nil, nil)
                        case "propose":
                            (state, notice, applied) = try await propose(&live, image: image, measure: request.measure)
                        default: (state, notice, applied) = try await autoStraighten(&live, image: image)
                        }
                        session = live
                        await record(state, sequence: sequence, connection: connection)
                        let failure = await saver.save(state.recipe, atRest: true)
                        reply =
                            StateReplyMessage(
                                state: state, notice: failure ?? notice, sequence: sequence, applied: applied
                            ).text
                    } else {
                        let event = try decoder.decode(EventMessage.self, from: data).event
                        var (state, notice, start) = try await apply(event, to: &session, connection: connection)
                        await record(state, sequence: sequence, connection: connection)
                        if let failure = await saver.save(state.recipe, atRest: state.gesture == .none) {
                            notice = failure
                        }
                        reply = StateReplyMessage(state: state, notice: notice, sequence: sequence, start: start).text
                    }
                }
            } catch {
                // A refused event counts as applied too: resending it would be refused again.
                if let sequence, let page = connection.page {
                    await sessions.applied(sequence, page: page, session: id)
                }
                reply =
                    EditorProtocol.ServerMessage.error(message: EditorProtocol.explain(error), sequence: sequence).text
            }
            try await outbound.write(.text(reply))
        }
    }

    /// Applies one engine event to the connection's session; the first one must be the `viewport` that creates it
    /// (then `start` says how). Throws, changing nothing, when the engine refuses the event.
    private func apply(_ event: CropEvent, to session: inout CropSession?, connection: Connection) async throws
        -> (state: CropViewState, notice: String?, start: SessionStartMessage?)
    {
        if var live = session {
            let state = try live.handle(event)
            session = live
            return (state, nil, nil)
        }
        guard case .viewport(let size, let insets) = event else {
            throw EditorError.invalidParameter(
                name: "event",
                reason: "the first event of a connection must be 'viewport', not '\(EventMessage.type(of: event))'")
        }
        var starting: (recipe: Recipe?, notice: String?) = (nil, nil)
        let recipe = connection.restoring
        if recipe == nil { starting = try await startingPoint(of: connection.imageID) }
        let (live, start) = try await sessions.makeSession(
            on: connection.image, recipe: recipe, start: starting.recipe, viewportSize: size, insets: insets)
        session = live
        // A new session starts at the saved crop or the server's start, if any: say what it is once.
        await connection.saver.started(at: live.viewState.recipe)
        return (live.viewState, starting.notice, start)
    }

    /// Applies a batch of events in order, as if each had come alone, and answers with one state: the session's
    /// after the last, with the last one's `seq` (a page sends the events it gathered while waiting for an answer, so
    /// the session sees every one of them, in order, and a page running the engine itself reaches the same state).
    /// An event the engine refuses changes nothing and the rest still apply; the answer's notice names the first
    /// refusal.
    private func applyBatch(_ batch: [SequencedEvent], to session: inout CropSession?, connection: Connection)
        async throws -> StateReplyMessage
    {
        guard !batch.isEmpty else {
            throw EditorError.invalidParameter(name: "message", reason: "a batch holds at least one event")
        }
        var refusal: String?, start: SessionStartMessage?, state: CropViewState?
        for item in batch {
            do {
                let applied = try await apply(item.message.event, to: &session, connection: connection)
                state = applied.state
                start = start ?? applied.start
                if refusal == nil, let notice = applied.notice { refusal = notice }
            } catch {
                guard session != nil else { throw error }  // nothing to answer with: no session yet
                if refusal == nil { refusal = EditorProtocol.explain(error) }
            }
        }
        let final = state ?? session!.viewState
        await record(final, sequence: batch.last?.seq, connection: connection)
        var notice = refusal
        if let failure = await connection.saver.save(final.recipe, atRest: final.gesture == .none) { notice = failure }
        return StateReplyMessage(state: final, notice: notice, sequence: batch.last?.seq, start: start)
    }

    /// Keeps session `connection.session`'s recipe and the last event it applied.
    private func record(_ state: CropViewState, sequence: Int?, connection: Connection) async {
        await sessions.update(id: connection.session, recipe: state.recipe)
        if let sequence, let page = connection.page {
            await sessions.applied(sequence, page: page, session: connection.session)
        }
    }

    /// Measures the picture's tilt and, when the measure is confident, sets the session's straighten angle to it
    /// (mirrored when the crop is flipped); otherwise throws, leaving the session as it was.
    private func autoStraighten(_ session: inout CropSession, image: EditedImage) async throws
        -> (CropViewState, String, AppliedChangeMessage)
    {
        let pipeline = configuration.pipeline, bytes = image.bytes
        let estimate: StraightenEstimate
        do {
            estimate = try await renderQueue.perform { try pipeline.estimateStraighten(.data(bytes)) }
        } catch let error as CropKitError {
            throw EditorError(error)
        }
        guard estimate.isConfident() else {
            throw EditorError.autoStraightenUnsure(estimate)
        }
        let angle = session.state.isFlipped ? -estimate.angle : estimate.angle
        let state = try session.handle(.straighten(angle: angle, isFinal: true))
        return (state, "Levelled: " + estimate.levelledText, .straighten(angle))
    }
}

extension EditorServer {
    /// Moves the crop to the one CropKit proposes for the picture (`ImagePipeline.proposeCrop(_:aspect:measure:)`,
    /// `measure` `attention` by default, `entropy` or `face`) at the crop's aspect: the lock's ratio, or the crop's
    /// own proportions when it is free. The proposal is measured on the picture as shown and placed through the
    /// session's turns, flips and straighten (`CropSession.setCrop(orientedRect:)`), as one undo step.
    fileprivate func propose(_ session: inout CropSession, image: EditedImage, measure name: String?) async throws
        -> (CropViewState, String, AppliedChangeMessage)
    {
        guard let measure = CropProposal.Measure(rawValue: name ?? CropProposal.Measure.attention.rawValue) else {
            throw EditorError.invalidParameter(
                name: "measure", reason: "'\(name ?? "")' is not attention, entropy or face")
        }
        let state = session.state
        let aspect = state.aspectRatio ?? AspectRatio(of: state.outputSize)
        let shown = state.userOrientation.swapsDimensions ? aspect.transposed : aspect
        let pipeline = configuration.pipeline, bytes = image.bytes
        let proposal: CropProposal
        do {
            proposal = try await renderQueue.perform {
                try pipeline.proposeCrop(.data(bytes), aspect: shown, measure: measure)
            }
        } catch let error as CropKitError {
            throw EditorError(error)
        }
        let view = try session.setCrop(orientedRect: proposal.rect)
        let share = Int((proposal.score * 100).rounded())
        let which = state.aspectRatio.map { "the \($0) crop" } ?? "the crop"
        if let faces = proposal.faces {
            let notice =
                faces.placedBy == .face
                ? "Suggested: \(which) keeping \(faces.kept) of the \(faces.faces.count) "
                    + (faces.faces.count == 1 ? "face" : "faces") + " whole"
                : "No face found: \(which) with the most attention (\(share)% of it)"
            return (view, notice, .setCrop(proposal.rect))
        }
        return (
            view, "Suggested: \(which) with the most \(measure.rawValue) (\(share)% of it)", .setCrop(proposal.rect)
        )
    }
}

/// A message that is not an engine event, but asks the server to measure the picture (`autoStraighten`, or
/// `propose` with an optional `measure`) or to save the crop now (`flush`).
private struct ServerRequest: Decodable {
    /// The requests the server answers itself.
    static let types: Set = ["autoStraighten", "propose", "flush"]
    var type: String
    var measure: String?
}

/// The sequence number any message may carry.
private struct Sequenced: Decodable {
    var seq: Int?
}

/// One event of a batch: the event and its `seq`.
private struct SequencedEvent: Decodable {
    var message: EventMessage
    var seq: Int?

    private enum Key: String, CodingKey { case seq }

    init(from decoder: any Decoder) throws {
        message = try EventMessage(from: decoder)
        seq = try decoder.container(keyedBy: Key.self).decodeIfPresent(Int.self, forKey: .seq)
    }
}
