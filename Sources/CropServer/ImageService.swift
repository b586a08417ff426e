import CropEditor
import CropKit
import CropWeb
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import Logging
import ServiceLifecycle

/// `cropkit serve`: images from a source folder at `GET /img/<path>?<options>&sig=<signature>`, the options being
/// the command line's flags (CropKit's `ImageQuery`), run as one pipeline (one decode with shrink-on-load, one resampling
/// pass, one encode). It only parses requests, calls the pipeline and writes responses.
///
/// | method | path | answer |
/// |---|---|---|
/// | GET | `/img/<path>?<options>&sig=…` | the image; 304 when `If-None-Match` matches its `ETag` |
/// | GET | `/health` | 200 while the process runs |
/// | GET | `/ready` | 200 when it takes work, 503 while draining |
/// | GET | `/metrics` | Prometheus text (``ServiceMetrics``) |
/// | GET | `/edit/<path>?<options>&sig=…` | with ``ServiceConfiguration/editors``: opens the crop editor on the source (303 to `/editor/<token>/`; see ``HostedEditors``) |
/// | any | `/editor/<token>/…` | that editor's page, API and WebSocket |
/// | GET | `/embed.js` | with editors: the script a host page loads to embed them |
/// | GET | `/web/cropkit-cropper.js`, `/web/cropkit-draw.js`, `/web/cropkit-engine.js`, `/web/cropkit-engine.wasm` | with editors: the drop-in component and the crop engine for an app's pages (cached a day, any origin) |
///
/// Errors are JSON (`{"error": {"message", "problem"}}`), as in the editor: 400 naming the parameter, 403 for a
/// missing or wrong signature, 404 for anything that is not a file inside the folder, 413 past the source limits,
/// 415/422 for files that are not readable images, 503 (with `Retry-After`) when the queue is full or processing
/// times out.
///
/// Caching: the `ETag` is a hash of the source's identity (real path, size, modification time), the options as
/// applied, the negotiated format and CropKit's version, so a 304 costs no decoding; `Vary: Accept` goes with
/// `format=auto`.
public struct ImageService: Sendable {
    /// The configuration.
    public let configuration: ServiceConfiguration
    /// Admission control: ``ServiceConfiguration/concurrency`` slots and a bounded queue.
    public let queue: RenderQueue
    /// Whether the service takes new work (`/ready`); cleared when it starts draining.
    public let readiness = Readiness()
    /// What it counts (`/metrics`).
    public let metrics = ServiceMetrics()

    /// A service over `configuration`.
    public init(configuration: ServiceConfiguration) {
        self.configuration = configuration
        queue = RenderQueue(
            concurrency: configuration.concurrency, capacity: configuration.queueCapacity,
            memory: MemoryBudget(
                capacity: configuration.memoryBudget, requestLimit: configuration.memoryPerRequest,
                queueCapacity: configuration.queueCapacity))
    }

    /// The version that goes into every `ETag`: a new CropKit may render differently.
    public static let version = "cropkit-serve-1"

    /// The HTTP application on `host`:`port` (0 picks a free port); `onServerRunning` gets the bound port.
    public func makeApplication(
        host: String, port: Int, logger: Logger? = nil,
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        return Application(
            router: makeRouter(),
            server: .http1WebSocketUpgrade(
                webSocketRouter: makeWebSocketRouter(),
                configuration: .init(ws: EditorServer.webSocketConfiguration(maximumEventBytes: 16 * 1024))),
            configuration: .init(address: .hostname(host, port: port), serverName: "cropkit"),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
            logger: logger ?? Logger(label: "cropkit.serve"))
    }

    /// Serves on `host`:`port` until SIGTERM or SIGINT, then drains: `/ready` turns 503, the server keeps answering
    /// for `drainDelay`, stops accepting connections, finishes the requests in flight and returns.
    public func run(
        host: String, port: Int, drainDelay: Duration = .zero, logger: Logger? = nil,
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws {
        let logger = logger ?? Logger(label: "cropkit.serve")
        let application = makeApplication(host: host, port: port, logger: logger, onServerRunning: onServerRunning)
        let drain = DrainOnShutdown(readiness: readiness, delay: drainDelay, logger: logger)
        let group = ServiceGroup(
            configuration: .init(
                services: [.init(service: application), .init(service: drain)],
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }

    /// The routes, with JSON errors.
    public func makeRouter() -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.middlewares.add(CloseWhileDraining(readiness: readiness))
        router.middlewares.add(ServiceRequestMiddleware(metrics: metrics))
        router.middlewares.add(WebErrorMiddleware(maximumRequestBytes: 0))
        router.get("/health") { _, _ in Self.json(#"{"status":"ok"}"#) }
        router.get("/ready") { _, _ in
            await readiness.isReady
                ? Self.json(#"{"ready":true}"#)
                : Self.json(#"{"ready":false}"#, status: .serviceUnavailable)
        }
        router.get("/metrics") { _, _ in
            metrics.queueDepth.set(Double(await queue.waitingCount))
            if let memory = queue.memory { await metrics.observe(memory) }
            return Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: metrics.text())))
        }
        router.get("/img/**") { request, _ in
            metrics.inFlight.increment()
            defer { metrics.inFlight.decrement() }
            return try await image(request)
        }
        router.get("/fetch") { request, _ in
            metrics.inFlight.increment()
            defer { metrics.inFlight.decrement() }
            return try await image(request)
        }
        if let editors = configuration.editors {
            router.get("/edit/**") { request, _ in try await openEditor(request, editors: editors) }
            if let script = editors.embedScript {
                router.get("/embed.js") { _, _ in
                    Response(
                        status: .ok,
                        headers: [
                            .contentType: script.contentType, .cacheControl: "public, max-age=300",
                            HTTPField.Name("X-Content-Type-Options")!: "nosniff",
                        ],
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: script.bytes)))
                }
            }
            // The engine and <cropkit-cropper> at a stable path, for an app's own pages (docs/web-component.md).
            for (path, asset) in editors.webAssets {
                router.get(RouterPath(path)) { request, _ in
                    EditorServer.assetResponse(asset, request: request, contentSecurityPolicy: "default-src 'none'")
                }
            }
            for method in [HTTPRequest.Method.get, .post, .delete] {
                router.on("/editor/**", method: method) { request, context in
                    try await forwardToEditor(request, context: context, editors: editors)
                }
            }
        }
        return router
    }

    /// The WebSocket routes: each hosted editor's session, `/editor/<token>/api/session` (none without editors).
    public func makeWebSocketRouter() -> Router<BasicWebSocketRequestContext> {
        let router = Router(context: BasicWebSocketRequestContext.self)
        let editors = configuration.editors
        @Sendable func editor(_ request: Request) async -> EditorServer? {
            guard let editors, let (token, rest) = try? Self.editorPath(request.uri.path), rest == "/api/session"
            else { return nil }
            return await editors.editor(token)?.server
        }
        router.ws("/editor/:token/api/session") { request, _ in
            guard let editor = await editor(request), editor.acceptsWebSocket(request) else { return .dontUpgrade }
            return .upgrade()
        } onUpgrade: { inbound, outbound, context in
            guard let editor = await editor(context.request) else { return }
            try await editor.converse(request: context.request, inbound: inbound, outbound: outbound)
        }
        return router
    }

    /// The request target (path and query) without its `sig`, once the signature is checked (with a signer).
    ///
    /// - Throws: `WebError.forbidden` when the signature is missing, misplaced or wrong.
    func unsignedTarget(_ request: Request) throws(WebError) -> String {
        let target = request.uri.string
        guard let signer = configuration.signer else { return URLSigner.split(target)?.unsigned ?? target }
        guard let (cut, _) = URLSigner.split(target) else {
            throw .forbidden(reason: "the URL has no sig parameter (it must be the last one)")
        }
        guard signer.verify(target) else { throw .forbidden(reason: "the signature does not match") }
        return cut
    }

    /// Answers one image request.
    func image(_ request: Request) async throws -> Response {
        let clock = ContinuousClock(), start = clock.now
        let unsigned = try unsignedTarget(request)
        let pathEnd = unsigned.firstIndex(of: "?") ?? unsigned.endIndex
        let path = unsigned[..<pathEnd]
        let query = pathEnd < unsigned.endIndex ? String(unsigned[unsigned.index(after: pathEnd)...]) : ""
        let fetches = path == "/fetch"
        guard path.hasPrefix("/img/") || (fetches && configuration.origins != nil) else {
            throw WebError.notFound(path: String(path))
        }
        let options = try Self.editorErrors { () throws(CropKitError) in
            try ImageQuery(
                query: query, presets: configuration.presets, onlyPresets: configuration.onlyPresets,
                maximumOutputSide: configuration.maximumOutputSide, acceptsURL: fetches,
                watermarks: configuration.watermarks,
                fonts: configuration.fonts)
        }
        let source: ServedSource
        if let origins = configuration.origins, fetches, let url = options.sourceURL {
            source = .fetched(try await origins.fetch(url))
        } else {
            let file = try configuration.root.resolve(path.dropFirst("/img/".count))
            guard file.size <= configuration.maximumSourceBytes else {
                throw WebError.sourceTooLarge(bytes: file.size, limit: configuration.maximumSourceBytes)
            }
            source = .file(file)
        }
        if let kind = options.placeholder {
            return try await placeholder(kind, options, source, request: request, start: start)
        }

        // The output format, from the header alone when it depends on the source.
        let format: ImageFormat
        func header() throws(WebError) -> ImageInfo {
            try Self.editorErrors { () throws(CropKitError) in try source.image.info() }
        }
        switch options.format {
        case .fixed(let fixed): format = fixed
        case .source:
            let own = try header().format
            // A source that cannot hold the transparency the steps add (JPEG), or cannot be written: PNG.
            format = own.isWritable && !(options.addsTransparency && own == .jpeg) ? own : .png
        case .auto:
            let info = try header()
            let animated = info.isAnimation && options.saveOptions.frames == .all
            format = FormatNegotiation.format(
                accept: request.headers[.accept], hasAlpha: info.hasAlpha || options.addsTransparency,
                animated: animated)
        }
        var headers = cacheHeaders(source, options, kind: format.rawValue)
        if options.format == .auto { headers[.vary] = "Accept" }
        if let unchanged = notModified(request, headers) { return unchanged }
        metrics.record(.fetch, clock.now - start)

        var saveOptions = options.saveOptions
        saveOptions.format = format
        let save = saveOptions, operations = options.operations
        let (encoded, planned) = try await process { pipeline throws(CropKitError) in
            try pipeline.memoryPlan(source.image, operations, to: .data(save))
        } work: { pipeline throws(CropKitError) in
            try pipeline.run(source.image, operations, to: .data(save))
        }
        headers[Self.memoryPlanHeader] = String(planned.peakBytes)
        metrics.sourceBytes.increment(by: Int64(source.byteCount))
        metrics.responseBytes.increment(by: Int64(encoded.bytes.count))
        headers[.contentType] = encoded.format.mimeType
        if let summary = encoded.report.autoStraightenSummary { headers[Self.straightenHeader] = summary }
        if let summary = encoded.report.facesSummary { headers[Self.facesHeader] = summary }
        return Response(
            status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: encoded.bytes)))
    }

    /// `CropKit-Memory-Plan`: the peak memory the request was planned to hold, in bytes (what it reserved from the
    /// memory budget), for sizing `--memory-budget`.
    public static let memoryPlanHeader = HTTPField.Name("CropKit-Memory-Plan")!

    /// `CropKit-Straighten`: what `straighten=auto` measured, so the automatic choice is visible
    /// (`RenderReport.autoStraightenSummary`).
    public static let straightenHeader = HTTPField.Name("CropKit-Straighten")!

    /// `CropKit-Faces`: what `gravity=face` found and kept (`RenderReport.facesSummary`), so a fallback to
    /// attention is visible.
    public static let facesHeader = HTTPField.Name("CropKit-Faces")!

    /// A strong ETag for this output.
    static func etag(identity source: [String], canonical: String, format: ImageFormat) -> String {
        etag(identity: source, canonical: canonical, kind: format.rawValue)
    }

    /// A strong ETag for an output of `kind` (a format's name, or `placeholder`).
    static func etag(identity source: [String], canonical: String, kind: String) -> String {
        let identity = ([version] + source + [canonical, kind]).joined(separator: "\n")
        let digest = SHA256.hash(data: Data(identity.utf8)).prefix(16)
        return "\"" + digest.map { String(format: "%02x", $0) }.joined() + "\""
    }

    /// Whether an `If-None-Match` value matches `etag` (weak comparison, `*` matches anything).
    static func matches(_ header: String, _ etag: String) -> Bool {
        header.split(separator: ",").contains { candidate in
            var tag = candidate.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == etag
        }
    }

    /// Runs `body`, mapping CropKit's errors to the service's answers.
    static func editorErrors<T>(_ body: () throws(CropKitError) -> T) throws(WebError) -> T {
        do {
            return try body()
        } catch {
            throw WebError(error)
        }
    }

    /// `work`'s result, or `WebError.timedOut(seconds:)` after `seconds`; the work itself runs on to its end
    /// (it keeps its slot until then, so a timed-out request still counts against the concurrency limit).
    ///
    /// The deadline holds whatever the scheduler does: work that finishes after it also answers `timedOut`, even
    /// when the timer task had no thread to run on in time (a busy cooperative pool).
    static func withTimeout<T: Sendable, C: Clock<Duration>>(
        _ seconds: Double, clock: C = ContinuousClock(), _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let race = Race<T>()
        let deadline = clock.now.advanced(by: .nanoseconds(Int64(seconds * 1e9)))
        Task {
            let result = await Result { try await work() }
            await race.finish(clock.now > deadline ? .failure(WebError.timedOut(seconds: seconds)) : result)
        }
        let timer = Task {
            try? await clock.sleep(until: deadline, tolerance: nil)
            await race.finish(.failure(WebError.timedOut(seconds: seconds)))
        }
        let result = await race.result()
        timer.cancel()
        return try result.get()
    }

    static func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// The `ETag` and `Cache-Control` of an output of `kind` (a format's name, or `placeholder`).
    func cacheHeaders(_ source: ServedSource, _ options: ImageQuery, kind: String) -> HTTPFields {
        let etag = Self.etag(
            identity: source.identity, canonical: options.canonical + "&headroom=\(configuration.shrinkOnLoadHeadroom)",
            kind: kind)
        return [.eTag: etag, .cacheControl: "public, max-age=\(configuration.cacheMaxAge)"]
    }

    /// Answers `placeholder=`: the JSON of ``Placeholder`` for the picture the other parameters make, with the same
    /// signature, `ETag`, caching, queue, memory budget and timeout as the picture itself.
    func placeholder(
        _ kind: Placeholder.Kind, _ options: ImageQuery, _ source: ServedSource, request: Request,
        start: ContinuousClock.Instant
    ) async throws -> Response {
        var headers = cacheHeaders(source, options, kind: "placeholder")
        if let unchanged = notModified(request, headers) { return unchanged }
        metrics.record(.fetch, ContinuousClock().now - start)
        let operations = options.operations
        let components = options.components.map { (x: $0.width, y: $0.height) }
        let (made, planned) = try await process { pipeline throws(CropKitError) in
            try pipeline.placeholderMemoryPlan(source.image, operations)
        } work: { pipeline throws(CropKitError) in
            try pipeline.placeholder(source.image, operations, kind: kind, components: components)
        }
        let body = made.json
        headers[Self.memoryPlanHeader] = String(planned.peakBytes)
        metrics.sourceBytes.increment(by: Int64(source.byteCount))
        metrics.responseBytes.increment(by: Int64(body.utf8.count))
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }

    /// 304 for a request whose `If-None-Match` matches the `ETag` in `headers` (counted), else `nil`.
    func notModified(_ request: Request, _ headers: HTTPFields) -> Response? {
        guard let match = request.headers[.ifNoneMatch], Self.matches(match, headers[.eTag] ?? "") else { return nil }
        metrics.notModified.increment()
        return Response(status: .notModified, headers: headers)
    }

    /// One request's work, in a slot of the queue and under the processing deadline, on a pipeline with the service's
    /// limits: `plan` gives the peak memory, which is reserved from the budget before `work` decodes anything. Records
    /// the queue and process times; returns the work's result and its plan.
    func process<T: Sendable>(
        plan: @escaping @Sendable (ImagePipeline) throws(CropKitError) -> MemoryPlan,
        work: @escaping @Sendable (ImagePipeline) throws(CropKitError) -> T
    ) async throws -> (T, MemoryPlan) {
        let clock = ContinuousClock(), queued = clock.now
        let pipeline = ImagePipeline(
            limits: configuration.pixelLimits, shrinkOnLoadHeadroom: configuration.shrinkOnLoadHeadroom, maxThreads: 1)
        let queue = queue, metrics = metrics
        return try await queue.withSlot {
            let started = clock.now
            metrics.record(.queue, started - queued)
            defer { metrics.record(.process, clock.now - started) }
            return try await Self.withTimeout(configuration.processingTimeout) {
                let planned = try await queue.perform {
                    try Self.editorErrors { () throws(CropKitError) in try plan(pipeline) }
                }
                let result = try await queue.performReserving(planned.peakBytes) {
                    try Self.editorErrors { () throws(CropKitError) in try work(pipeline) }
                }
                return (result, planned)
            }
        }
    }
}
