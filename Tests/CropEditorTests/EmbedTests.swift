import CropKit
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HummingbirdWSTesting
import NIOCore
import Testing

@testable import CropEditor

/// Embedding the editor in a host page: who may frame it, what the hello tells the page, and what Done answers.
@Suite("Embedding in a host page")
struct EmbedTests {
    @Test("host page origins are normalised and deduplicated; anything but scheme://host[:port] is refused by name")
    func origins() throws {
        let origins = try HostPageOrigins([
            "HTTPS://App.Example.com:443", "http://127.0.0.1:8080/", "https://app.example.com", "http://[::1]:9000",
        ])
        #expect(origins.origins == ["https://app.example.com", "http://127.0.0.1:8080", "http://[::1]:9000"])
        #expect(origins.frameAncestors == "https://app.example.com http://127.0.0.1:8080 http://[::1]:9000")
        #expect(HostPageOrigins.none.frameAncestors == "'none'")
        let refused: [(String, String)] = [
            ("*", "is not an origin"), ("https://*.example.com", "no wildcards"), ("ftp://example.com", "http://"),
            ("https://example.com/app", "no path"), ("https://example.com?x=1", "no path or query"),
            ("example.com", "is not an origin"), ("https://user@example.com", "no path"),
            ("http://example.com:0", "outside 1…65535"),
        ]
        for (origin, reason) in refused {
            #expect {
                try HostPageOrigins([origin])
            } throws: { error in
                guard case .invalidParameter(let name, let message) = error as? EditorError else { return false }
                return name == "embed-origin" && message.contains(origin) && message.contains(reason)
            }
        }
    }

    @Test("no page may frame the editor unless named: the CSP's frame-ancestors, the hello's hostPages, /embed.js")
    func framing() async throws {
        for hosts in [[], ["https://app.example.com", "http://127.0.0.1:9"]] {
            let server = try makeServer { $0.hostPages = try! HostPageOrigins(hosts) }
            try await server.makeApplication(logger: quietLogger).test(.live) { client in
                try await client.execute(uri: "/", method: .get) { response in
                    let policy = response.headers[.contentSecurityPolicy] ?? ""
                    #expect(
                        policy.hasSuffix(
                            hosts.isEmpty
                                ? "frame-ancestors 'none'"
                                : "frame-ancestors https://app.example.com http://127.0.0.1:9"), "\(policy)")
                }
                try await client.execute(uri: "/embed.js", method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType] == "text/javascript; charset=utf-8")
                    #expect(String(decoding: response.bytes, as: UTF8.self).contains("global.CropKitEditor = { open }"))
                }
                try await client.ws("/api/session") { inbound, outbound, _ in
                    var talk = Conversation(
                        inbound: inbound.messages(maxSize: 1 << 20).makeAsyncIterator(), outbound: outbound)
                    let hello = try await talk.next()
                    #expect(hello.hostPages == (hosts.isEmpty ? nil : hosts))
                }
            }
        }
    }

    @Test("Done for a host page states the recipe, the exact size it renders to and the host's URL; the render agrees")
    func done() async throws {
        for output in [nil, PixelSize(validWidth: 90, height: 60)] {
            let server = try makeServer {
                $0.constraints = try! CropConstraints(outputSize: output)
                $0.resultURL = { id, recipe in "https://images.example.com/\(id)?angle=\(recipe.angle)" }
            }
            let notes = Notes()
            try await server.makeApplication(logger: quietLogger).test(.live) { client in
                try await client.ws("/api/session") { inbound, outbound, _ in
                    var talk = Conversation(
                        inbound: inbound.messages(maxSize: 1 << 20).makeAsyncIterator(), outbound: outbound)
                    await notes.set(session: try #require(try await talk.next().session))
                    _ = try await talk.send(WebSocketProtocolTests().viewport)
                    let straightened = try await talk.send(.straighten(angle: 4, isFinal: true))
                    await notes.set(state: straightened.state)
                }
                let id = await notes.session
                let state = try #require(await notes.state)
                let stated = try await client.execute(uri: "/api/sessions/\(id)/done", method: .post) { response in
                    #expect(response.status == .ok)
                    struct Answer: Decodable {
                        var recipe: Recipe
                        var width: Int
                        var height: Int
                        var url: String?
                    }
                    let answer = try JSONDecoder().decode(Answer.self, from: Data(response.bytes))
                    #expect(answer.recipe == state.recipe)
                    #expect(answer.recipe.angle == 4)
                    let stated = PixelSize(validWidth: answer.width, height: answer.height)
                    #expect(stated == (output ?? state.outputSize), "\(stated)")
                    #expect(answer.url == "https://images.example.com/0?angle=4.0")
                    return stated
                }
                try await client.execute(uri: "/api/sessions/\(id)/render?format=png", method: .post) { response in
                    let rendered = try Image(source: .data(response.bytes))
                    #expect(rendered.size == stated)
                }
                try await client.execute(uri: "/api/sessions/nope/done", method: .post) { response in
                    expectError(response, .notFound, "unknownSession")
                }
            }
        }
    }
}
