import CropEditor
import CropKit
import Foundation
import Hummingbird
import HummingbirdWebSocket

/// The crop editors `cropkit serve` hosts (`--editor`): a signed `GET /edit/<path>?<options>&sig=…` opens the editor
/// on that source from the root folder, with the host's options (``EditQuery``), at a new unguessable address
/// `/editor/<token>/`, where the editor's page, API and WebSocket answer (the same `EditorServer` as
/// `cropkit edit`, with uploads and the render API turned off).
///
/// Opening the same signed URL again reuses its editor. At most ``capacity`` editors are kept; opening one more
/// forgets the least recently used, whose page then says its picture is gone. Done in a host page answers the
/// recipe and a signed `/img/…?recipe=…` URL that renders it through the service.
///
/// An editor lives in the memory of the instance that opened it. Behind a load balancer, an instance given an
/// ``instance`` name starts its tokens with it (`/editor/<name>-<token>/`), so the balancer can send each editor's
/// requests to the instance that holds it (docs/deploy.md shows nginx doing so).
public actor HostedEditors {
    /// The pages that may frame the editors and hear their messages.
    public nonisolated let hostPages: HostPageOrigins
    /// How many editors are kept at once.
    public nonisolated let capacity: Int
    /// This instance's name, which starts every token it makes (`nil`: tokens are bare).
    public nonisolated let instance: String?
    /// The editor page's files, read once and shared by every hosted editor.
    nonisolated let page: EditorPage
    /// One hosted editor and its routes (built once).
    struct Hosted: Sendable {
        var server: EditorServer
        var responder: RouterResponder<BasicRequestContext>
    }
    private var editors: [String: Hosted] = [:]
    private var tokens: [String: String] = [:]  // signed target → token
    private var order: [String] = []  // tokens, least recently used first

    /// Hosted editors framed only by `hostPages`, at most `capacity` at once.
    ///
    /// - Parameters:
    ///   - hostPages: the pages that may frame the editors and hear their messages (none by default).
    ///   - capacity: how many editors are kept at once (at least 1).
    ///   - instance: this instance's name (1 to 32 lowercase ASCII letters and digits), which starts every token so
    ///     that a load balancer can route each editor to the instance holding it; `nil` for bare tokens.
    /// - Throws: `WebError.invalidParameter` for an invalid instance name; `EditorPageError` when the page's files
    ///   are missing from the installation.
    public init(hostPages: HostPageOrigins = .none, capacity: Int = 32, instance: String? = nil) throws {
        if let instance, !Self.isInstanceName(instance) {
            throw WebError.invalidParameter(
                name: "instance", reason: "'\(instance)' is not 1 to 32 lowercase ASCII letters and digits")
        }
        self.hostPages = hostPages
        self.capacity = max(1, capacity)
        self.instance = instance
        self.page = try EditorPage()
    }

    /// The host script a page loads to embed the editors (`GET /embed.js`).
    nonisolated var embedScript: EditorPage.Asset? { page.assets["/embed.js"] }

    /// The crop engine and the drop-in component (`GET /web/…`): path → file.
    nonisolated var webAssets: [String: EditorPage.Asset] { page.assets.filter { $0.key.hasPrefix("/web/") } }

    /// The editor at `token`, marked as used.
    func editor(_ token: String) -> Hosted? {
        guard let editor = editors[token] else { return nil }
        order.removeAll { $0 == token }
        order.append(token)
        return editor
    }

    /// The token of the editor for `target` (the signed URL as sent), made by `make` when there is none.
    func token(for target: String, make: () async throws -> EditorServer) async throws -> String {
        if let token = tokens[target], editor(token) != nil { return token }
        let server = try await make()
        let token =
            (instance.map { $0 + "-" } ?? "")
            + (UUID().uuidString + UUID().uuidString).lowercased().filter(\.isHexDigit)
        editors[token] = Hosted(server: server, responder: server.makeRouter().buildResponder())
        tokens[target] = token
        order.append(token)
        while order.count > capacity {
            let oldest = order.removeFirst()
            editors[oldest] = nil
            tokens = tokens.filter { $0.value != oldest }
        }
        return token
    }

    /// Whether `name` can name an instance: 1 to 32 lowercase ASCII letters and digits.
    public static func isInstanceName(_ name: String) -> Bool {
        (1...32).contains(name.count) && name.allSatisfy(isLowercaseAlphanumeric)
    }
}

extension ImageService {
    /// `GET /edit/<path>?<options>&sig=…`: checks the signature like an image URL, reads the source, and redirects to
    /// a new hosted editor on it (303 to `/editor/<token>/`).
    func openEditor(_ request: Request, editors: HostedEditors) async throws -> Response {
        let unsigned = try unsignedTarget(request)
        let pathEnd = unsigned.firstIndex(of: "?") ?? unsigned.endIndex
        let rawPath = unsigned[unsigned.index(unsigned.startIndex, offsetBy: "/edit/".count)..<pathEnd]
        let query = pathEnd < unsigned.endIndex ? String(unsigned[unsigned.index(after: pathEnd)...]) : ""
        let options = try EditQuery(query: query)
        let file = try configuration.root.resolve(rawPath)
        guard file.size <= configuration.maximumSourceBytes else {
            throw WebError.sourceTooLarge(bytes: file.size, limit: configuration.maximumSourceBytes)
        }
        let token = try await editors.token(for: unsigned) {
            try await makeEditor(
                file: file, imagePath: String(rawPath), options: options, hostPages: editors.hostPages,
                page: editors.page)
        }
        return Response(status: .seeOther, headers: [.location: "/editor/\(token)/", .cacheControl: "no-store"])
    }

    /// An editor on `file`: the host's constraints and start, no uploads, the service's pixel limits and render
    /// queue, and Done's URL signed for `/img/<imagePath>`.
    private func makeEditor(
        file: SourceFolder.Source, imagePath: String, options: EditQuery,
        hostPages: HostPageOrigins, page: EditorPage
    ) async throws -> EditorServer {
        var editor = EditorServer.Configuration(
            pixelLimits: configuration.pixelLimits, renderConcurrency: configuration.concurrency)
        editor.host = "0.0.0.0"  // hosted: the service decides who reaches it
        editor.constraints = options.constraints
        editor.hostPages = hostPages
        editor.acceptsUploads = false
        let signer = configuration.signer, output = options.constraints.outputSize, outputQuery = options.outputQuery
        let round = options.constraints.isRound
        editor.resultURL = { _, recipe in
            Self.imageURL(
                path: imagePath, recipe: recipe, size: output, round: round, outputQuery: outputQuery, signer: signer)
        }
        let pipeline = editor.pipeline, side = editor.previewMaximumSide,
            name = (file.path as NSString).lastPathComponent
        let path = file.path
        let image = try await queue.withSlot {
            let bytes = try await queue.perform {
                try Self.editorErrors { () throws(CropKitError) in try ImageSource.file(path).bytes() }
            }
            return try await queue.performPlanned({
                try Self.editorErrors { () throws(CropKitError) in
                    try EditedImage.previewMemory(bytes: bytes, pipeline: pipeline, previewMaximumSide: side)
                }
            }) {
                try Self.editorErrors { () throws(CropKitError) in
                    try EditedImage(name: name, bytes: bytes, pipeline: pipeline, previewMaximumSide: side)
                }
            }
        }
        return EditorServer(
            library: EditorLibrary([image]), configuration: editor, page: page,
            start: options.recipe.map { EditorStart(recipe: $0) }, renderQueue: queue)
    }

    /// `/img/<path>?recipe=…[&size=WxH&mode=fill][&round][&format=…&quality=…]`, signed when the service signs.
    static func imageURL(
        path: String, recipe: Recipe, size: PixelSize?, round: Bool, outputQuery: String,
        signer: URLSigner?
    ) -> String {
        var query = ["recipe=\(URLSigner.base64URLEncoded(recipe.json()))"]
        if let size { query.append("size=\(size.width)x\(size.height)&mode=fill") }
        if round { query.append("round") }
        if !outputQuery.isEmpty { query.append(outputQuery) }
        let target = "/img/\(path)?" + query.joined(separator: "&")
        return signer?.signed(target) ?? target
    }

    /// Answers a request under `/editor/<token>/…` with that editor's routes (the path after the token).
    func forwardToEditor(_ request: Request, context: BasicRequestContext, editors: HostedEditors) async throws
        -> Response
    {
        let (token, rest) = try Self.editorPath(request.uri.path)
        guard let editor = await editors.editor(token) else {
            throw WebError.notFound(path: "/editor/\(token)/ (this editor was closed: open its signed URL again)")
        }
        // The page's addresses are relative to its folder: /editor/<token> must end with a slash.
        guard let rest else { return Response(status: .permanentRedirect, headers: [.location: "/editor/\(token)/"]) }
        var head = request.head
        head.path = rest + (request.uri.query.map { "?\($0)" } ?? "")
        return try await editor.responder.respond(to: Request(head: head, body: request.body), context: context)
    }

    /// The token and the editor path (`/`, `/api/…`) of a path `/editor/<token>/…` (`nil` without the slash).
    package static func editorPath(_ path: String) throws(WebError) -> (token: String, rest: String?) {
        let parts = path.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
        // "", "editor", "<token>/…"
        guard parts.count == 3, parts[1] == "editor" else { throw .notFound(path: path) }
        let tail = parts[2].split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        let token = String(tail[0])
        guard !token.isEmpty, token.count <= 128, token.allSatisfy({ isLowercaseAlphanumeric($0) || $0 == "-" }) else {
            throw .notFound(path: path)
        }
        return (token, tail.count > 1 ? "/" + tail[1] : nil)
    }
}

/// `a`–`z` or `0`–`9`.
private func isLowercaseAlphanumeric(_ c: Character) -> Bool {
    c.isASCII && (c.isLowercase || c.isNumber)
}
