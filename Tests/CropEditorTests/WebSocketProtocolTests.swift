import CropCodecs
import CropInteraction
import CropKit
import CropTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HummingbirdWSTesting
import NIOCore
import Testing
import WSClient

@testable import CropEditor

/// One decoded server message.
struct Reply: Decodable {
    var type: String
    var session: String?
    var restored: Bool?
    var image: ImageDescription?
    var stateMessage: ViewStateMessage?
    var message: String?
    var notice: String?
    var constraints: Constraints?
    var hostPages: [String]?
    /// The event's sequence number an answer repeats.
    var seq: Int?
    /// The hello's last applied sequence number of a reconnecting page.
    var applied: Int?
    var state: CropViewState? { stateMessage?.state }

    /// The hello's `constraints`.
    struct Constraints: Decodable, Equatable {
        var aspect: String?
        var minimumCropSize: Double
        var outputSize: PixelSize?
        var round: Bool
    }

    enum CodingKeys: String, CodingKey {
        case type, session, restored, image, message, notice, constraints, hostPages, seq, applied
        case stateMessage = "state"
    }
}

/// What a test's WebSocket conversation leaves behind for the assertions after it.
actor Notes {
    var session = ""
    var state: CropViewState?
    func set(session: String) { self.session = session }
    func set(state: CropViewState?) { self.state = state }
}

/// A scripted conversation: sends text, reads the one answer.
struct Conversation {
    var inbound: WebSocketInboundMessageStream.AsyncIterator
    let outbound: WebSocketOutboundWriter

    mutating func next() async throws -> Reply {
        let message = try #require(try await inbound.next())
        guard case .text(let text) = message else {
            Issue.record("binary answer")
            throw CancellationError()
        }
        return try JSONDecoder().decode(Reply.self, from: Data(text.utf8))
    }

    mutating func send(_ text: String) async throws -> Reply {
        try await outbound.write(.text(text))
        return try await next()
    }

    mutating func send(_ event: CropEvent) async throws -> Reply {
        try await send(String(decoding: try JSONEncoder().encode(EventMessage(event)), as: UTF8.self))
    }
}

@Suite struct WebSocketProtocolTests {
    @Test("Auto sets the measured straighten angle with a notice (mirrored after a flip), or refuses when unsure")
    func autoStraighten() async throws {
        func server(lines: Bool) throws -> EditorServer {
            let configuration = EditorServer.Configuration(previewMaximumSide: 120)
            let png = try ImageCodec.encode(
                tiltedScene(width: 360, height: 240, degrees: 5, seed: 2, lines: lines), as: .png)
            let image = try EditedImage(
                name: "scene.png", bytes: png, pipeline: configuration.pipeline, previewMaximumSide: 120)
            return EditorServer(image: image, configuration: configuration, page: try EditorPage())
        }
        let tilted = try server(lines: true)
        let measured = try ImagePipeline().estimateStraighten(.data(try await tilted.firstImage.bytes)).angle
        #expect(abs(measured - 5) < 0.2)
        try await tilted.makeApplication(logger: quietLogger).test(.live) { client in
            try await client.ws("/api/session") { inbound, outbound, _ in
                var talk = Conversation(
                    inbound: inbound.messages(maxSize: 1 << 20).makeAsyncIterator(), outbound: outbound)
                _ = try await talk.next()
                let early = try await talk.send(#"{"type":"autoStraighten"}"#)
                #expect(early.type == "error" && early.message?.contains("viewport") == true)
                _ = try await talk.send(viewport)
                let levelled = try await talk.send(#"{"type":"autoStraighten"}"#)
                #expect(levelled.type == "state", "\(levelled.message ?? "")")
                #expect(
                    abs((levelled.state?.angle ?? 0) - measured) < 0.051, "\(String(describing: levelled.state?.angle))"
                )
                #expect(levelled.notice?.hasPrefix("Levelled: ") == true, "\(levelled.notice ?? "")")
                // Flipped and back to 0°, Auto levels the mirrored picture; undo takes it back like any straighten.
                _ = try await talk.send(.flip(.horizontal))
                _ = try await talk.send(.straighten(angle: 0, isFinal: true))
                let mirrored = try await talk.send(#"{"type":"autoStraighten"}"#)
                #expect(abs((mirrored.state?.angle ?? 0) + measured) < 0.051)
                let undone = try await talk.send(.undo)
                #expect(undone.state?.angle == 0)
            }
        }
        let plain = try server(lines: false)
        try await plain.makeApplication(logger: quietLogger).test(.live) { client in
            try await client.ws("/api/session") { inbound, outbound, _ in
                var talk = Conversation(
                    inbound: inbound.messages(maxSize: 1 << 20).makeAsyncIterator(), outbound: outbound)
                _ = try await talk.next()
                let start = try await talk.send(viewport)
                let unsure = try await talk.send(#"{"type":"autoStraighten"}"#)
                #expect(unsure.type == "error", "\(unsure)")
                #expect(unsure.message?.contains("the angle is unchanged") == true, "\(unsure.message ?? "")")
                let next = try await talk.send(.straightenBy(delta: 0))
                #expect(next.state?.angle == start.state?.angle)
            }
        }
    }

    @Test("a server given a proposal starts each new session at it, says so once, and Done on it renders the proposal")
    func startsFromTheProposal() async throws {
        let configuration = EditorServer.Configuration(previewMaximumSide: 120)
        // 900×300, the red disc at (700, 150): the centred square misses it, the attention square keeps it.
        let jpeg = try ImageCodec.encode(redDiscScene(x: 700, y: 150, width: 900, height: 300), as: .jpeg)
        let image = try EditedImage(
            name: "disc.jpg", bytes: jpeg, pipeline: configuration.pipeline, previewMaximumSide: 120)
        let start = try EditorStart.proposed(
            for: .data(jpeg), [.aspectCrop(.square, gravity: .attention), .autoStraighten()],
            pipeline: configuration.pipeline)
        let proposal = try ImagePipeline().proposeCrop(.data(jpeg), aspect: .square, measure: .attention)
        #expect(start.recipe == proposal.state.recipe)  // a flat scene: auto-straighten is unsure and adds nothing
        let notice = try #require(start.notice)
        #expect(notice.hasPrefix("Proposed: the 1:1 crop with the most attention ("), "\(notice)")
        #expect(notice.contains("; not levelled ("), "\(notice)")
        let server = EditorServer(image: image, configuration: configuration, page: try EditorPage(), start: start)
        let notes = Notes()
        try await server.makeApplication(logger: quietLogger).test(.live) { client in
            try await client.ws("/api/session") { inbound, outbound, _ in
                var talk = Conversation(
                    inbound: inbound.messages(maxSize: 1 << 20).makeAsyncIterator(), outbound: outbound)
                await notes.set(session: try #require(try await talk.next().session))
                let first = try await talk.send(viewport)
                #expect(first.notice == notice)
                #expect(first.state?.recipe == start.recipe)
                #expect(first.state?.aspect == .ratio(.square))
                // The person moves it from there; the notice is not repeated.
                let moved = try await talk.send(.straighten(angle: 2, isFinal: true))
                #expect(moved.notice == nil && moved.state?.angle == 2)
                _ = try await talk.send(.undo)
            }
            let id = await notes.session
            try await client.execute(uri: "/api/sessions/\(id)/render?format=png", method: .post) { response in
                #expect(response.status == .ok)
                let rendered = try Image(source: .data(response.bytes))
                #expect(rendered.size == PixelSize(validWidth: 300, height: 300))
                #expect(redPixels(rendered.pixels) > 2500)  // the whole disc: π·30² ≈ 2,827 pixels
            }
        }
        // Without a start, the same picture opens untouched: the whole 900×300.
        let plain = EditorServer(image: image, configuration: configuration, page: try EditorPage())
        try await plain.makeApplication(logger: quietLogger).test(.live) { client in
            try await client.ws("/api/session") { inbound, outbound, _ in
                var talk = Conversation(
                    inbound: inbound.messages(maxSize: 1 << 20).makeAsyncIterator(), outbound: outbound)
                _ = try await talk.next()
                let first = try await talk.send(viewport)
                #expect(first.notice == nil && first.state?.outputSize == PixelSize(validWidth: 900, height: 300))
            }
        }
    }

    @Test(
        "Suggest moves the crop onto the attention proposal at the crop's aspect, through turns and straighten, as one undo step"
    )
    func propose() async throws {
        let configuration = EditorServer.Configuration(previewMaximumSide: 120)
        // 900×300, the red disc at (700, 150): the centred square misses it, the attention square keeps it.
        let jpeg = try ImageCodec.encode(redDiscScene(x: 700, y: 150, width: 900, height: 300), as: .jpeg)
        let image = try EditedImage(
            name: "disc.jpg", bytes: jpeg, pipeline: configuration.pipeline, previewMaximumSide: 120)
        let server = EditorServer(image: image, configuration: configuration, page: try EditorPage())
        let proposal = try ImagePipeline().proposeCrop(.data(jpeg), aspect: .square, measure: .attention)
        let notes = Notes()
        try await server.makeApplication(logger: quietLogger).test(.live) { client in
            /// The session's crop rendered now: its size and how many of the disc's pixels it shows.
            func rendered() async throws -> (PixelSize, Int) {
                let id = await notes.session
                return try await client.execute(uri: "/api/sessions/\(id)/render?format=png", method: .post) {
                    response in
                    #expect(response.status == .ok)
                    let image = try Image(source: .data(response.bytes))
                    return (image.size, redPixels(image.pixels))
                }
            }
            try await client.ws("/api/session") { inbound, outbound, _ in
                var talk = Conversation(
                    inbound: inbound.messages(maxSize: 1 << 20).makeAsyncIterator(), outbound: outbound)
                await notes.set(session: try #require(try await talk.next().session))
                let early = try await talk.send(#"{"type":"propose"}"#)
                #expect(early.type == "error" && early.message?.contains("not 'propose'") == true, "\(early)")
                _ = try await talk.send(viewport)
                let centred = try await talk.send(.aspect(.ratio(.square)))
                #expect(centred.state?.outputSize == PixelSize(validWidth: 300, height: 300))
                let suggested = try await talk.send(#"{"type":"propose"}"#)
                #expect(suggested.type == "state", "\(suggested.message ?? "")")
                #expect(
                    suggested.notice?.hasPrefix("Suggested: the 1:1 crop with the most attention (") == true,
                    "\(suggested.notice ?? "")")
                let got = try #require(suggested.state?.recipe), wanted = proposal.state.recipe
                #expect(
                    got.cropCenter.isApproximatelyEqual(to: wanted.cropCenter, tolerance: 1e-9)
                        && got.cropSize.isApproximatelyEqual(to: wanted.cropSize, tolerance: 1e-9), "\(got)")
                await notes.set(state: suggested.state)
                let bad = try await talk.send(#"{"type":"propose","measure":"faces"}"#)
                #expect(
                    bad.type == "error" && bad.message?.contains("'faces' is not attention, entropy or face") == true,
                    "\(bad)")
                // No one in the picture: Suggest by faces says so and takes attention's crop (the same one).
                let byFace = try await talk.send(#"{"type":"propose","measure":"face"}"#)
                #expect(
                    byFace.notice?.hasPrefix("No face found: the 1:1 crop with the most attention (") == true,
                    "\(byFace.notice ?? "")")
                #expect(byFace.state?.recipe == suggested.state?.recipe)  // the same crop: no new undo step
                let undone = try await talk.send(.undo)
                #expect(undone.state?.recipe == centred.state?.recipe)
            }
            // The centred square misses the disc; after Suggest, the render shows all of it (π·30² ≈ 2,827 pixels).
            let (size, red) = try await rendered()
            #expect(size == PixelSize(validWidth: 300, height: 300) && red < 50, "\(size), \(red) red pixels")
            try await client.ws("/api/session?id=\(await notes.session)") { inbound, outbound, _ in
                var talk = Conversation(
                    inbound: inbound.messages(maxSize: 1 << 20).makeAsyncIterator(), outbound: outbound)
                _ = try await talk.next()
                _ = try await talk.send(viewport)
                _ = try await talk.send(#"{"type":"propose"}"#)
            }
            let (suggestedSize, suggestedRed) = try await rendered()
            #expect(
                suggestedSize == PixelSize(validWidth: 300, height: 300) && suggestedRed > 2500,
                "\(suggestedSize), \(suggestedRed) red pixels")
            // Turned a quarter and straightened by 4°, Suggest still centres the crop on the disc (it shrinks to fit).
            try await client.ws("/api/session?id=\(await notes.session)") { inbound, outbound, _ in
                var talk = Conversation(
                    inbound: inbound.messages(maxSize: 1 << 20).makeAsyncIterator(), outbound: outbound)
                _ = try await talk.next()
                _ = try await talk.send(viewport)
                _ = try await talk.send(.rotate(.clockwise, aspectPolicy: .followPicture))
                _ = try await talk.send(.straighten(angle: 4, isFinal: true))
                let entropy = try await talk.send(#"{"type":"propose","measure":"entropy"}"#)
                #expect(entropy.notice?.contains("with the most entropy") == true, "\(entropy)")
                #expect(entropy.state?.angle == 4 && entropy.state?.quarterTurns == 1)
            }
            let (turnedSize, turnedRed) = try await rendered()
            #expect(
                turnedSize.width == turnedSize.height && turnedSize.width < 300 && turnedRed > 2500,
                "\(turnedSize), \(turnedRed) red pixels")
        }
    }

    @Test(
        "a host's constraints: the hello says them; the aspect and the minimum size hold; Done renders the exact size, round"
    )
    func hostConstraints() async throws {
        #expect(throws: EditorError.self) { try CropConstraints(minimumCropSize: 0) }
        #expect(throws: EditorError.self) {
            try CropConstraints(aspect: .square, outputSize: PixelSize(validWidth: 64, height: 48))
        }
        let constraints = try CropConstraints(
            minimumCropSize: 100, outputSize: PixelSize(validWidth: 64, height: 64), isRound: true)
        #expect(constraints.aspect == .square)
        let server = try makeServer { $0.constraints = constraints }
        let notes = Notes()
        try await server.makeApplication(logger: quietLogger).test(.live) { client in
            try await client.ws("/api/session") { inbound, outbound, _ in
                var talk = Conversation(
                    inbound: inbound.messages(maxSize: 1 << 20).makeAsyncIterator(), outbound: outbound)
                let hello = try await talk.next()
                #expect(
                    hello.constraints
                        == Reply.Constraints(
                            aspect: "1:1", minimumCropSize: 100, outputSize: PixelSize(validWidth: 64, height: 64),
                            round: true))
                await notes.set(session: try #require(hello.session))
                // Displayed 240×160: the largest square is 160×160.
                let first = try await talk.send(viewport)
                #expect(first.state?.aspect == .ratio(.square))
                #expect(first.state?.outputSize == PixelSize(validWidth: 160, height: 160))
                let refused = try await talk.send(.aspect(try .ratio(16, 9)))
                #expect(refused.state?.aspect == .ratio(.square) && refused.state?.canUndo == false)
                // Shrinking past the minimum stops at 100 px.
                let small = try await talk.send(.resizeBy(handle: .bottomRight, dx: -150, dy: -150))
                #expect(small.state?.outputSize == PixelSize(validWidth: 100, height: 100))
            }
            let id = await notes.session
            try await client.execute(uri: "/api/sessions/\(id)/render", method: .post) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/png")  // a JPEG source, round: PNG by default
                let rendered = try Image(source: .data(response.bytes))
                #expect(rendered.size == PixelSize(validWidth: 64, height: 64))
                #expect(try decodedPixel(response.bytes, x: 0, y: 0)[3] == 0, "the corner is transparent")
                #expect(try decodedPixel(response.bytes, x: 32, y: 32)[3] == 255, "the centre is opaque")
            }
        }
    }

    @Test("a session on an opened picture edits that picture, and Done renders it; an unknown picture is refused")
    func sessionOnAnOpenedPicture() async throws {
        let server = try makeServer()
        let jpeg = try ImageCodec.encode(redDiscScene(x: 700, y: 150, width: 900, height: 300), as: .jpeg)
        let notes = Notes()
        try await server.makeApplication(logger: quietLogger).test(.live) { client in
            let id = try await client.execute(
                uri: "/api/images?name=disc.jpg", method: .post,
                body: ByteBuffer(bytes: jpeg)
            ) { response in
                try JSONDecoder().decode(ImageDescription.self, from: Data(response.bytes)).id
            }
            try await client.ws("/api/session?image=\(id)") { inbound, outbound, _ in
                var talk = Conversation(
                    inbound: inbound.messages(maxSize: 1 << 20).makeAsyncIterator(), outbound: outbound)
                let hello = try await talk.next()
                #expect(hello.image?.id == id && hello.image?.name == "disc.jpg")
                await notes.set(session: try #require(hello.session))
                let first = try await talk.send(viewport)
                #expect(first.state?.outputSize == PixelSize(validWidth: 900, height: 300))
                let square = try await talk.send(.aspect(.square))
                #expect(square.state?.outputSize == PixelSize(validWidth: 300, height: 300))
            }
            let session = await notes.session
            try await client.execute(uri: "/api/sessions/\(session)/render?format=png", method: .post) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentDisposition]?.contains("disc-edited.png") == true)
                let rendered = try Image(source: .data(response.bytes))
                #expect(rendered.size == PixelSize(validWidth: 300, height: 300))
            }
            // An unknown picture: the error, then the server closes (read from the socket itself, see the probe).
            let probe = RawWebSocketProbe(port: try #require(client.port))
            let answer = try await probe.answer(to: "/api/session?image=zz")
            #expect(answer.status.hasPrefix("HTTP/1.1 101"), "\(answer.status)")
            try #require(answer.frames.count == 2, "\(answer.frames)")
            let refused = try JSONDecoder().decode(Reply.self, from: Data(answer.frames[0].payload))
            #expect(answer.frames[0].opcode == 1 && refused.type == "error", "\(answer.frames[0].text)")
            #expect(refused.message?.contains("no picture 'zz'") == true, "\(refused.message ?? "")")
            #expect(answer.frames[1].opcode == 8, "the connection closes after the error")
        }
    }

    let viewport = CropEvent.viewport(
        size: Size(width: 800, height: 600),
        insets: EdgeInsets(top: 16, left: 16, bottom: 16, right: 16))

    /// The session the server should be running, built here from the same engine.
    private func localSession(_ server: EditorServer) async throws -> CropSession {
        let image = try await server.firstImage
        var configuration = server.configuration.session
        configuration.previewSize = image.previewSize
        let state = try CropState(sourceSize: image.info.storedSize, orientation: image.info.orientation)
        return try CropSession(
            state: state, viewportSize: Size(width: 800, height: 600),
            insets: EdgeInsets(top: 16, left: 16, bottom: 16, right: 16),
            configuration: configuration)
    }

    @Test func scriptedEventsGiveTheEnginesStates() async throws {
        let server = try makeServer()
        var local = try await localSession(server)
        let start = local.viewState
        let box = start.cropBox
        func at(_ fx: Double, _ fy: Double) -> Point {
            Point(x: box.minX + box.width * fx, y: box.minY + box.height * fy)
        }
        // Draw a box (the crop fills the picture, so a drag inside draws), move it, straighten, turn, flip, lock
        // the aspect, swap it, nudge, zoom, undo, redo, pan mode.
        var script: [CropEvent] = [
            .pointerDown(id: 1, location: at(0.2, 0.2), intent: .auto),
            .pointerMove(id: 1, location: at(0.4, 0.5)),
            .pointerMove(id: 1, location: at(0.7, 0.8)),
            .pointerUp(id: 1, location: at(0.7, 0.8)),
        ]
        for event in script { try local.handle(event) }  // to learn where the drawn box lands
        let drawn = local.viewState.cropBox
        local = try await localSession(server)
        script += [
            .pointerDown(id: 2, location: drawn.center, intent: .auto),
            .pointerMove(id: 2, location: drawn.center + Point(x: 30, y: 20)),
            .pointerUp(id: 2, location: drawn.center + Point(x: 30, y: 20)),
            .straighten(angle: 4, isFinal: false),
            .straighten(angle: 10, isFinal: true),
            .straightenBy(delta: -0.1),
            .rotate(.clockwise, aspectPolicy: .followPicture),
            .flip(.horizontal),
            .aspect(try AspectLock(string: "4:3")),
            .swapAspect,
            .nudge(dx: 5, dy: -3),
            .zoom(factor: 1.25, anchor: Point(x: 400, y: 300)),
            .undo,
            .redo,
            .mode(.pan),
            .pointerDown(id: 3, location: Point(x: 400, y: 300), intent: .auto),
            .pointerMove(id: 3, location: Point(x: 420, y: 310)),
            .pointerUp(id: 3, location: Point(x: 420, y: 310)),
        ]
        var states = [local.viewState]
        for event in script { states.append(try local.handle(event)) }
        let expected = states, events = script

        let notes = Notes()
        try await server.makeApplication(logger: quietLogger).test(.live) { client in
            try await client.ws("/api/session") { inbound, outbound, _ in
                var talk = Conversation(
                    inbound: inbound.messages(maxSize: 1 << 20).makeAsyncIterator(),
                    outbound: outbound)
                let hello = try await talk.next()
                #expect(hello.type == "hello")
                #expect(hello.restored == false)
                #expect(hello.image == ImageDescription(try await server.firstImage))
                await notes.set(session: try #require(hello.session))
                // Then every event answers with exactly the engine's view state.
                let first = try await talk.send(viewport)
                #expect(first.state == expected[0])
                for (index, event) in events.enumerated() {
                    let reply = try await talk.send(event)
                    #expect(
                        reply.type == "state", "event \(index) \(EventMessage.type(of: event)): \(reply.message ?? "")")
                    #expect(reply.state == expected[index + 1], "event \(index) \(EventMessage.type(of: event))")
                }
                await notes.set(state: expected.last)
            }
            // Done renders that state at full resolution.
            let session = await notes.session
            let last = try #require(await notes.state)
            #expect(last.angle == -9.9)  // the flip mirrors the straighten too
            #expect(last.quarterTurns == 1)
            #expect(last.flipped)
            #expect(last.mode == .pan)
            #expect(last.aspect == (try AspectLock.ratio(3, 4)))
            try await client.execute(uri: "/api/sessions/\(session)/render?format=png", method: .post) { response in
                #expect(response.status == .ok)
                #expect(
                    response.headers[.contentDisposition]
                        == "attachment; filename=\"quadrants-orientation6-edited.png\"")
                let image = try Image(source: .data(response.bytes))
                #expect(image.size == last.outputSize)
                // No fill in a straightened crop's corners: the picture there is one of the quadrant colours.
                let w = image.size.width, h = image.size.height
                for (x, y) in [(0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)] {
                    let p = image.pixels.pixel(x: x, y: y)
                    #expect(
                        [red, green, blue, yellow].contains { close(p, $0, tolerance: 40) }, "corner \(x),\(y): \(p)")
                }
            }
        }
    }

    @Test func badMessagesAreAnsweredWithErrorsAndChangeNothing() async throws {
        let server = try makeServer()
        try await server.makeApplication(logger: quietLogger).test(.live) { client in
            try await client.ws("/api/session") { inbound, outbound, _ in
                var talk = Conversation(
                    inbound: inbound.messages(maxSize: 1 << 20).makeAsyncIterator(),
                    outbound: outbound)
                _ = try await talk.next()
                var reply = try await talk.send(.rotate(.clockwise, aspectPolicy: .followPicture))
                #expect(reply.type == "error")
                #expect(reply.message?.contains("first event of a connection must be 'viewport'") == true)
                let start = try #require(try await talk.send(viewport).state)
                reply = try await talk.send(#"{"type":"straighten","angle":90}"#)
                #expect(reply.type == "error")
                #expect(reply.message?.contains("90") == true)
                reply = try await talk.send(#"{"type":"teleport"}"#)
                #expect(reply.message?.contains("unknown event type 'teleport'") == true)
                reply = try await talk.send(#"{"type":"flip"}"#)
                #expect(reply.message == "invalid event: missing field 'axis'")
                reply = try await talk.send(#"{"type":"nudge","dx":"left","dy":0}"#)
                #expect(reply.message == "invalid event: field 'dx' has the wrong type")
                reply = try await talk.send("not json")
                #expect(reply.type == "error")
                try await outbound.write(.binary(ByteBuffer(bytes: [1, 2, 3])))
                reply = try await talk.next()
                #expect(reply.message?.contains("JSON text frames") == true)
                // Nothing changed: the next harmless event gives the start state again.
                reply = try await talk.send(viewport)
                #expect(reply.state == start)
            }
        }
    }

    @Test func aReloadRestoresTheLastStateFromItsRecipe() async throws {
        let server = try makeServer()
        let notes = Notes()
        try await server.makeApplication(logger: quietLogger).test(.live) { client in
            try await client.ws("/api/session") { inbound, outbound, _ in
                var talk = Conversation(
                    inbound: inbound.messages(maxSize: 1 << 20).makeAsyncIterator(),
                    outbound: outbound)
                await notes.set(session: try #require(try await talk.next().session))
                _ = try await talk.send(viewport)
                _ = try await talk.send(.straighten(angle: 7.5, isFinal: true))
                _ = try await talk.send(.aspect(.ratio(try AspectRatio(3, 2))))
                await notes.set(
                    state: try await talk.send(.rotate(.counterClockwise, aspectPolicy: .followPicture)).state)
            }
            let id = await notes.session
            let before = try #require(await notes.state)
            try await client.ws("/api/session?id=\(id)") { inbound, outbound, _ in
                var talk = Conversation(
                    inbound: inbound.messages(maxSize: 1 << 20).makeAsyncIterator(),
                    outbound: outbound)
                let hello = try await talk.next()
                #expect(hello.session == id)
                #expect(hello.restored == true)
                let after = try #require(try await talk.send(viewport).state)
                #expect(after.recipe == before.recipe)
                #expect(after.outputSize == before.outputSize)
                #expect(after.canUndo == false)  // history does not survive a reload; the picture's state does
            }
            // Cancel discards it: a reconnect with the old id gets a new, untouched session.
            try await client.execute(uri: "/api/sessions/\(id)", method: .delete) { response in
                #expect(response.status == .noContent)
            }
            try await client.ws("/api/session?id=\(id)") { inbound, outbound, _ in
                var talk = Conversation(
                    inbound: inbound.messages(maxSize: 1 << 20).makeAsyncIterator(),
                    outbound: outbound)
                let hello = try await talk.next()
                #expect(hello.session != id)
                #expect(hello.restored == false)
                #expect(try await talk.send(viewport).state?.angle == 0)
            }
        }
    }

    @Test func aSecondPageOnAConnectedSessionGetsItsOwnCopy() async throws {
        // A duplicated browser tab carries the same session id while the first tab is still connected.
        let server = try makeServer()
        try await server.makeApplication(logger: quietLogger).test(.live) { client in
            try await client.ws("/api/session") { inbound, outbound, _ in
                var first = Conversation(
                    inbound: inbound.messages(maxSize: 1 << 20).makeAsyncIterator(),
                    outbound: outbound)
                let id = try #require(try await first.next().session)
                _ = try await first.send(viewport)
                let turned = try #require(try await first.send(.rotate(.clockwise, aspectPolicy: .followPicture)).state)
                try await client.ws("/api/session?id=\(id)") { inbound2, outbound2, _ in
                    var second = Conversation(
                        inbound: inbound2.messages(maxSize: 1 << 20).makeAsyncIterator(),
                        outbound: outbound2)
                    let hello = try await second.next()
                    #expect(hello.session != id)
                    #expect(hello.restored == true)
                    let copy = try #require(try await second.send(viewport).state)
                    #expect(copy.recipe == turned.recipe)
                    _ = try await second.send(.flip(.horizontal))
                }
                // The first page's session is untouched by the second's flip.
                let reply = try await first.send(.undo)
                #expect(reply.state?.quarterTurns == 0)
                #expect(reply.state?.flipped == false)
            }
        }
    }

    @Test("an unconnected session expires after its lifetime, by the injected clock (no waiting)")
    func sessionsExpire() async throws {
        let clock = ManualClock()
        let server = try makeServer {
            $0.sessionLifetime = .seconds(60)
            $0.now = { clock.now }
        }
        let notes = Notes()
        try await server.makeApplication(logger: quietLogger).test(.live) { client in
            try await client.ws("/api/session") { inbound, outbound, _ in
                var talk = Conversation(
                    inbound: inbound.messages(maxSize: 1 << 20).makeAsyncIterator(),
                    outbound: outbound)
                await notes.set(session: try #require(try await talk.next().session))
                _ = try await talk.send(viewport)
            }
            let id = await notes.session
            clock.advance(by: .seconds(59))
            try await client.execute(uri: "/api/sessions/\(id)/render", method: .post) { response in
                #expect(response.status == .ok)
            }
            // Each use restarts the lifetime: 59 s after it the session is still there, 61 s after it is gone.
            clock.advance(by: .seconds(59))
            await server.sessions.sweep()
            #expect(await server.sessions.count == 1)
            clock.advance(by: .seconds(2))
            try await client.execute(uri: "/api/sessions/\(id)/render", method: .post) { response in
                expectError(response, .notFound, "unknownSession")
            }
            await server.sessions.sweep()
            #expect(await server.sessions.count == 0)
        }
    }

    @Test func aCrossSiteOriginCannotConnect() async throws {
        let server = try makeServer()
        try await server.makeApplication(logger: quietLogger).test(.live) { client in
            await #expect(throws: WebSocketClientError.webSocketUpgradeFailed) {
                try await client.ws(
                    "/api/session", configuration: .init(additionalHeaders: [.origin: "http://evil.example"])
                ) { _, _, _ in }
            }
        }
    }
}
