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
