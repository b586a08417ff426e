import CropKit
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import ServiceLifecycle

/// The `cropkit edit` server: one single-page editor for one picture, driven over a WebSocket by the crop engine's
/// `CropSession`, plus an HTTP render API for apps.
///
/// Routes (a fixed set; nothing else is served, and no request path reaches the file system):
///
/// | method | path | answer |
/// |---|---|---|
/// | GET | `/`, `/editor.js`, `/editor.css`, `/favicon.svg`, `/embed.js` | the page (package resources, read once) |
/// | GET | `/web/cropkit-engine.js`, `/web/cropkit-engine.wasm`, `/web/cropkit-cropper.js`, `/web/cropkit-draw.js` | the crop engine in the page and the drop-in component (cached for a day) |
/// | GET | `/api/health` | `{"status": "ok", …}` |
/// | GET | `/api/image`, `/api/images/{id}` | a picture's description (sizes, orientation, preview); the first is the picture the server started with |
/// | GET | `/api/preview`, `/api/images/{id}/preview[?side=N]` | its preview image (stored orientation, downscaled once; with `side`, sized to the stage, AVIF or WebP by `Accept`) |
/// | POST | `/api/images?name=…` | open another picture: the body is the file (at most ``EditorServer/Configuration/maximumRequestBytes``); 201 with its description |
/// | GET (WebSocket) | `/api/session?image=…&id=…` | the editor protocol on picture `image` (default the first; see ``EditorProtocol``) |
/// | POST | `/api/sessions/{id}/render?format=jpeg\|png&quality=…` | Done: the session's recipe rendered at full resolution |
/// | POST | `/api/sessions/{id}/done` | Done in a host page: the recipe, the size it renders to, and a signed image URL when the host configured one (see ``EditorServer/Configuration/resultURL``) |
/// | GET | `/embed.js` | the script a host page uses to embed the editor |
/// | DELETE | `/api/sessions/{id}` | Cancel: the session is discarded (and a photo's saved crop put back as it was) |
/// | GET | `/api/images` | the server's own pictures, for the page's strip (names, saved-crop marks, thumbnails) |
/// | GET | `/api/images/{id}/thumbnail` | a picture's thumbnail, with its saved crop |
/// | GET | `/api/images/{id}/region?x=&y=&width=&height=&outWidth=&outHeight=` | part of the picture from the source, at the screen's resolution (zoomed past the preview) |
/// | POST | `/api/sessions/{id}/copy?to=next\|all` | gives the next photo, or all others, the session's crop (saved beside each) |
/// | POST, GET | `/api/export` | Export all: starts (202), then its progress |
/// | POST | `/api/render?recipe=…&straighten=auto&format=…&quality=…&maxWidth=…&maxHeight=…` | an image (raw body or multipart) rendered with a recipe, auto-straightened, or both |
///
/// Every error is JSON (`{"error": {"message", "problem"}}`) with a 4xx status, or 503 when the render queue is full.
public struct EditorServer: Sendable {
    /// The settings.
    public let configuration: EditorServer.Configuration
    /// Every picture the server can edit: its own (one picture, or a folder's photos) and those opened in the page.
    public let library: EditorLibrary
    /// The page's files.
    public let page: EditorPage
    /// The render admission queue shared by the render API, Done and Export all.
    public let renderQueue: RenderQueue
    /// Where new sessions on the first picture start (`nil`: as the library says, see
    /// ``EditorLibrary/startRecipe(of:)``).
    public let start: EditorStart?
    /// "Export all", when the library's pictures are files.
    public let export: FolderExport?
    let sessions: EditSessionStore
    /// Stage-sized previews made so far (``stagePreview(id:request:)``).
    let previewCache = PreviewCache()

    /// Creates a server for one picture held in memory, whose sessions start at `start` (a proposal or a saved
    /// recipe) when given. Nothing is saved beside it.
    public init(
        image: EditedImage, configuration: EditorServer.Configuration = EditorServer.Configuration(), page: EditorPage,
        start: EditorStart? = nil
    ) {
        self.init(
            library: EditorLibrary([image], maximumUploads: configuration.maximumUploads),
            configuration: configuration, page: page, start: start)
    }

    /// Creates a server for `library`'s pictures (``EditorLibrary/init(files:pipeline:previewMaximumSide:maximumUploads:start:)``
    /// for a folder or a file list: crops are saved beside the photos, and Export all writes to `exportFolder`).
    ///
    /// - Parameters:
    ///   - library: the pictures.
    ///   - configuration: the settings.
    ///   - page: the page's files.
    ///   - start: where sessions on the first picture start, overriding the library's start for it.
    ///   - exportFolder: where Export all writes (default: `cropkit-export` beside the first photo); unused when
    ///     the library holds no files.
    ///   - renderQueue: the render admission queue to share (for example a service's, so that its editors count
    ///     against its concurrency); default a new one from the configuration.
    public init(
        library: EditorLibrary, configuration: EditorServer.Configuration = EditorServer.Configuration(),
        page: EditorPage,
        start: EditorStart? = nil, exportFolder: String? = nil, renderQueue: RenderQueue? = nil
    ) {
        self.configuration = configuration
        self.library = library
        self.page = page
        self.start = start
        self.renderQueue =
            renderQueue
            ?? RenderQueue(
                concurrency: configuration.renderConcurrency, capacity: configuration.renderQueueCapacity)
        self.sessions = EditSessionStore(
            lifetime: configuration.sessionLifetime, capacity: configuration.maximumSessions,
            sessionConfiguration: configuration.session, constraints: configuration.constraints, now: configuration.now)
        if let first = library.path(of: library.firstID) {
            let folder =
                exportFolder
                ?? ((first as NSString).deletingLastPathComponent as NSString)
                .appendingPathComponent("cropkit-export")
            self.export = FolderExport(folder: folder, concurrency: configuration.renderConcurrency)
        } else {
            self.export = nil
        }
    }

    /// The HTTP application: the routes above, listening on ``EditorServer/Configuration/host`` and ``EditorServer/Configuration/port``.
    ///
    /// - Parameters:
    ///   - logger: the server's logger (default: one labelled `cropkit.edit`); its level is raised to warning
    ///     if it is lower.
    ///   - onServerRunning: called once the server listens, with its bound port (useful with port 0).
    public func makeApplication(
        logger: Logger? = nil, onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        var logger = logger ?? Logger(label: "cropkit.edit")
        if logger.logLevel < .warning { logger.logLevel = .warning }
        return Application(
            router: makeRouter(),
            server: .http1WebSocketUpgrade(
                webSocketRouter: makeWebSocketRouter(),
                configuration: .init(
                    ws: Self.webSocketConfiguration(maximumEventBytes: configuration.maximumEventBytes))),
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port), serverName: "cropkit"),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
            logger: logger)
    }

    /// Serves until SIGTERM or SIGINT, then stops: every open page's connection saves its pending edit and is
    /// closed ("going away"; the page reconnects when a server is back), and requests in flight get at most
    /// `gracePeriod` to finish before they are cancelled.
    ///
    /// - Parameters:
    ///   - gracePeriod: the longest the graceful stop waits.
    ///   - logger: as for ``makeApplication(logger:onServerRunning:)``.
    ///   - onServerRunning: called once the server listens, with its bound port.
    public func run(
        gracePeriod: Duration = .milliseconds(1500), logger: Logger? = nil,
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws {
        let application = makeApplication(logger: logger, onServerRunning: onServerRunning)
        var configuration = ServiceGroupConfiguration(
            services: [.init(service: application)], gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger ?? Logger(label: "cropkit.edit"))
        configuration.maximumGracefulShutdownDuration = gracePeriod
        try await ServiceGroup(configuration: configuration).run()
    }

    /// The editor's WebSocket settings: frames up to `maximumEventBytes`, and a page that does not answer the close
    /// handshake (on a stop, or after an error) is let go after 1 s instead of the library's 15: `cropkit edit` stopped
    /// on SIGTERM once took over 30 s waiting for a page's close frame.
    /// A page asset: gzip-compressed for a browser that accepts it, cacheable with revalidation (`no-cache` and a
    /// strong ETag; a matching `If-None-Match` gets 304 without a body).
    ///
    /// The engine and the component under `/web/` keep a stable path for pages elsewhere (an app's page loading
    /// `<cropkit-cropper>` from `cropkit serve`): they are cached for a day (then revalidated by their ETag) and may
    /// be loaded from any origin (`Access-Control-Allow-Origin: *`; they are public files, sent without credentials).
    package static func assetResponse(
        _ asset: EditorPage.Asset, request: Request, contentSecurityPolicy: String
    ) -> Response {
        let gzip = asset.gzipped.flatMap { Self.acceptsGzip(request.headers[.acceptEncoding]) ? $0 : nil }
        let tag = gzip == nil ? asset.entityTag : asset.gzippedEntityTag
        // The page's own files are revalidated every time.
        let shared = request.uri.path.contains("/web/")
        var headers: HTTPFields = [
            .contentType: asset.contentType, .cacheControl: shared ? "public, max-age=86400" : "no-cache", .eTag: tag,
            .vary: "Accept-Encoding", .contentSecurityPolicy: contentSecurityPolicy, .xContentTypeOptions: "nosniff",
        ]
        if shared { headers[.accessControlAllowOrigin] = "*" }
        if let match = request.headers[.ifNoneMatch],
            match.split(separator: ",").contains(where: { $0.trimmingSpaces == tag || $0.trimmingSpaces == "*" })
        {
            return Response(status: .notModified, headers: headers)
        }
        if gzip != nil { headers[.contentEncoding] = "gzip" }
        return Response(
            status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: gzip ?? asset.bytes)))
    }

    /// Whether an `Accept-Encoding` header takes gzip (by name or `*`, with a quality above 0).
    static func acceptsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        return header.split(separator: ",").contains { item in
            let parts = item.split(separator: ";").map { $0.trimmingSpaces.lowercased() }
            guard let name = parts.first, name == "gzip" || name == "*" else { return false }
            let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return quality > 0
        }
    }

    package static func webSocketConfiguration(maximumEventBytes: Int) -> WebSocketServerConfiguration {
        WebSocketServerConfiguration(maxFrameSize: max(1024, maximumEventBytes), closeTimeout: .seconds(1))
    }

    // MARK: HTTP routes

    /// The HTTP router (everything but the WebSocket).
    public func makeRouter() -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.middlewares.add(EditorErrorMiddleware(maximumRequestBytes: configuration.maximumRequestBytes))
        router.middlewares.add(LoopbackHostMiddleware(host: configuration.host))
        for (path, asset) in page.assets {
            router.get(RouterPath(path)) { request, _ in
                Self.assetResponse(asset, request: request, contentSecurityPolicy: contentSecurityPolicy)
            }
        }
        router.get("/api/health") { _, _ in try await health() }
        router.get("/api/image") { _, _ in
            try jsonResponse(ImageDescription(try await library.image(library.firstID), id: library.firstID))
        }
        router.get("/api/preview") { _, _ in previewResponse(try await library.image(library.firstID)) }
        router.get("/api/images") { _, _ in try await folderList() }
        router.get("/api/images/:image/thumbnail") { _, context in
            let thumbnail = try await library.thumbnail(of: try context.parameters.require("image"))
            return Response(
                status: .ok,
                headers: [
                    .contentType: thumbnail.format.mimeType, .cacheControl: "private, max-age=3600",
                    .xContentTypeOptions: "nosniff",
                ],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: thumbnail.bytes)))
        }
        router.get("/api/images/:image/region") { request, context in
            try await renderRegion(id: try context.parameters.require("image"), request: request)
        }
        router.post("/api/sessions/:id/copy") { request, context in
            try await copyCrop(session: try context.parameters.require("id"), request: request)
        }
        router.post("/api/export") { _, _ in try await startExport() }
        router.get("/api/export") { _, _ in
            guard let export else { throw EditorError.noFolder }
            return try jsonResponse(await export.progress)
        }
        router.get("/api/images/:image") { _, context in
            let id = try context.parameters.require("image")
            return try jsonResponse(ImageDescription(try await library.image(id), id: id))
        }
        router.get("/api/images/:image/preview") { request, context in
            try await stagePreview(id: try context.parameters.require("image"), request: request)
        }
        if configuration.acceptsUploads {
            router.post("/api/images") { request, _ in try await open(request) }
            router.post("/api/render") { request, context in try await renderAPI(request) }
        }
        router.post("/api/sessions/:id/render") { request, context in
            try await renderSession(id: try context.parameters.require("id"), request: request)
        }
        router.post("/api/sessions/:id/flush") { _, context in
            // A page leaving (pagehide) sends this as a beacon: the crop is saved now, not a moment later.
            let id = try context.parameters.require("id")
            guard await sessions.contains(session: id) else { throw EditorError.unknownSession(id) }
            await sessions.saver(of: id)?.flush()
            return Response(status: .noContent)
        }
        router.post("/api/sessions/:id/done") { _, context in
            try await finishSession(id: try context.parameters.require("id"))
        }
        router.delete("/api/sessions/:id") { _, context in
            let id = try context.parameters.require("id")
            guard let entry = await sessions.remove(session: id) else { throw EditorError.unknownSession(id) }
            // Cancel puts the photo's saved crop back as it was when the session began.
            try await library.save(entry.savedAtStart, of: entry.imageID)
            return Response(status: .noContent)
        }
        return router
    }

    /// `POST /api/images?name=…`: reads the body as a picture (any format the codecs read, within the pixel limit),
    /// makes its preview with shrink-on-load and keeps it in the library: 201 with its description.
    func open(_ request: Request) async throws -> Response {
        let name = request.uri.queryParameters["name"].map(String.init) ?? "image"
        try checkDeclaredLength(request)
        let bytes = try await collect(request)
        guard !bytes.isEmpty else { throw EditorError.missingImage }
        let pipeline = configuration.pipeline, side = configuration.previewMaximumSide
        let opened: EditedImage
        do {
            opened = try await renderQueue.withSlot {
                try await renderQueue.performPlanned({
                    try EditedImage.previewMemory(bytes: bytes, pipeline: pipeline, previewMaximumSide: side)
                }) {
                    try EditedImage(name: name, bytes: bytes, pipeline: pipeline, previewMaximumSide: side)
                }
            }
        } catch let error as CropKitError {
            throw EditorError(error)
        }
        let id = await library.add(upload: opened)
        var response = try jsonResponse(ImageDescription(opened, id: id))
        response.status = .created
        return response
    }

    /// The page may load only its own script, style, preview and WebSocket, and render blobs, and compile its own
    /// WebAssembly (the crop engine, `web/cropkit-engine.wasm`); only the host pages of
    /// ``EditorServer/Configuration/hostPages`` may frame it.
    var contentSecurityPolicy: String {
        "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' blob:; connect-src 'self'; "
            + "base-uri 'none'; form-action 'none'; frame-ancestors \(configuration.hostPages.frameAncestors)"
    }

    private func health() async throws -> Response {
        struct Health: Encodable {
            var status = "ok"
            var image: String
            var images: Int
            var sessions: Int
            var renderConcurrency: Int
            var renderQueueCapacity: Int
            var maximumRequestBytes: Int
            var maximumPixels: Int
        }
        return try jsonResponse(
            Health(
                image: library.name(of: library.firstID) ?? "", images: await library.count,
                sessions: await sessions.count, renderConcurrency: renderQueue.concurrency,
                renderQueueCapacity: renderQueue.capacity,
                maximumRequestBytes: configuration.maximumRequestBytes,
                maximumPixels: configuration.pixelLimits.maxPixels))
    }

    // MARK: Sessions

    /// Session `id`'s picture and its recipe as it stands (its start, when nothing was changed yet).
    func sessionRecipe(_ id: String) async throws -> (imageID: String, image: EditedImage, recipe: Recipe) {
        let (imageID, edited) = try await sessions.edit(session: id)
        let image = try await library.image(imageID)
        return (
            imageID, image,
            try await sessions.recipe(edited, of: image, start: try await startingPoint(of: imageID).recipe)
        )
    }

    /// Where a new session on picture `imageID` starts: the server's ``start`` for the first picture, else the
    /// library's (the saved crop, or the proposal), with a line for the person saying what it is.
    func startingPoint(of imageID: String) async throws -> (recipe: Recipe?, notice: String?) {
        if let start, imageID == library.firstID { return (start.recipe, start.notice) }
        do {
            if let saved = try library.savedCrop(of: imageID) {
                return (
                    saved,
                    "Restored the saved crop (\((RecipeSidecar(photo: library.path(of: imageID) ?? "").path as NSString).lastPathComponent))"
                )
            }
        } catch {
            let proposal = try await library.proposal(for: imageID)
            return (proposal?.recipe, "\(error.description); started afresh, and your next change replaces it")
        }
        let proposal = try await library.proposal(for: imageID)
        return (proposal?.recipe, proposal?.notice)
    }

    // MARK: Request bodies

    /// Refuses a body whose declared length is over the limit before reading any of it.
    func checkDeclaredLength(_ request: Request) throws {
        if let declared = request.headers[.contentLength].flatMap(Int.init),
            declared > configuration.maximumRequestBytes
        {
            throw EditorError.requestTooLarge(limit: configuration.maximumRequestBytes)
        }
    }

    func collect(_ request: Request) async throws -> [UInt8] {
        do {
            let buffer = try await request.body.collect(upTo: configuration.maximumRequestBytes)
            return Array(buffer.readableBytesView)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw EditorError.requestTooLarge(limit: configuration.maximumRequestBytes)
        }
    }
}

extension HTTPField.Name {
    static let xContentTypeOptions = HTTPField.Name("X-Content-Type-Options")!
}
