import Hummingbird

/// While the service drains, every response says `Connection: close`.
///
/// A load balancer keeps idle connections to each instance and reuses them. A request it sends on one just as the
/// instance stops listening is never read, and waits for the balancer's read timeout. Closing each connection after
/// its response during the drain delay leaves the balancer no connection to reuse by the time the listener closes,
/// so it opens new ones, which the stopped instance refuses at once and the balancer retries on another.
struct CloseWhileDraining<Context: RequestContext>: RouterMiddleware {
    let readiness: Readiness

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            guard await !readiness.isReady else { throw error }
            response = try error.response(from: request, context: context)
        }
        if await !readiness.isReady { response.headers[.connection] = "close" }
        return response
    }
}
