import CropEditor
import CropKit
import CropTestSupport
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

@testable import CropServer

/// The folder the tests serve: `beach.jpg` (202×151 JPEG) and `sub/logo.png` (110×52 RGBA).
enum ServedFolder {
    static let path = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.appendingPathComponent("photos")
        .path
    static let key = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
    static let oldKey = "ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100"

    static func service(_ adjust: (inout ServiceConfiguration) -> Void = { _ in }) throws -> ImageService {
        var configuration = ServiceConfiguration.forTests(
            root: try SourceFolder(root: path), signer: try URLSigner(hexKeys: key + "," + oldKey))
        adjust(&configuration)
        return ImageService(configuration: configuration)
    }

    static func signed(_ target: String, key: String = key) throws -> String {
        try URLSigner(hexKeys: key).signed(target)
    }
}

let quietLogger: Logger = {
    var logger = Logger(label: "test")
    logger.logLevel = .critical
    return logger
}()

extension ServiceConfiguration {
    /// A configuration for a test: its processing deadline is an hour, so no answer races the wall clock on a busy
    /// machine (a test starved of threads for half a minute must not get 503 timedOut). The deadline's own tests set
    /// theirs.
    static func forTests(root: SourceFolder, signer: URLSigner?) -> ServiceConfiguration {
        var configuration = ServiceConfiguration(root: root, signer: signer)
        configuration.processingTimeout = 3600
        return configuration
    }
}

/// A GET through Hummingbird's test client: the response's status, headers and body.
func get(_ service: ImageService, _ uri: String, headers: HTTPFields = [:]) async throws
    -> (status: HTTPResponse.Status, headers: HTTPFields, body: [UInt8])
{
    try await service.makeApplication(host: "127.0.0.1", port: 0, logger: quietLogger).test(.router) { client in
        try await client.execute(uri: uri, method: .get, headers: headers) { response in
            (response.status, response.headers, Array(response.body.readableBytesView))
        }
    }
}

/// The `problem` of a JSON error body.
func problem(_ body: [UInt8]) -> String? {
    struct Body: Decodable {
        struct Detail: Decodable {
            var problem: String
            var message: String
        }
        var error: Detail
    }
    return try? JSONDecoder().decode(Body.self, from: Data(body)).error.problem
}

func message(_ body: [UInt8]) -> String { String(decoding: body, as: UTF8.self) }

@Suite("cropkit serve: signed image URLs")
struct ImageServiceTests {
    @Test(
        "memory: each answer says its planned peak; a request planning more than the per-request limit is 413 before decoding"
    )
    func memoryAdmission() async throws {
        let service = try ServedFolder.service { $0.memoryBudget = 64 << 20 }
        let answer = try await get(service, try ServedFolder.signed("/img/beach.jpg?width=100"))
        #expect(answer.status == .ok, "\(message(answer.body))")
        let planned = try #require(answer.headers[ImageService.memoryPlanHeader].flatMap { Int($0) })
        #expect(planned > MemoryPlan.overhead && planned < 16 << 20, "\(planned)")
        let metrics = message(try await get(service, "/metrics").body)
        #expect(metrics.contains("cropkit_memory_budget_bytes 67108864"), "\(metrics)")
        #expect(metrics.contains("cropkit_memory_peak_reserved_bytes \(planned)"), "\(metrics)")

        let tight = try ServedFolder.service {
            $0.memoryBudget = 64 << 20
            $0.memoryPerRequest = planned - 1
        }
        let refused = try await get(tight, try ServedFolder.signed("/img/beach.jpg?width=100"))
        #expect(refused.status == .contentTooLarge)
        #expect(problem(refused.body) == "needsTooMuchMemory", "\(message(refused.body))")
    }

    @Test("a signed URL runs the options as one pipeline: exact size, JPEG, ETag, Cache-Control")
    func signedResize() async throws {
        let service = try ServedFolder.service()
        let answer = try await get(service, try ServedFolder.signed("/img/beach.jpg?width=100&quality=80"))
        #expect(answer.status == .ok, "\(message(answer.body))")
        #expect(answer.headers[.contentType] == "image/jpeg")
        #expect(answer.headers[.cacheControl] == "public, max-age=86400")
        #expect(answer.headers[.vary] == nil)
        let etag = try #require(answer.headers[.eTag])
        #expect(etag.hasPrefix("\"") && etag.count == 34)
        let image = try Image(source: .data(answer.body))
        #expect(image.size == PixelSize(validWidth: 100, height: 75))
        // The same pixels as the library's pipeline gives for the same steps, with the service's shrink-on-load
        // headroom (1: the 202-pixel photo decodes at 1/2 for 100 pixels, where the library's default 2 decodes it whole).
        #expect(service.configuration.shrinkOnLoadHeadroom == 1)
        let direct = try ImagePipeline(shrinkOnLoadHeadroom: 1).run(
            .file(ServedFolder.path + "/beach.jpg"), [.resize(width: 100)],
            to: .data(SaveOptions(format: .jpeg, quality: 80)))
        #expect(answer.body == direct.bytes)
    }

    @Test("missing, wrong, misplaced or tampered signatures get 403; a second (rotating) key is accepted")
    func signatures() async throws {
        let service = try ServedFolder.service()
        let good = try ServedFolder.signed("/img/beach.jpg?width=50")
        let cases: [(String, HTTPResponse.Status)] = [
            ("/img/beach.jpg?width=50", .forbidden),
            (good.replacingOccurrences(of: "width=50", with: "width=51"), .forbidden),
            (good + "&width=60", .forbidden),
            (String(good.dropLast(2)) + "AA", .forbidden),
            ("/img/beach.jpg?width=50&sig=***", .forbidden),
            (good, .ok),
            (try ServedFolder.signed("/img/beach.jpg?width=50", key: ServedFolder.oldKey), .ok),
            (try ServedFolder.signed("/img/beach.jpg?width=50", key: String(repeating: "ab", count: 32)), .forbidden),
            (try ServedFolder.signed("/img/beach.jpg"), .ok),
        ]
        for (uri, status) in cases {
            let answer = try await get(service, uri)
            #expect(answer.status == status, "\(uri): \(message(answer.body))")
            if status == .forbidden { #expect(problem(answer.body) == "forbidden") }
        }
    }

    @Test("the signature is the unpadded base64url HMAC-SHA256 of the target before &sig=")
    func signatureFormat() throws {
        let signer = try URLSigner(hexKeys: ServedFolder.key)
        let target = "/img/a%20b.jpg?width=500&format=auto"
        let mac = HMAC<SHA256>.authenticationCode(
            for: Data(target.utf8), using: SymmetricKey(data: URLSigner.hexBytes(ServedFolder.key)!))
        let expected = Data(mac).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        #expect(signer.signed(target) == target + "&sig=" + expected)
        #expect(signer.signed("/img/a.jpg").hasPrefix("/img/a.jpg?sig="))
        #expect(signer.verify(signer.signed(target)))
        // FuzzServiceRequest's find: a target with "&sig=" in its path and no query was signed with "?sig=" after
        // it, and the split took the earlier one, so the URL the signer made did not verify.
        for odd in ["/img/a.jto&sig=abmage/webp", "/img/a.jpg?sig=x&width=3", "/img/a?b?sig=c", "/img/&sig=&sig="] {
            #expect(signer.verify(signer.signed(odd)), "\(odd)")
            #expect(URLSigner.split(signer.signed(odd))?.unsigned == odd)
        }
        #expect(throws: SigningKeyError.self) { try URLSigner(hexKeys: "abc") }
        #expect(throws: SigningKeyError.self) { try URLSigner(hexKeys: "abcd") }
        #expect(throws: SigningKeyError.self) { try URLSigner(hexKeys: " \n# none\n") }
    }

    @Test("traversal, encoded or not, symlinks out of the folder, folders and missing files are all 404")
    func traversal() async throws {
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cropkit-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: outside) }
        let served = outside.appendingPathComponent("served").path
        try FileManager.default.createDirectory(atPath: served, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: ServedFolder.path + "/beach.jpg", toPath: outside.path + "/secret.jpg")
        try FileManager.default.copyItem(atPath: ServedFolder.path + "/beach.jpg", toPath: served + "/inside.jpg")
        try FileManager.default.createSymbolicLink(
            atPath: served + "/escape.jpg", withDestinationPath: outside.path + "/secret.jpg")
        try FileManager.default.createSymbolicLink(
            atPath: served + "/alias.jpg", withDestinationPath: served + "/inside.jpg")
        let service = ImageService(
            configuration: ServiceConfiguration.forTests(root: try SourceFolder(root: served), signer: nil))
        for path in [
            "../secret.jpg", "%2e%2e/secret.jpg", "%2E%2E%2Fsecret.jpg", "sub/../../secret.jpg", "escape.jpg",
            "./inside.jpg", "/inside.jpg", "", "missing.jpg", "inside.jpg%00.png", "..%5csecret.jpg",
        ] {
            let answer = try await get(service, "/img/" + path)
            #expect(answer.status == .notFound, "\(path): \(answer.status)")
            #expect(problem(answer.body) == "notFound")
        }
        #expect(try await get(service, "/img/inside.jpg").status == .ok)
        #expect(try await get(service, "/img/alias.jpg").status == .ok)  // a link that stays inside is fine
        let folder = ImageService(
            configuration: ServiceConfiguration.forTests(root: try SourceFolder(root: outside.path), signer: nil))
        #expect(try await get(folder, "/img/served").status == .notFound)
        #expect(try await get(folder, "/img/served/inside.jpg").status == .ok)
    }

    @Test(
        "every option: the CLI's names and values, with exact sizes",
        arguments: [
            ("width=101", 101, 76), ("height=50", 67, 50), ("size=60x60", 60, 45), ("size=60x60&mode=fill", 60, 60),
            ("size=60x60&mode=pad&background=white", 60, 60), ("size=60x40&mode=stretch", 60, 40),
            ("size=60x60&mode=fill&gravity=top-left&filter=mitchell&linear", 60, 60),
            ("turn=90", 151, 202), ("turn=-90&flip=horizontal,vertical", 151, 202), ("rect=10,20,100,50", 100, 50),
            ("aspect=1:1", 151, 151), ("aspect=16:9&width=160", 160, 90), ("straighten=5&aspect=3:2&width=90", 90, 60),
            ("flip=vertical&flip=horizontal&width=40", 40, 30),
        ])
    func options(_ query: String, _ width: Int, _ height: Int) async throws {
        let service = try ServedFolder.service()
        let answer = try await get(service, try ServedFolder.signed("/img/beach.jpg?" + query))
        #expect(answer.status == .ok, "\(query): \(message(answer.body))")
        let image = try Image(source: .data(answer.body))
        #expect(image.size == PixelSize(validWidth: width, height: height), "\(query)")
    }

    @Test("a recipe (base64url JSON) gives the same pixels as the same crop in flags")
    func recipe() async throws {
        let service = try ServedFolder.service()
        let recipe = try Recipe(
            cropCenter: Point(x: 0.5, y: 0.5), cropSize: Size(width: 0.5, height: 0.5), quarterTurns: 1)
        let encoded = try recipe.json().base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        let answer = try await get(service, try ServedFolder.signed("/img/beach.jpg?recipe=\(encoded)&format=png"))
        #expect(answer.status == .ok, "\(message(answer.body))")
        let direct = try ImagePipeline().run(
            .file(ServedFolder.path + "/beach.jpg"),
            [.recipe(recipe), .fit(within: PixelSize(validWidth: 8192, height: 8192))])
        let served = try Image(source: .data(answer.body))
        #expect(served.pixels == direct.pixels)
        let both = try await get(service, try ServedFolder.signed("/img/beach.jpg?recipe=\(encoded)&turn=90"))
        #expect(both.status == .badRequest && message(both.body).contains("turn"))
    }

    @Test(
        "unknown or invalid options get 400 with a JSON error naming the parameter",
        arguments: [
            ("colour=red", "colour"), ("width=0", "width"), ("width=abc", "width"), ("width=9000", "width"),
            ("size=10x", "size"), ("width=10&height=10", "height"), ("turn=45", "turn"), ("flip=diagonal", "flip"),
            ("straighten=60", "straighten"), ("aspect=wide", "aspect"), ("rect=1,2,3", "rect"),
            ("mode=zoom&size=9x9", "mode"),
            ("gravity=middle&width=9", "gravity"), ("filter=sinc&width=9", "filter"), ("format=bmp", "format"),
            ("quality=101", "quality"), ("icc=p3", "icc"), ("metadata=some", "metadata"),
            ("linear=maybe&width=9", "linear"),
            ("mode=fill", "mode"), ("background=white&width=9", "background"), ("recipe=!!", "recipe"),
            ("preset=none", "preset"), ("strip&metadata=keep", "strip"),
        ])
    func invalidOptions(_ query: String, _ name: String) async throws {
        let service = try ServedFolder.service()
        let answer = try await get(service, try ServedFolder.signed("/img/beach.jpg?" + query))
        #expect(answer.status == .badRequest, "\(query): \(answer.status)")
        #expect(problem(answer.body) == "invalidParameter" || problem(answer.body) == "invalidRecipe")
        #expect(message(answer.body).contains(name), "\(query): \(message(answer.body))")
    }

    @Test(
        "output settings are refused as the library refuses them, named by their query keys",
        arguments: OutputRuleCase.all.filter(\.inURLs))
    func outputRules(_ rule: OutputRuleCase) async throws {
        let service = try ServedFolder.service()
        let answer = try await get(service, try ServedFolder.signed("/img/beach.jpg?width=40&" + rule.query))
        #expect(answer.status == .badRequest, "\(rule): \(answer.status)")
        #expect(problem(answer.body) == "invalidParameter")
        #expect(
            message(answer.body).contains("invalid \(rule.key): \(rule.reason)"), "\(rule): \(message(answer.body))")
    }

    @Test(
        "format=auto follows Accept (AVIF, JPEG XL when named, WebP, then JPEG, or PNG for alpha) and says Vary: Accept",
        arguments: [
            ("beach.jpg", "image/avif,image/webp,*/*", ImageFormat.avif), ("beach.jpg", "image/webp,*/*;q=0.8", .webp),
            ("beach.jpg", "image/avif;q=0,image/webp", .webp), ("beach.jpg", "*/*", .jpeg), ("beach.jpg", "", .jpeg),
            ("sub/logo.png", "*/*", .png), ("sub/logo.png", "image/webp", .webp), ("beach.jpg", "image/*", .avif),
            ("beach.jpg", "image/jxl,image/webp,*/*", .jxl), ("beach.jpg", "image/avif,image/jxl,*/*", .avif),
            ("beach.jpg", "image/avif;q=0,image/webp,image/*", .webp), ("sub/logo.png", "image/jxl", .jxl),
            ("beach.jpg", "image/jxl;q=0,image/webp", .webp),
        ])
    func formatAuto(_ file: String, _ accept: String, _ format: ImageFormat) async throws {
        let service = try ServedFolder.service()
        let uri = try ServedFolder.signed("/img/\(file)?width=40&format=auto")
        let answer = try await get(service, uri, headers: accept.isEmpty ? [:] : [.accept: accept])
        #expect(answer.status == .ok, "\(message(answer.body))")
        #expect(answer.headers[.contentType] == format.mimeType)
        #expect(answer.headers[.vary] == "Accept")
        #expect(try ImageFormat.detect(answer.body) == format)
    }

    @Test("the source's own format by default: a PNG with alpha stays PNG with alpha; a pad on transparency picks PNG")
    func sourceFormat() async throws {
        let service = try ServedFolder.service()
        let png = try await get(service, try ServedFolder.signed("/img/sub/logo.png?width=55"))
        #expect(png.headers[.contentType] == "image/png")
        let image = try Image(source: .data(png.body))
        #expect(image.size == PixelSize(validWidth: 55, height: 26) && image.pixels.format.hasAlpha)
        let padded = try await get(service, try ServedFolder.signed("/img/beach.jpg?size=50x50&mode=pad&format=auto"))
        #expect(padded.headers[.contentType] == "image/png")
    }

    @Test(
        "an animated GIF keeps its frames: GIF by default, WebP or GIF with format=auto; frames=first or a still format gives one; past the animation limit 413"
    )
    func animation() async throws {
        let service = try ServedFolder.service()
        func answer(_ query: String, accept: String? = nil) async throws -> (
            format: String?, frames: Int?, size: PixelSize
        ) {
            let answer = try await get(
                service, try ServedFolder.signed("/img/sub/spin.gif?" + query),
                headers: accept.map { [.accept: $0] } ?? [:])
            #expect(answer.status == .ok, "\(message(answer.body))")
            let info = try ImageSource.data(answer.body).info()
            return (answer.headers[.contentType], info.frameCount, info.displayedSize)
        }
        let own = try await answer("width=19")
        #expect(own.format == "image/gif" && own.frames == 10 && own.size == PixelSize(validWidth: 19, height: 16))
        #expect(
            try await answer("width=19&format=auto", accept: "image/avif,image/webp,*/*") == (
                "image/webp", 10, own.size
            ))
        #expect(try await answer("width=19&format=auto", accept: "*/*") == ("image/gif", 10, own.size))
        #expect(try await answer("width=19&frames=first") == ("image/gif", nil, own.size))
        #expect(try await answer("width=19&format=png") == ("image/png", nil, own.size))
        #expect(
            try await answer("width=19&format=auto&frames=first", accept: "image/avif,*/*") == (
                "image/avif", nil, own.size
            ))
        let few = try ServedFolder.service {
            $0.pixelLimits = PixelLimits(maxPixels: 10_000, maxAnimationPixels: 12_159)
        }
        let refused = try await get(few, try ServedFolder.signed("/img/sub/spin.gif?width=19"))
        #expect(refused.status == .contentTooLarge && problem(refused.body) == "tooManyAnimationPixels")
        let invalid = try await get(service, try ServedFolder.signed("/img/sub/spin.gif?frames=some"))
        #expect(invalid.status == .badRequest && message(invalid.body).contains("frames"))
    }

    @Test(
        "round: the circle inscribed in the output, transparent outside; a JPEG source becomes PNG, format=jpeg is refused"
    )
    func round() async throws {
        let service = try ServedFolder.service()
        let round = try await get(service, try ServedFolder.signed("/img/beach.jpg?size=60x60&mode=fill&round"))
        #expect(round.status == .ok && round.headers[.contentType] == "image/png")
        let image = try Image(source: .data(round.body))
        #expect(image.size == PixelSize(validWidth: 60, height: 60))
        #expect(image.pixels.pixel(x: 0, y: 0).last == 0 && image.pixels.pixel(x: 59, y: 59).last == 0)
        #expect(image.pixels.pixel(x: 30, y: 30).last == 255 && image.pixels.pixel(x: 30, y: 1).last == 255)
        let refused = try await get(service, try ServedFolder.signed("/img/beach.jpg?width=60&round&format=jpeg"))
        #expect(refused.status == .badRequest && message(refused.body).contains("round"))
        let webp = try await get(service, try ServedFolder.signed("/img/beach.jpg?width=60&round=1&format=webp"))
        #expect(webp.headers[.contentType] == "image/webp")
    }

    @Test("If-None-Match with the ETag gets 304 without a body; the ETag changes with the options and the format")
    func conditional() async throws {
        let service = try ServedFolder.service()
        let uri = try ServedFolder.signed("/img/beach.jpg?width=64&format=auto")
        let first = try await get(service, uri, headers: [.accept: "image/webp"])
        let etag = try #require(first.headers[.eTag])
        let again = try await get(service, uri, headers: [.accept: "image/webp", .ifNoneMatch: "\"x\", W/\(etag)"])
        #expect(again.status == .notModified && again.body.isEmpty && again.headers[.eTag] == etag)
        #expect(again.headers[.vary] == "Accept")
        let jpeg = try await get(service, uri, headers: [.ifNoneMatch: etag])
        #expect(jpeg.status == .ok && jpeg.headers[.eTag] != etag)  // another format, another ETag
        let other = try await get(
            service, try ServedFolder.signed("/img/beach.jpg?width=65&format=auto"), headers: [.accept: "image/webp"])
        #expect(other.headers[.eTag] != etag)
        #expect(
            try await get(service, uri, headers: [.accept: "image/webp", .ifNoneMatch: "*"]).status == .notModified)
    }

    @Test(
        "limits: a source over the byte limit is 413, over the pixel limit 413, past the output side 400; the cap fits an unsized output"
    )
    func limits() async throws {
        let small = try ServedFolder.service { $0.maximumSourceBytes = 1000 }
        let tooBig = try await get(small, try ServedFolder.signed("/img/beach.jpg?width=10"))
        #expect(tooBig.status == .contentTooLarge && problem(tooBig.body) == "sourceTooLarge")
        let few = try ServedFolder.service { $0.pixelLimits = PixelLimits(maxPixels: 10_000) }
        let pixels = try await get(few, try ServedFolder.signed("/img/beach.jpg?width=10"))
        #expect(pixels.status == .contentTooLarge && problem(pixels.body) == "tooManyPixels")
        let capped = try ServedFolder.service { $0.maximumOutputSide = 100 }
        #expect(try await get(capped, try ServedFolder.signed("/img/beach.jpg?width=101")).status == .badRequest)
        let fitted = try await get(capped, try ServedFolder.signed("/img/beach.jpg"))
        let expected = try ImagePipeline().run(
            .file(ServedFolder.path + "/beach.jpg"), [.fit(within: PixelSize(validWidth: 100, height: 100))]
        ).size
        #expect(expected.width == 100)
        #expect(try Image(source: .data(fitted.body)).size == expected)
    }

    @Test("presets expand in place, later parameters win, and only-presets mode refuses anything else")
    func presets() async throws {
        let service = try ServedFolder.service {
            $0.presets = try! PresetFile.parse("# thumbnails\nthumb=size=40x40&mode=fill\n\nsmall=width=30\n")
            $0.onlyPresets = false
        }
        let thumb = try await get(service, try ServedFolder.signed("/img/beach.jpg?preset=thumb"))
        #expect(try Image(source: .data(thumb.body)).size == PixelSize(validWidth: 40, height: 40))
        let only = try ServedFolder.service {
            $0.presets = ["thumb": "size=40x40&mode=fill"]
            $0.onlyPresets = true
        }
        #expect(try await get(only, try ServedFolder.signed("/img/beach.jpg?preset=thumb")).status == .ok)
        let refused = try await get(only, try ServedFolder.signed("/img/beach.jpg?preset=thumb&width=9"))
        #expect(refused.status == .badRequest && message(refused.body).contains("width"))
        #expect(throws: CropKitError.self) { try PresetFile.parse("thumb=a\nthumb=b") }
        #expect(throws: CropKitError.self) { try PresetFile.parse("=width=3") }
    }

    @Test("a full queue answers 503 busy with Retry-After; a processing timeout answers 503 timedOut")
    func backPressure() async throws {
        let service = try ServedFolder.service {
            $0.concurrency = 1
            $0.queueCapacity = 0
        }
        try await service.queue.acquire()  // the only slot is taken
        let busy = try await get(service, try ServedFolder.signed("/img/beach.jpg?width=20"))
        #expect(busy.status == .serviceUnavailable && problem(busy.body) == "busy")
        #expect(busy.headers[.retryAfter] == "1")
        // A 304 needs no slot.
        let etag = try #require(
            try await get(try ServedFolder.service(), try ServedFolder.signed("/img/beach.jpg?width=20")).headers[.eTag]
        )
        #expect(
            try await get(service, try ServedFolder.signed("/img/beach.jpg?width=20"), headers: [.ifNoneMatch: etag])
                .status == .notModified)
        await service.queue.release()
        #expect(try await get(service, try ServedFolder.signed("/img/beach.jpg?width=20")).status == .ok)
        // A straightened 2000-pixel render takes far longer than 1 ms, whatever the scheduler does with the timer (a
        // tiny render could finish before a 1-µs timer task first ran on a loaded machine).
        let hurried = try ServedFolder.service { $0.processingTimeout = 1e-3 }
        let late = try await get(hurried, try ServedFolder.signed("/img/beach.jpg?width=2000&straighten=7"))
        #expect(late.status == .serviceUnavailable && problem(late.body) == "timedOut", "\(message(late.body))")
    }

    @Test("the processing deadline holds even when the timer never gets to run; work inside it is answered")
    func deadlineWithoutTimer() async throws {
        // A clock whose sleeps never end stands for a timer task that finds no thread: work that ends past the
        // deadline is still timed out, and work that ends before it is answered.
        let clock = StalledClock()
        await #expect(throws: EditorError.timedOut(seconds: 1)) {
            try await ImageService.withTimeout(1, clock: clock) {
                clock.advance(by: .seconds(2))
                return 1
            }
        }
        #expect(
            try await ImageService.withTimeout(1, clock: clock) {
                clock.advance(by: .milliseconds(500))
                return 7
            } == 7)
        #expect(try await ImageService.withTimeout(30) { 7 } == 7)
    }

    @Test("/metrics counts requests by route and status, stage times, bytes and 304s in Prometheus text")
    func metrics() async throws {
        let service = try ServedFolder.service()
        try await service.makeApplication(host: "127.0.0.1", port: 0, logger: quietLogger).test(.router) { client in
            let uri = try ServedFolder.signed("/img/beach.jpg?width=30")
            var etag = ""
            try await client.execute(uri: uri, method: .get) { etag = $0.headers[.eTag] ?? "" }
            try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: etag]) {
                #expect($0.status == .notModified)
            }
            try await client.execute(uri: "/img/beach.jpg?width=30", method: .get) { #expect($0.status == .forbidden) }
            try await client.execute(uri: "/health", method: .get) { _ in }
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(response.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
                let text = String(buffer: response.body)
                for line in [
                    #"cropkit_http_requests_total{route="/img",status="200"} 1"#,
                    #"cropkit_http_requests_total{route="/img",status="304"} 1"#,
                    #"cropkit_http_requests_total{route="/img",status="403"} 1"#,
                    #"cropkit_http_requests_total{route="/health",status="200"} 1"#,
                    #"cropkit_request_stage_seconds_count{stage="process"} 1"#,
                    #"cropkit_request_stage_seconds_count{stage="queue"} 1"#,
                    #"cropkit_request_stage_seconds_count{stage="fetch"} 1"#,
                    "cropkit_not_modified_total 1", "cropkit_requests_in_flight 0.0", "cropkit_queue_depth 0.0",
                    "cropkit_source_bytes_total 5308",
                ] {
                    #expect(text.contains(line + "\n"), "\(line) not in\n\(text)")
                }
                #expect(
                    text.contains("cropkit_response_bytes_total ") && !text.contains("cropkit_response_bytes_total 0\n")
                )
            }
        }
    }

    @Test("gravity=attention|entropy and focus=x,y reach the pipeline; bad or contradicting values are 400")
    func smartGravity() async throws {
        let service = try ServedFolder.service()
        for query in [
            "size=60x60&mode=fill&gravity=attention", "size=60x60&mode=fill&gravity=entropy",
            "size=60x60&mode=fill&focus=0.2,0.8", "size=60x60&mode=fill",
        ] {
            let answer = try await get(service, try ServedFolder.signed("/img/beach.jpg?\(query)"))
            #expect(answer.status == .ok, "\(query): \(message(answer.body))")
            #expect(try Image(source: .data(answer.body)).size == PixelSize(validWidth: 60, height: 60))
        }
        for (query, name) in [
            ("size=60x60&mode=fill&focus=2,0.5", "focus"), ("size=60x60&mode=fill&focus=0.5", "focus"),
            ("size=60x60&mode=fill&focus=0.5,0.5&gravity=top", "focus"),
            ("size=60x60&mode=pad&gravity=entropy", "gravity"), ("size=60x60&gravity=faces", "gravity"),
            ("size=60x60&gravity=face", "gravity"), ("width=60&gravity=top", "gravity"),
            ("size=60x60&mode=stretch&gravity=attention", "gravity"),
        ] {
            let answer = try await get(service, try ServedFolder.signed("/img/beach.jpg?\(query)"))
            #expect(answer.status == .badRequest, "\(query)")
            #expect(message(answer.body).contains("invalid \(name)"), "\(query): \(message(answer.body))")
        }
    }

    @Test(
        "gravity=face keeps the people and says so (CropKit-Faces); blur=faces hides them and changes nothing else; bad blur values are 400"
    )
    func faces() async throws {
        let service = try ServedFolder.service()
        let avatar = try await get(
            service, try ServedFolder.signed("/img/group.jpg?size=96x96&mode=fill&gravity=face&format=png"))
        #expect(avatar.status == .ok, "\(message(avatar.body))")
        #expect(avatar.headers[ImageService.facesHeader] == "found=2; kept=2; placed-by=face")
        let direct = try ImagePipeline(shrinkOnLoadHeadroom: 1).run(
            .file(ServedFolder.path + "/group.jpg"), [.fill(96, 96, gravity: .face)])
        #expect(try Image(source: .data(avatar.body)).pixels == direct.pixels)
        let beach = try await get(service, try ServedFolder.signed("/img/beach.jpg?size=60x60&mode=fill&gravity=face"))
        #expect(beach.headers[ImageService.facesHeader] == "found=0; kept=0; placed-by=attention")

        let plain = try await get(service, try ServedFolder.signed("/img/group.jpg?width=300&format=png"))
        let hidden = try await get(
            service, try ServedFolder.signed("/img/group.jpg?width=300&format=png&blur=faces&blur-style=pixelate"))
        #expect(hidden.status == .ok, "\(message(hidden.body))")
        let before = try Image(source: .data(plain.body)).pixels, after = try Image(source: .data(hidden.body)).pixels
        let changed = (0..<before.height).flatMap { y in (0..<before.width).map { x in (x, y) } }
            .filter { before.pixel(x: $0.0, y: $0.1) != after.pixel(x: $0.0, y: $0.1) }
        #expect(changed.count > 2000 && changed.count < before.pixelCount / 2, "\(changed.count) pixels changed")
        #expect(plain.headers[.eTag] != hidden.headers[.eTag])
        for (query, name) in [
            ("blur=all", "blur"), ("blur=faces&blur-strength=5", "blur-strength"),
            ("blur-style=pixelate", "blur-style"),
        ] {
            let answer = try await get(service, try ServedFolder.signed("/img/group.jpg?width=100&\(query)"))
            #expect(
                answer.status == .badRequest && message(answer.body).contains("invalid \(name)"),
                "\(query): \(message(answer.body))")
        }
    }

    @Test("/health and /ready answer; ready turns 503 once draining, and every answer then closes its connection")
    func health() async throws {
        let service = try ServedFolder.service()
        let image = try ServedFolder.signed("/img/beach.jpg?width=20")
        #expect(try await get(service, "/health").status == .ok)
        #expect(try await get(service, "/ready").status == .ok)
        #expect(try await get(service, image).headers[.connection] == nil)
        await service.readiness.drain()
        let ready = try await get(service, "/ready")
        #expect(ready.status == .serviceUnavailable)
        #expect(try await get(service, "/health").status == .ok)
        // Draining: images are still served, but no connection is kept for a load balancer to reuse.
        let drained = try await get(service, image)
        #expect(drained.status == .ok)
        let missing = try await get(service, "/nothing")
        #expect(missing.status == .notFound)
        for answer in [ready, drained, missing] { #expect(answer.headers[.connection] == "close") }
    }

    @Test("a source that is not an image is 415, a truncated one 422, each with no image bytes")
    func badSources() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cropkit-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("not an image".utf8).write(to: folder.appendingPathComponent("text.jpg"))
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: ServedFolder.path + "/beach.jpg"))
        try jpeg.prefix(jpeg.count / 2).write(to: folder.appendingPathComponent("cut.jpg"))
        let service = ImageService(
            configuration: ServiceConfiguration.forTests(root: try SourceFolder(root: folder.path), signer: nil))
        let text = try await get(service, "/img/text.jpg?width=10")
        #expect(text.status == .unsupportedMediaType && problem(text.body) == "unsupportedImage")
        let cut = try await get(service, "/img/cut.jpg?width=10")
        #expect(cut.status == .unprocessableContent && problem(cut.body) == "corruptImage", "\(message(cut.body))")
    }
}
