import Hummingbird

/// Turns every error a route throws into ``WebError``'s JSON answer (the editor's routes and `cropkit serve`'s): the router's own 404 and 405, and a body
/// over the size limit (413), so a client always gets `{"error": {"message", "problem"}}`.
public struct WebErrorMiddleware<Context: RequestContext>: RouterMiddleware {
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
        } catch let error as WebError {
            throw error
        } catch let error as any HTTPResponseError {
            switch error.status {
            case .notFound: throw WebError.notFound(path: request.uri.path)
            case .methodNotAllowed:
                throw WebError.methodNotAllowed(method: request.method.rawValue, path: request.uri.path)
            case .contentTooLarge: throw WebError.requestTooLarge(limit: maximumRequestBytes)
            default: throw error
            }
        }
    }
}
