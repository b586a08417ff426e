import Hummingbird
import Logging

/// Counts and logs every request of `cropkit serve`: `cropkit_http_requests_total{route, status}` and one structured
/// log line at `info` (status, route, milliseconds) carrying Hummingbird's request id (`hb.request.id`). Errors are
/// counted with the status their JSON answer has.
struct ServiceRequestMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServiceMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        let start = ContinuousClock.now
        let route = ServiceMetrics.route(request.uri.path)
        func finish(_ status: Int) {
            metrics.answered(route: route, status: status)
            let elapsed = ContinuousClock.now - start
            let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
            context.logger.info(
                "answered",
                metadata: ["status": "\(status)", "route": "\(route)", "ms": "\((milliseconds * 10).rounded() / 10)"])
        }
        do {
            let response = try await next(request, context)
            finish(Int(response.status.code))
            return response
        } catch let error as any HTTPResponseError {
            finish(Int(error.status.code))
            throw error
        } catch {
            finish(500)
            throw error
        }
    }
}
