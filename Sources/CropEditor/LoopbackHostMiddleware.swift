import Hummingbird

/// Answers only requests addressed to a loopback name when the server listens on loopback: a page elsewhere on the
/// web cannot reach the editor through DNS rebinding (its requests carry its own host name).
struct LoopbackHostMiddleware<Context: RequestContext>: RouterMiddleware {
    let host: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        if isLoopback(host), let authority = request.head.authority,
            !isLoopback(hostName(authority))
        {
            throw EditorError.invalidParameter(
                name: "Host", reason: "'\(authority)' is not a loopback name; open the URL cropkit printed")
        }
        return try await next(request, context)
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
