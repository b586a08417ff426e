import CropKit
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import CropEditor

@Suite struct RouteTests {
    @Test func servesThePageItsAssetsAndNothingElse() async throws {
        let server = try makeServer()
        try await server.makeApplication(logger: quietLogger).test(.router) { client in
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                let html = String(buffer: response.body)
                #expect(html.contains("<script src=\"/editor.js\""))
                #expect(html.contains("<link rel=\"icon\" href=\"/favicon.svg\""))
                #expect(html.contains("aria-label=\"Rotate 90° left\""))
                #expect(response.headers[.contentSecurityPolicy]?.contains("default-src 'none'") == true)
            }
            try await client.execute(uri: "/editor.js", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/javascript; charset=utf-8")
                #expect(String(buffer: response.body).contains("/api/session"))
            }
            try await client.execute(uri: "/editor.css", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/css; charset=utf-8")
            }
            // The icon the page links to (a missing one was a console error on every load).
            try await client.execute(uri: "/favicon.svg", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/svg+xml")
                #expect(String(buffer: response.body).hasPrefix("<svg"))
            }
        }
    }

    @Test func healthAndImageDescription() async throws {
        let server = try makeServer { $0.renderConcurrency = 3; $0.renderQueueCapacity = 5 }
        try await server.makeApplication(logger: quietLogger).test(.router) { client in
            try await client.execute(uri: "/api/health", method: .get) { response in
                #expect(response.status == .ok)
                let health = try JSONSerialization.jsonObject(with: Data(response.bytes)) as? [String: Any]
                #expect(health?["status"] as? String == "ok")
                #expect(health?["renderConcurrency"] as? Int == 3)
                #expect(health?["renderQueueCapacity"] as? Int == 5)
                #expect(health?["maximumRequestBytes"] as? Int == 50 * 1024 * 1024)
            }
            try await client.execute(uri: "/api/image", method: .get) { response in
                let image = try JSONDecoder().decode(ImageDescription.self, from: Data(response.bytes))
                #expect(image.name == quadrantsName)
                #expect((image.width, image.height) == (240, 160))
                #expect((image.storedWidth, image.storedHeight) == (160, 240))
                #expect(image.orientation == 6)
                #expect(image.preview == .init(url: "/api/preview", width: 80, height: 120, contentType: "image/jpeg"))
            }
            try await client.execute(uri: "/api/preview", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/jpeg")
                let preview = try Image(source: .data(response.bytes), appliesOrientation: false)
                #expect(preview.size == PixelSize(validWidth: 80, height: 120))
            }
        }
    }

    @Test(arguments: [
        "/../Package.swift", "/..%2F..%2FPackage.swift", "/%2e%2e/%2e%2e/etc/passwd", "/editor.js/../../Package.swift",
        "/Resources/index.html", "/CropKit_CropEditor.resources/Resources/index.html", "//etc/passwd",
        "/index.html", "/api/../../../../etc/passwd", "/Samples/waterfall-orientation6.jpg", "/api/preview/../x",
    ])
    func pathTraversalNeverReachesTheFileSystem(_ path: String) async throws {
        let server = try makeServer()
        try await server.makeApplication(logger: quietLogger).test(.router) { client in
            try await client.execute(uri: path, method: .get) { response in
                // Either no route (404) or a fixed asset — never a file's content from disk.
                let text = String(buffer: response.body)
                #expect(!text.contains("root:"))
                #expect(!text.contains("PackageDescription"))
                if response.status != .ok {
                    expectError(response, .notFound, "notFound")
                }
            }
        }
    }

    @Test func unknownRoutesAndMethodsAnswerJSON() async throws {
        let server = try makeServer()
        try await server.makeApplication(logger: quietLogger).test(.router) { client in
            try await client.execute(uri: "/nothing-here", method: .get) { response in
                let message = expectError(response, .notFound, "notFound")
                #expect(message.contains("/nothing-here"))
            }
            try await client.execute(uri: "/api/render", method: .get) { response in
                #expect(response.status == .notFound || response.status == .methodNotAllowed)
                #expect(response.errorBody != nil)
            }
        }
    }

    @Test func aNonLoopbackHostIsRefused() async throws {
        // A page on another site reaching the editor through DNS rebinding carries its own host name.
        let server = try makeServer()
        try await server.makeApplication(logger: quietLogger).test(.live) { client in
            let port = try #require(client.port)
            try await TestClient.withClient(host: "127.0.0.1", port: port) { raw in
                let refused = try await raw.execute(
                    TestClient.Request("/api/health", method: .get, authority: "evil.example"))
                #expect(refused.head.status == .badRequest)
                #expect(String(buffer: try #require(refused.body)).contains("is not a loopback name"))
                let allowed = try await raw.execute(
                    TestClient.Request("/api/health", method: .get, authority: "127.0.0.1:\(port)"))
                #expect(allowed.head.status == .ok)
            }
        }
    }
}
