import Hummingbird

/// Turns every error a route throws into ``EditorError``'s JSON answer (the editor's routes and `cropkit serve`'s): the router's own 404 and 405, and a body
/// over the size limit (413), so a client always gets `{"error": {"message", "problem"}}`.
public struct EditorErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    let maximumRequestBytes: Int

    /// - Parameter maximumRequestBytes: the body limit a 413 names.
    public init(maximumRequestBytes: Int) {
        self.maximumRequestBytes = maximumRequestBytes
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as EditorError {
            throw error
        } catch let error as any HTTPResponseError {
            switch error.status {
            case .notFound: throw EditorError.notFound(path: request.uri.path)
            case .methodNotAllowed:
                throw EditorError.methodNotAllowed(method: request.method.rawValue, path: request.uri.path)
            case .contentTooLarge: throw EditorError.requestTooLarge(limit: maximumRequestBytes)
            default: throw error
            }
        }
    }
}

/// Whether `host` names the loopback interface.
func isLoopback(_ host: String) -> Bool {
    let h = host.lowercased()
    return h == "localhost" || h.hasPrefix("127.") || h == "::1" || h == "[::1]" || h.hasSuffix(".localhost")
}

/// The host part of an authority (`host:port`, `[v6]:port`).
func hostName(_ authority: String) -> String {
    if authority.hasPrefix("["), let end = authority.firstIndex(of: "]") {
        return String(authority[...end])
    }
    return String(authority.split(separator: ":", maxSplits: 1).first ?? "")
}
