import CropCodecs
import CropKit
import CropTestSupport
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
                // Relative addresses: the page works under any path (cropkit serve hosts it at /editor/<token>/).
                #expect(html.contains("<script src=\"editor.js\""))
                #expect(html.contains("<link rel=\"icon\" href=\"favicon.svg\""))
                #expect(html.contains("aria-label=\"Rotate 90° left\""))
                #expect(response.headers[.contentSecurityPolicy]?.contains("default-src 'none'") == true)
            }
            try await client.execute(uri: "/editor.js", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/javascript; charset=utf-8")
                #expect(String(buffer: response.body).contains("api/session?image="))
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
            // The engine in the page and the drop-in component: a stable path, a day's cache, the page may compile
            // WebAssembly and nothing else may run, and the module is the committed one, byte for byte.
            try await client.execute(uri: "/", method: .get) { response in
                #expect(
                    response.headers[.contentSecurityPolicy]?.contains("script-src 'self' 'wasm-unsafe-eval';") == true)
                #expect(response.headers[.cacheControl] == "no-cache")
            }
            try await client.execute(uri: "/web/cropkit-engine.wasm", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/wasm")
                #expect(response.headers[.cacheControl] == "public, max-age=86400")
                let committed = try Data(
                    contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                        .appendingPathComponent("../../Sources/CropEditor/Resources/web/cropkit-engine.wasm"))
                #expect(Data(buffer: response.body) == committed)
                #expect(Array(Data(buffer: response.body).prefix(4)) == [0x00, 0x61, 0x73, 0x6D])  // "\0asm"
            }
            for script in ["/web/cropkit-engine.js", "/web/cropkit-cropper.js", "/web/cropkit-draw.js"] {
                try await client.execute(uri: script, method: .get) { response in
                    #expect(
                        response.status == .ok && response.headers[.contentType] == "text/javascript; charset=utf-8")
                    #expect(response.headers[.cacheControl] == "public, max-age=86400")
                }
            }
            try await client.execute(uri: "/prediction.js", method: .get) { response in
                #expect(response.status == .notFound)  // retired: the page runs the engine itself
            }
        }
    }

    @Test(
        "the page's assets are gzip-compressed for a browser that accepts it (editor.js to under a third) and cacheable: a strong ETag per encoding, Vary: Accept-Encoding, and a matching If-None-Match gets 304 with no body"
    )
    func compressedAndCacheableAssets() async throws {
        let server = try makeServer()
        let page = try EditorPage()
        let script = try #require(page.assets["/editor.js"])
        #expect(Gzip.decompress(try #require(script.gzipped)) == script.bytes)
        #expect(try #require(script.gzipped).count * 3 < script.bytes.count)
        try await server.makeApplication(logger: quietLogger).test(.router) { client in
            var tag = ""
            try await client.execute(uri: "/editor.js", method: .get, headers: [.acceptEncoding: "br, gzip;q=0.8"]) {
                response in
                #expect(response.status == .ok && response.headers[.contentEncoding] == "gzip")
                #expect(response.headers[.vary] == "Accept-Encoding" && response.headers[.cacheControl] == "no-cache")
                #expect(Gzip.decompress(Array(buffer: response.body)) == script.bytes)
                tag = response.headers[.eTag] ?? ""
                #expect(tag == script.gzippedEntityTag)
            }
            try await client.execute(
                uri: "/editor.js", method: .get, headers: [.acceptEncoding: "gzip", .ifNoneMatch: tag]
            ) { response in
                #expect(response.status == .notModified && response.body.readableBytes == 0)
            }
            // No gzip asked for (or refused with q=0): the bytes as they are, with their own tag.
            for accept in ["identity", "gzip;q=0"] {
                try await client.execute(uri: "/editor.js", method: .get, headers: [.acceptEncoding: accept]) {
                    response in
                    #expect(response.status == .ok && response.headers[.contentEncoding] == nil)
                    #expect(Array(buffer: response.body) == script.bytes && response.headers[.eTag] == script.entityTag)
                }
            }
            try await client.execute(uri: "/editor.js", method: .get, headers: [.ifNoneMatch: script.gzippedEntityTag])
            { response in
                #expect(response.status == .ok, "the gzip tag does not match the plain bytes")
            }
        }
        #expect(
            EditorServer.acceptsGzip("deflate, GZIP") && !EditorServer.acceptsGzip("br")
                && EditorServer.acceptsGzip("*"))
    }

    @Test func healthAndImageDescription() async throws {
        let server = try makeServer {
            $0.renderConcurrency = 3
            $0.renderQueueCapacity = 5
        }
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
                #expect(image.id == "0")
                #expect(
                    image.preview
                        == .init(
                            url: "api/images/0/preview", width: 80, height: 120,
                            contentType: "image/webp"))
            }
            for path in ["/api/preview", "/api/images/0/preview"] {
                try await client.execute(uri: path, method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType] == "image/webp")
                    let preview = try Image(source: .data(response.bytes), appliesOrientation: false)
                    #expect(preview.size == PixelSize(validWidth: 80, height: 120))
                }
            }
        }
    }

    @Test(
        "POST /api/images opens another picture: 201 with its id and preview; bad, empty, oversized and unknown get JSON errors; the oldest upload goes when too many are open"
    )
    func openAnotherPicture() async throws {
        let server = try makeServer {
            $0.maximumUploads = 2
            $0.maximumRequestBytes = 200_000
        }
        let jpeg = try ImageCodec.encode(redDiscScene(x: 700, y: 150, width: 900, height: 300), as: .jpeg)
        try await server.makeApplication(logger: quietLogger).test(.router) { client in
            for n in 1...3 {
                try await client.execute(
                    uri: "/api/images?name=disc\(n).jpg", method: .post,
                    body: ByteBuffer(bytes: jpeg)
                ) { response in
                    #expect(response.status == .created)
                    let image = try JSONDecoder().decode(ImageDescription.self, from: Data(response.bytes))
                    #expect(image.id == "u\(n)" && image.name == "disc\(n).jpg")
                    #expect((image.width, image.height) == (900, 300))
                    #expect(image.preview.url == "api/images/u\(n)/preview")
                    #expect((image.preview.width, image.preview.height) == (120, 40))
                }
            }
            try await client.execute(uri: "/api/images/u3/preview", method: .get) { response in
                #expect(response.status == .ok)
                let preview = try Image(source: .data(response.bytes))
                #expect(preview.size == PixelSize(validWidth: 120, height: 40))
            }
            // Two uploads are kept: the first went to make room; the server's own picture stays.
            expectError(try await client.execute(uri: "/api/images/u1", method: .get) { $0 }, .notFound, "unknownImage")
            try await client.execute(uri: "/api/images/0", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/api/health", method: .get) { response in
                let health = try JSONSerialization.jsonObject(with: Data(response.bytes)) as? [String: Any]
                #expect(health?["images"] as? Int == 3)
            }
            let text = Array("not a picture at all".utf8)
            let notImage = try await client.execute(
                uri: "/api/images?name=notes.txt", method: .post,
                body: ByteBuffer(bytes: text)
            ) { $0 }
            #expect(expectError(notImage, .unsupportedMediaType, "unsupportedImage").contains("not"))
            expectError(try await client.execute(uri: "/api/images", method: .post) { $0 }, .badRequest, "missingImage")
            let big = [UInt8](repeating: 0xFF, count: 300_000)
            expectError(
                try await client.execute(
                    uri: "/api/images?name=big.jpg", method: .post,
                    body: ByteBuffer(bytes: big)
                ) { $0 },
                .contentTooLarge, "requestTooLarge")
            expectError(
                try await client.execute(uri: "/api/images/zz/preview", method: .get) { $0 }, .notFound,
                "unknownImage")
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
