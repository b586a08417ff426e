import CropCodecs
import CropEngine
import CropGeometry
import CropInteraction
import CropKit
import CropTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import HummingbirdWSTesting
import Testing
import WSClient

@testable import CropEditor
@testable import CropWasm

/// What a page that runs the engine itself needs from the server: how the session was made (`start`), batches of
/// the events it gathered while waiting, answered with one state, and the changes the server decided itself
/// (`decided`). Here the page's engine is the native `NumericSession`, fed the numbers the page's module would be:
/// every answer must equal it number for number.
@Suite("The editor protocol for a page running the engine")
struct LocalEngineProtocolTests {
    /// The parts of a server message these tests read.
    struct Answer: Decodable {
        var type: String
        var seq: Int?
        var message: String?
        var notice: String?
        var state: ViewStateMessage?
        var start: Start?
        var decided: Decided?

        struct Start: Decodable {
            var width: Int
            var height: Int
            var orientation: Int
            var minimumCropSize: Double
            var configuration: CropSession.Configuration
            var recipe: Recipe?
        }

        struct Decided: Decodable {
            var type: String
            var angle: Double?
            var final: Bool?
            var x, y, width, height: Double?
        }
    }

    struct Talk {
        var inbound: WebSocketInboundMessageStream.AsyncIterator
        let outbound: WebSocketOutboundWriter

        mutating func send(_ text: String) async throws -> Answer {
            try await outbound.write(.text(text))
            let message = try #require(try await inbound.next())
            guard case .text(let reply) = message else { throw CancellationError() }
            return try JSONDecoder().decode(Answer.self, from: Data(reply.utf8))
        }
    }

    static let viewport = CropEvent.viewport(
        size: Size(width: 800, height: 600), insets: EdgeInsets(top: 16, left: 16, bottom: 16, right: 16))

    /// `events` as one batch, numbered from `firstSeq`.
    static func batch(_ events: [CropEvent], firstSeq: Int) throws -> String {
        let objects = try events.enumerated().map { index, event in
            var object = try #require(
                try JSONSerialization.jsonObject(with: JSONEncoder().encode(EventMessage(event))) as? [String: Any])
            object["seq"] = firstSeq + index
            return object
        }
        return String(decoding: try JSONSerialization.data(withJSONObject: objects), as: UTF8.self)
    }

    /// The page's session: made from the server's `start` and the viewport the page sent.
    static func pageSession(_ start: Answer.Start) throws -> NumericSession {
        let numbers = SessionParameters.numbers(
            source: try PixelSize(width: start.width, height: start.height),
            orientation: try #require(Orientation(rawValue: start.orientation)), minimumCropSize: start.minimumCropSize,
            viewport: Size(width: 800, height: 600), insets: EdgeInsets(top: 16, left: 16, bottom: 16, right: 16),
            configuration: start.configuration, recipe: start.recipe)
        return try numbers.withUnsafeBufferPointer { p throws(SessionParameters.Failure) in
            try NumericSession(parameters: p.baseAddress!)
        }
    }

    /// Applies `decoded` to the page's session; returns its status.
    @discardableResult
    static func apply(_ decoded: NumericEvent.Decoded, to session: inout NumericSession) -> NumericSession.Status {
        var state = [Double](repeating: 0, count: NumericViewState.count)
        return NumericEvent.encode(decoded).withUnsafeBufferPointer { e in
            state.withUnsafeMutableBufferPointer { s in session.apply(e.baseAddress!, state: s.baseAddress!) }
        }
    }

    static func numbers(_ state: CropViewState?) -> [Double] {
        state.map(NumericViewState.numbers) ?? []
    }

    @Test(
        "a batch is answered once, with its last seq; the first state says how the session was made; the page's engine fed the same events is equal to the last bit"
    )
    func batchesAndStart() async throws {
        let configuration = EditorServer.Configuration(previewMaximumSide: 120)
        let jpeg = try ImageCodec.encode(redDiscScene(x: 700, y: 150, width: 900, height: 300), as: .jpeg)
        let image = try EditedImage(
            name: "disc.jpg", bytes: jpeg, pipeline: configuration.pipeline, previewMaximumSide: 120)
        // A server that starts sessions at a proposal: the page must start from the same recipe.
        let start = try EditorStart.proposed(
            for: .data(jpeg), [.aspectCrop(.square, gravity: .attention)], pipeline: configuration.pipeline)
        let server = EditorServer(image: image, configuration: configuration, page: try EditorPage(), start: start)
        let gesture: [CropEvent] = [
            .pointerDown(id: 1, location: Point(x: 400, y: 300), intent: .auto),
            .pointerMove(id: 1, location: Point(x: 430, y: 310)),
            .pointerMove(id: 1, location: Point(x: 900, y: 700)),  // far past the picture's edge
            .pointerMove(id: 1, location: Point(x: 380, y: 290)),  // and back
            .pointerUp(id: 1, location: Point(x: 380, y: 290)),
            .rotate(.clockwise, aspectPolicy: .followPicture), .aspect(.ratio(try AspectRatio(16, 9))),
            .straighten(angle: 7.3, isFinal: false), .straighten(angle: 7.31, isFinal: true),
            .zoom(factor: 1.7, anchor: Point(x: 420, y: 280)), .undo, .flip(.horizontal), .straightenBy(delta: -0.1),
        ]
        try await server.makeApplication(logger: quietLogger).test(.live) { client in
            try await client.ws("/api/session") { inbound, outbound, _ in
                var talk = Talk(inbound: inbound.messages(maxSize: 1 << 20).makeAsyncIterator(), outbound: outbound)
                _ = try await talk.inbound.next()  // hello
                // The viewport and the first drag in one batch: one answer, for the last seq, with the start.
                let first = try await talk.send(try Self.batch([Self.viewport] + gesture.prefix(5), firstSeq: 1))
                #expect(first.type == "state" && first.seq == 6, "\(first.type) \(first.message ?? "")")
                let made = try #require(first.start)
                #expect(made.recipe == start.recipe && made.recipe != nil)
                #expect(made.configuration.previewSize == image.previewSize)
                var page = try Self.pageSession(made)
                for event in gesture.prefix(5) { #expect(Self.apply(.event(event), to: &page) == .applied) }
                #expect(NumericViewState.numbers(page.session.viewState) == Self.numbers(first.state?.state))

                // The rest one by one: equal after every answer; no further start.
                var seq = 7
                for event in gesture.dropFirst(5) {
                    let answer = try await talk.send(try Self.batch([event], firstSeq: seq))
                    #expect(answer.seq == seq && answer.start == nil)
                    Self.apply(.event(event), to: &page)
                    #expect(
                        NumericViewState.numbers(page.session.viewState) == Self.numbers(answer.state?.state),
                        "after \(EventMessage.type(of: event))")
                    seq += 1
                }

                // A refused event in a batch changes nothing and the rest apply, in the server and in the page.
                let mixed: [CropEvent] = [
                    .nudge(dx: 12, dy: -3), .zoom(factor: -1, anchor: .zero), .nudge(dx: 5, dy: 5),
                ]
                let answer = try await talk.send(try Self.batch(mixed, firstSeq: seq))
                #expect(answer.type == "state" && answer.seq == seq + 2 && answer.notice != nil)
                #expect(mixed.map { Self.apply(.event($0), to: &page) } == [.applied, .refused, .applied])
                #expect(NumericViewState.numbers(page.session.viewState) == Self.numbers(answer.state?.state))

                // Suggest: the server decides, the page replays what it decided and is equal again.
                let proposed = try await talk.send(#"{"type":"propose","seq":100}"#)
                let decided = try #require(proposed.decided)
                #expect(decided.type == "setCrop")
                let rect = Rect(
                    x: try #require(decided.x), y: try #require(decided.y),
                    width: try #require(decided.width), height: try #require(decided.height))
                #expect(Self.apply(.setCrop(rect), to: &page) == .applied)
                #expect(NumericViewState.numbers(page.session.viewState) == Self.numbers(proposed.state?.state))

                let empty = try await talk.send("[]")
                #expect(empty.type == "error")
            }
        }
    }

    @Test("Auto straighten says the angle it set; the page's engine set to it is equal")
    func autoStraightenDecides() async throws {
        let configuration = EditorServer.Configuration(previewMaximumSide: 120)
        let png = try ImageCodec.encode(tiltedScene(width: 360, height: 240, degrees: 5, seed: 2), as: .png)
        let image = try EditedImage(
            name: "scene.png", bytes: png, pipeline: configuration.pipeline, previewMaximumSide: 120)
        let server = EditorServer(image: image, configuration: configuration, page: try EditorPage())
        try await server.makeApplication(logger: quietLogger).test(.live) { client in
            try await client.ws("/api/session") { inbound, outbound, _ in
                var talk = Talk(inbound: inbound.messages(maxSize: 1 << 20).makeAsyncIterator(), outbound: outbound)
                _ = try await talk.inbound.next()
                let first = try await talk.send(try Self.batch([Self.viewport], firstSeq: 1))
                let made = try #require(first.start)
                #expect(made.recipe == nil)  // the untouched picture
                var page = try Self.pageSession(made)
                #expect(NumericViewState.numbers(page.session.viewState) == Self.numbers(first.state?.state))
                let flipped = try await talk.send(try Self.batch([.flip(.horizontal)], firstSeq: 2))
                Self.apply(.event(.flip(.horizontal)), to: &page)
                #expect(NumericViewState.numbers(page.session.viewState) == Self.numbers(flipped.state?.state))
                let levelled = try await talk.send(#"{"type":"autoStraighten","seq":3}"#)
                let decided = try #require(levelled.decided)
                #expect(decided.type == "straighten" && decided.final == true)
                let angle = try #require(decided.angle)
                #expect(abs(abs(angle) - 5) < 0.3 && angle == levelled.state?.state.angle)
                Self.apply(.event(.straighten(angle: angle, isFinal: true)), to: &page)
                #expect(NumericViewState.numbers(page.session.viewState) == Self.numbers(levelled.state?.state))
            }
        }
    }
}

/// `cropkit edit --aspect 1:1 --gravity face`: the editor opens at the avatar that keeps the people whole, and says so.
@Suite("Editor start by faces")
struct EditorStartFaceTests {
    static let photo = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../CropKitTests/Fixtures/faces/2008_001009.jpg").standardized.path

    @Test("the start is the face proposal's recipe, with a notice naming the faces kept")
    func avatar() throws {
        let start = try EditorStart.proposed(for: .file(Self.photo), [.aspectCrop(.square, gravity: .face)])
        let proposal = try ImagePipeline().proposeCrop(.file(Self.photo), aspect: .square, measure: .face)
        #expect(start.recipe == proposal.state.recipe)
        #expect(start.notice == "Proposed: the 1:1 crop keeping 2 of the 2 faces whole", "\(start.notice ?? "")")
    }
}
