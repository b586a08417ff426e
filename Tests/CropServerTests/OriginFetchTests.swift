import CropEditor
import CropKit
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing

@testable import CropServer

/// A loopback origin for the tests: it serves the fixture photo under `/photos/` and records what reaches it.
final class LoopbackOrigin: Sendable {
    let photo: [UInt8]
    private let seen = Mutex<[(path: String, host: String)]>([])

    init() throws {
        photo = Array(try Data(contentsOf: URL(fileURLWithPath: ServedFolder.path + "/beach.jpg")))
    }

    /// The requests that reached the origin: path and `Host` header.
    var requests: [(path: String, host: String)] { seen.withLock { $0 } }

    func makeApplication() -> some ApplicationProtocol {
        let router = Router()
        let photo = ByteBuffer(bytes: self.photo)
        router.middlewares.add(Recorder(origin: self))
        router.get("/photos/beach.jpg") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "image/jpeg", .eTag: "\"v1\""], body: .init(byteBuffer: photo))
        }
        router.get("/photos/no-etag.jpg") { _, _ in Response(status: .ok, body: .init(byteBuffer: photo)) }
        router.get("/photos/redirect") { _, _ in Response(status: .found, headers: [.location: "beach.jpg"]) }
        router.get("/photos/redirect-out") { _, _ in
            Response(status: .movedPermanently, headers: [.location: "/private/beach.jpg"])
        }
        router.get("/photos/loop") { _, _ in Response(status: .temporaryRedirect, headers: [.location: "/photos/loop"])
        }
        router.get("/photos/big.jpg") { _, _ in
            Response(status: .ok, body: .init(byteBuffer: ByteBuffer(repeating: 0xFF, count: 300_000)))
        }
        router.get("/photos/big-stream.jpg") { _, _ in
            // No Content-Length: the cap must stop the body as it arrives.
            Response(
                status: .ok,
                body: ResponseBody { writer in
                    for _ in 0..<30 { try await writer.write(ByteBuffer(repeating: 0xFF, count: 10_000)) }
                    try await writer.finish(nil)
                })
        }
        router.get("/photos/slow.jpg") { _, _ in
            try await Task.sleep(for: .seconds(6))
            return Response(status: .ok, body: .init(byteBuffer: photo))
        }
        router.get("/photos/broken.jpg") { _, _ in Response(status: .internalServerError) }
        router.get("/photos/gone.jpg") { _, _ in Response(status: .gone) }
        router.get("/private/beach.jpg") { _, _ in Response(status: .ok, body: .init(byteBuffer: photo)) }
        return Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: quietLogger)
    }

    struct Recorder: RouterMiddleware {
        let origin: LoopbackOrigin
        func handle(
            _ request: Request, context: BasicRequestContext,
            next: (Request, BasicRequestContext) async throws -> Response
        )
            async throws -> Response
        {
            origin.seen.withLock { $0.append((request.uri.path, request.head.authority ?? "")) }
            return try await next(request, context)
        }
    }

    /// Runs `body` with the origin live on loopback and its port.
    func live<T: Sendable>(_ body: @Sendable @escaping (Int) async throws -> T) async throws -> T {
        try await makeApplication().test(.live) { client in try await body(try #require(client.port)) }
    }
}

@Suite("cropkit serve: HTTP origins (loopback only)")
struct OriginFetchTests {
    /// A service fetching from `allowed` prefixes, private addresses allowed (the origin is on loopback). The default
    /// timeout is 10 minutes: only the timeout test sets a short one, so a machine loaded by the rest of the suite never
    /// turns another test's fetch into a 504 (a busy run once timed out the redirect and ETag tests at 10 s).
    static func service(
        _ allowed: [String], allowPrivate: Bool = true, maximumBytes: Int = 100_000, timeout: Double = 600
    ) throws -> ImageService {
        try ServedFolder.service { configuration in
            configuration.origins = OriginFetcher(
                allowlist: try! OriginAllowlist(allowed), addressGuard: OriginAddressGuard(allowPrivate: allowPrivate),
                maximumBytes: maximumBytes, timeout: timeout, maximumRedirects: 3)
        }
    }

    static func fetch(_ url: String, _ options: String = "&width=100") throws -> String {
        let encoded = url.addingPercentEncoding(
            withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "-._~")))!
        return try ServedFolder.signed("/fetch?url=\(encoded)\(options)")
    }

    @Test("an allowed origin is fetched from the checked address with the name in Host, and rendered like a file")
    func fetches() async throws {
        let origin = try LoopbackOrigin()
        try await origin.live { port in
            for host in ["127.0.0.1", "localhost"] {
                let service = try Self.service(["http://\(host):\(port)/photos/"])
                let answer = try await get(service, try Self.fetch("http://\(host):\(port)/photos/beach.jpg"))
                #expect(answer.status == .ok, "\(message(answer.body))")
                #expect(try Image(source: .data(answer.body)).size == PixelSize(validWidth: 100, height: 75))
                let direct = try ImagePipeline(shrinkOnLoadHeadroom: 1).run(
                    .data(origin.photo), [.resize(width: 100)], to: .data(SaveOptions(format: .jpeg)))
                #expect(answer.body == direct.bytes)
                #expect(answer.headers[.eTag] != nil)
                // `localhost` resolved and checked here, connected to by address, named in Host.
                #expect(origin.requests.last?.host == "\(host):\(port)")
            }
            #expect(origin.requests.count == 2)
        }
    }

    @Test("loopback origins are refused unless private origins are allowed, before any request is sent")
    func loopbackRefused() async throws {
        let origin = try LoopbackOrigin()
        try await origin.live { port in
            for host in ["127.0.0.1", "localhost"] {
                let service = try Self.service(["http://\(host):\(port)/photos/"], allowPrivate: false)
                let answer = try await get(service, try Self.fetch("http://\(host):\(port)/photos/beach.jpg"))
                #expect(answer.status == .forbidden)
                #expect(message(answer.body).contains("loopback"), "\(message(answer.body))")
            }
            #expect(origin.requests.isEmpty)
        }
    }

    @Test("URLs outside the allowlist, and redirects that leave it, are refused; redirects inside are followed")
    func allowlistAndRedirects() async throws {
        let origin = try LoopbackOrigin()
        try await origin.live { port in
            let base = "http://127.0.0.1:\(port)"
            let service = try Self.service([base + "/photos/"])
            for outside in [
                base + "/private/beach.jpg", "http://127.0.0.1:\(port + 1)/photos/beach.jpg",
                "https://127.0.0.1:\(port)/photos/beach.jpg", base + "/photosbeach.jpg",
            ] {
                let answer = try await get(service, try Self.fetch(outside))
                #expect(answer.status == .forbidden, "\(outside)")
                #expect(problem(answer.body) == "forbidden")
            }
            #expect(origin.requests.isEmpty)

            let followed = try await get(service, try Self.fetch(base + "/photos/redirect"))
            #expect(followed.status == .ok, "\(message(followed.body))")
            #expect(origin.requests.map(\.path) == ["/photos/redirect", "/photos/beach.jpg"])

            let out = try await get(service, try Self.fetch(base + "/photos/redirect-out"))
            #expect(out.status == .forbidden)
            #expect(message(out.body).replacingOccurrences(of: "\\/", with: "/").contains("/private/beach.jpg"))
            #expect(!origin.requests.map(\.path).contains("/private/beach.jpg"))

            let loop = try await get(service, try Self.fetch(base + "/photos/loop"))
            #expect(loop.status == .badGateway)
            #expect(problem(loop.body) == "originFailed")
            #expect(message(loop.body).contains("more than 3 redirects"))
        }
    }

    @Test("size cap (with and without Content-Length), timeout, 404/410 and origin errors have their own answers")
    func limits() async throws {
        let origin = try LoopbackOrigin()
        try await origin.live { port in
            let base = "http://127.0.0.1:\(port)/photos/"
            // Only the slow origin meets the 0.5-s timeout; the others get 10 minutes, so a machine loaded by the rest
            // of the suite cannot turn their answers into timeouts (a streamed body once took longer than 0.5 s).
            let quick = try Self.service([base], timeout: 0.5), patient = try Self.service([base])
            let cases: [(String, HTTPResponse.Status, String)] = [
                ("big.jpg", .contentTooLarge, "sourceTooLarge"), ("big-stream.jpg", .contentTooLarge, "sourceTooLarge"),
                ("slow.jpg", .gatewayTimeout, "originTimedOut"), ("missing.jpg", .notFound, "notFound"),
                ("gone.jpg", .notFound, "notFound"), ("broken.jpg", .badGateway, "originFailed"),
            ]
            // The slow origin answers a whole JPEG after 6 s, so its 504 proves the 0.5-s timeout cut the fetch short
            // (a fetch that waited would have rendered it); no wall-clock bound, which a loaded machine could break.
            for (name, status, expected) in cases {
                let service = name == "slow.jpg" ? quick : patient
                let answer = try await get(service, try Self.fetch(base + name))
                #expect(answer.status == status, "\(name): \(message(answer.body))")
                #expect(problem(answer.body) == expected, "\(name)")
            }
            // Nothing listens on port 1: the connection is refused, a 502 (async-http-client retries connecting until
            // the fetch's deadline, so it comes after the 1-second timeout).
            let closed = try await get(
                try Self.service(["http://127.0.0.1:1/"], timeout: 1), try Self.fetch("http://127.0.0.1:1/a.jpg"))
            #expect(closed.status == .badGateway, "\(message(closed.body))")
            #expect(problem(closed.body) == "originFailed")
            #expect(message(closed.body).contains("Connection refused"))
            // The 1-s deadline ends the retries (retried forever, this would hang until the CI step's timeout; no
            // wall-clock bound here, which a busy machine could break).
        }
    }

    @Test("the ETag follows the origin's validator (or the bytes), and If-None-Match answers 304")
    func etags() async throws {
        let origin = try LoopbackOrigin()
        try await origin.live { port in
            let base = "http://127.0.0.1:\(port)/photos/"
            let service = try Self.service([base])
            let withTag = try await get(service, try Self.fetch(base + "beach.jpg"))
            let withoutTag = try await get(service, try Self.fetch(base + "no-etag.jpg"))
            let tag = try #require(withTag.headers[.eTag]), other = try #require(withoutTag.headers[.eTag])
            #expect(tag != other)
            #expect(withTag.body == withoutTag.body)
            let again = try await get(service, try Self.fetch(base + "no-etag.jpg"), headers: [.ifNoneMatch: other])
            #expect(again.status == .notModified)
            #expect(again.body.isEmpty)
        }
    }

    @Test("/fetch needs configured origins and one url; /img takes no url")
    func parameters() async throws {
        let plain = try ServedFolder.service()
        #expect(try await get(plain, Self.fetch("http://127.0.0.1:9/a.jpg")).status == .notFound)
        let service = try Self.service(["http://127.0.0.1:9/"])
        let missing = try await get(service, try ServedFolder.signed("/fetch?width=10"))
        #expect(missing.status == .badRequest)
        #expect(message(missing.body).contains("url"))
        let twice = try await get(
            service, try ServedFolder.signed("/fetch?url=http://127.0.0.1:9/a.jpg&url=http://127.0.0.1:9/b.jpg"))
        #expect(twice.status == .badRequest)
        let relative = try await get(service, try ServedFolder.signed("/fetch?url=/etc/passwd"))
        #expect(relative.status == .badRequest)
        let onImg = try await get(service, try ServedFolder.signed("/img/beach.jpg?url=http://127.0.0.1:9/a.jpg"))
        #expect(onImg.status == .badRequest)
        #expect(message(onImg.body).contains("unknown parameter"))
        let unsigned = try await get(service, "/fetch?url=http://127.0.0.1:9/a.jpg")
        #expect(unsigned.status == .forbidden)
    }
}

@Suite("Origin URLs and the allowlist")
struct OriginAllowlistTests {
    @Test(
        "only absolute http(s) URLs without user information or dot segments parse",
        arguments: [
            ("https://cdn.example.com/a/b.jpg?x=1", "https://cdn.example.com/a/b.jpg?x=1"),
            ("HTTP://CDN.Example.com:80/a.jpg", "http://cdn.example.com/a.jpg"),
            ("http://[::1]:8080/a.jpg", "http://[::1]:8080/a.jpg"),
            ("http://cdn.example.com", "http://cdn.example.com/"),
        ])
    func parses(_ text: String, _ canonical: String) throws {
        #expect(try #require(OriginURL(text)).description == canonical)
    }

    @Test(
        "refused URLs",
        arguments: [
            "ftp://cdn.example.com/a.jpg", "file:///etc/passwd", "/relative.jpg",
            "http://user:pw@cdn.example.com/a.jpg",
            "http://cdn.example.com/a/../../admin", "http://cdn.example.com/a/%2e%2e/admin",
            "http://cdn.example.com/./a",
            "http://cdn.example.com/a%2fb", "http:///a.jpg", "http://cdn.example.com:0/a", "http://cdn.example.com/a b",
            "http://cdn.example.com/a\\b", "javascript:alert(1)",
        ])
    func refuses(_ text: String) {
        #expect(OriginURL(text) == nil, "\(text)")
    }

    @Test("a URL is allowed by scheme, host, port and a path prefix on a segment boundary")
    func allowlist() throws {
        let list = try OriginAllowlist(["https://cdn.example.com/photos/", "http://media.example.org:8080/shop"])
        let allowed = [
            "https://cdn.example.com/photos/a.jpg", "https://CDN.example.com:443/photos/x/y.jpg?v=2",
            "http://media.example.org:8080/shop", "http://media.example.org:8080/shop/a.jpg",
        ]
        let refused = [
            "http://cdn.example.com/photos/a.jpg", "https://cdn.example.com:8443/photos/a.jpg",
            "https://cdn.example.com/photosecret.jpg", "https://cdn.example.com/admin",
            "https://evil.example.com/photos/a.jpg", "https://cdn.example.com.evil.net/photos/a.jpg",
            "http://media.example.org:8080/shopping.jpg", "http://media.example.org/shop/a.jpg",
        ]
        for url in allowed { #expect(list.allows(try #require(OriginURL(url))), "\(url)") }
        for url in refused { #expect(!list.allows(try #require(OriginURL(url))), "\(url)") }
        #expect(throws: ServiceSetupError.badOrigin("cdn.example.com/photos")) {
            try OriginAllowlist(["cdn.example.com/photos"])
        }
        #expect(throws: ServiceSetupError.badOrigin("https://cdn.example.com/?a=1")) {
            try OriginAllowlist(["https://cdn.example.com/?a=1"])
        }
    }

    @Test("redirect locations resolve against the URL and are parsed again")
    func redirects() throws {
        let url = try #require(OriginURL("https://cdn.example.com/photos/a/b.jpg"))
        #expect(url.resolving("c.jpg")?.description == "https://cdn.example.com/photos/a/c.jpg")
        #expect(url.resolving("/x.jpg")?.description == "https://cdn.example.com/x.jpg")
        #expect(url.resolving("http://10.0.0.1/x.jpg")?.host == "10.0.0.1")
        #expect(url.resolving("ftp://cdn.example.com/x.jpg") == nil)
    }
}
