import CropEditor
import CropKit
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HummingbirdWSTesting
import NIOCore
import Testing

@testable import CropServer

/// `cropkit serve --editor`: signed editor URLs, the hosted editor's page, API and WebSocket, and Done's signed URL.
@Suite("cropkit serve: the hosted editor")
struct HostedEditorTests {
    static func service(capacity: Int = 8) throws -> ImageService {
        try ServedFolder.service {
            $0.editors = try! HostedEditors(
                hostPages: try! HostPageOrigins(["https://app.example.com"]), capacity: capacity)
        }
    }

    /// One decoded server message (the fields these tests read).
    struct Reply: Decodable {
        struct Constraints: Decodable {
            var aspect: String?
            var minimumCropSize: Double
        }
        struct State: Decodable {
            struct Size: Decodable {
                var width: Int
                var height: Int
            }
            var outputSize: Size
            var angle: Double
        }
        var type: String
        var session: String?
        var hostPages: [String]?
        var uploads: Bool?
        var constraints: Constraints?
        var state: State?
    }

    @Test("a signed /edit URL opens the editor at an unguessable address; unsigned, tampered or bad ones are refused")
    func opening() async throws {
        let service = try Self.service()
        try await service.makeApplication(host: "127.0.0.1", port: 0, logger: quietLogger).test(.router) { client in
            func status(_ uri: String) async throws -> (HTTPResponse.Status, String?, [UInt8]) {
                try await client.execute(uri: uri, method: .get) {
                    ($0.status, $0.headers[.location], Array($0.body.readableBytesView))
                }
            }
            let target = "/edit/beach.jpg?aspect=1:1&min-size=40"
            #expect(try await status(target).0 == .forbidden)
            #expect(
                try await status(
                    try ServedFolder.signed(target).replacingOccurrences(of: "min-size=40", with: "min-size=4")
                ).0 == .forbidden)
            let (opened, location, _) = try await status(try ServedFolder.signed(target))
            #expect(opened == .seeOther)
            let place = try #require(location)
            #expect(
                place.hasPrefix("/editor/") && place.hasSuffix("/") && place.count == "/editor/".count + 64 + 1,
                "\(place)")
            // The same signed URL again: the same editor.
            #expect(try await status(try ServedFolder.signed(target)).1 == place)
            let (page, _, html) = try await status(place)
            #expect(page == .ok && message(html).contains("<script src=\"editor.js\""))
            try await client.execute(uri: place, method: .get) { response in
                #expect(
                    response.headers[.contentSecurityPolicy]?.hasSuffix("frame-ancestors https://app.example.com")
                        == true)
            }
            #expect(try await status(String(place.dropLast())).0 == .permanentRedirect)
            #expect(try await status(place + "editor.js").0 == .ok)
            let (script, _, js) = try await status("/embed.js")
            #expect(script == .ok && message(js).contains("CropKitEditor"))
            // The drop-in component and the engine at a stable path, for an app's pages on another origin.
            for path in [
                "/web/cropkit-cropper.js", "/web/cropkit-draw.js", "/web/cropkit-engine.js", "/web/cropkit-engine.wasm",
            ] {
                try await client.execute(uri: path, method: .get) { response in
                    #expect(response.status == .ok, "\(path)")
                    #expect(response.headers[.cacheControl] == "public, max-age=86400")
                    #expect(response.headers[.accessControlAllowOrigin] == "*")
                    #expect(response.headers[.eTag] != nil)
                }
            }
            // The editor's own copy of the engine (the page loads it relative to itself) is the same file.
            #expect(
                try await status(place + "web/cropkit-engine.wasm").2
                    == (try await status("/web/cropkit-engine.wasm").2))
            // Bad options name the parameter; a path outside the folder is 404; an unknown editor is 404.
            let (bad, _, body) = try await status(try ServedFolder.signed("/edit/beach.jpg?zoom=2"))
            #expect(bad == .badRequest && message(body).contains("zoom"), "\(message(body))")
            let (jpegRound, _, because) = try await status(try ServedFolder.signed("/edit/beach.jpg?round&format=jpeg"))
            #expect(jpegRound == .badRequest && message(because).contains("round"), "\(message(because))")
            let (contradiction, _, why) = try await status(
                try ServedFolder.signed("/edit/beach.jpg?aspect=1:1&size=300x200"))
            #expect(contradiction == .badRequest && message(why).contains("aspect"), "\(message(why))")
            #expect(try await status(try ServedFolder.signed("/edit/../ImageServiceTests.swift")).0 == .notFound)
            #expect(try await status(try ServedFolder.signed("/edit/missing.jpg")).0 == .notFound)
            #expect(try await status("/editor/" + String(repeating: "ab", count: 32) + "/").0 == .notFound)
            // Uploads and the render API are off in a hosted editor.
            for path in ["api/images?name=x.jpg", "api/render"] {
                let refused = try await client.execute(uri: place + path, method: .post, body: ByteBuffer(string: "x"))
                { $0.status }
                #expect(refused == .notFound, "\(path)")
            }
        }
    }

    @Test("a named instance starts its editors' addresses with its name; names other than 1-32 of a-z, 0-9 are refused")
    func instanceName() async throws {
        let service = try ServedFolder.service { $0.editors = try! HostedEditors(instance: "b7") }
        try await service.makeApplication(host: "127.0.0.1", port: 0, logger: quietLogger).test(.router) { client in
            let location = try await client.execute(uri: try ServedFolder.signed("/edit/beach.jpg"), method: .get) {
                try #require($0.headers[.location])
            }
            let token = location.dropFirst("/editor/".count).dropLast()
            #expect(
                location.hasPrefix("/editor/b7-") && location.hasSuffix("/") && token.count == "b7-".count + 64,
                "\(location)")
            #expect(try await client.execute(uri: location, method: .get) { $0.status } == .ok)
            // Another instance's name, or a token with characters no instance makes: not found.
            #expect(
                try await client.execute(uri: "/editor/c8-\(token.dropFirst(3))/", method: .get) { $0.status }
                    == .notFound)
            #expect(
                try await client.execute(uri: "/editor/B7-\(token.dropFirst(3))/", method: .get) { $0.status }
                    == .notFound)
        }
        for bad in ["", "B7", "b-7", "b_7", "é", String(repeating: "a", count: 33)] {
            #expect(!HostedEditors.isInstanceName(bad), "\(bad)")
            #expect(throws: EditorError.self) { try HostedEditors(instance: bad) }
        }
        #expect(HostedEditors.isInstanceName("8081") && HostedEditors.isInstanceName(String(repeating: "z", count: 32)))
    }

    @Test("the least recently used editor is closed when one more opens")
    func capacity() async throws {
        let service = try Self.service(capacity: 1)
        try await service.makeApplication(host: "127.0.0.1", port: 0, logger: quietLogger).test(.router) { client in
            let first = try await client.execute(uri: try ServedFolder.signed("/edit/beach.jpg"), method: .get) {
                $0.headers[.location]
            }
            let second = try await client.execute(uri: try ServedFolder.signed("/edit/sub/logo.png"), method: .get) {
                $0.headers[.location]
            }
            #expect(first != nil && second != nil && first != second)
            #expect(try await client.execute(uri: try #require(first), method: .get) { $0.status } == .notFound)
            #expect(try await client.execute(uri: try #require(second), method: .get) { $0.status } == .ok)
        }
    }

    @Test("edit over the hosted WebSocket, Done: a signed /img URL that renders exactly the stated size")
    func doneGivesASignedImageURL() async throws {
        let service = try Self.service()
        try await service.makeApplication(host: "127.0.0.1", port: 0, logger: quietLogger).test(.live) { client in
            let place = try await client.execute(
                uri: try ServedFolder.signed("/edit/beach.jpg?aspect=4:3&size=120x90&format=png"), method: .get
            ) { try #require($0.headers[.location]) }
            let box = SessionBox()
            try await client.ws(place + "api/session") { inbound, outbound, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                func next() async throws -> Reply {
                    guard case .text(let text) = try #require(await messages.next()) else { throw CancellationError() }
                    return try JSONDecoder().decode(Reply.self, from: Data(text.utf8))
                }
                let hello = try await next()
                #expect(hello.hostPages == ["https://app.example.com"] && hello.constraints?.aspect == "4:3")
                #expect(hello.uploads == false, "the page is told it cannot open other pictures")
                await box.set(try #require(hello.session))
                try await outbound.write(
                    .text(
                        #"{"type":"viewport","width":800,"height":600,"insets":{"top":0,"left":0,"bottom":0,"right":0}}"#
                    ))
                #expect(try await next().type == "state")
                try await outbound.write(.text(#"{"type":"straighten","angle":3,"final":true}"#))
                let straightened = try await next()
                #expect(straightened.state?.angle == 3, "\(straightened)")
            }
            let session = await box.session
            struct Done: Decodable {
                var width: Int
                var height: Int
                var url: String?
            }
            let done = try await client.execute(uri: place + "api/sessions/\(session)/done", method: .post) {
                response in
                try JSONDecoder().decode(Done.self, from: Data(response.body.readableBytesView))
            }
            #expect(done.width == 120 && done.height == 90)
            let url = try #require(done.url)
            #expect(
                url.hasPrefix("/img/beach.jpg?recipe=") && url.contains("&size=120x90&mode=fill&format=png&sig="),
                "\(url)")
            let (status, type, bytes) = try await client.execute(uri: url, method: .get) {
                ($0.status, $0.headers[.contentType], Array($0.body.readableBytesView))
            }
            #expect(status == .ok && type == "image/png")
            #expect(try Image(source: .data(bytes)).size == PixelSize(validWidth: 120, height: 90))
            // The URL is signed: changed, it is refused.
            let tampered = url.replacingOccurrences(of: "size=120x90", with: "size=1200x900")
            #expect(try await client.execute(uri: tampered, method: .get) { $0.status } == .forbidden)
        }
    }
}

/// The session id a WebSocket conversation learned, for the requests after it.
actor SessionBox {
    var session = ""
    func set(_ id: String) { session = id }
}
