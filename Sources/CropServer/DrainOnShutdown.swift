import Logging
import ServiceLifecycle

/// The shutdown order of `cropkit serve`: on SIGTERM (or SIGINT) `/ready` turns 503 first, the server keeps answering
/// for `delay` so that a load balancer polling `/ready` stops sending work, and only then does the HTTP server stop
/// accepting connections and finish the requests in flight. (A service group shuts its services down last first, so
/// this one, listed after the server, runs before it.) The moment `/ready` turns 503 is logged at `notice`, so an
/// operator (and a test) sees when the drain began without polling for it.
struct DrainOnShutdown: Service {
    let readiness: Readiness
    let delay: Duration
    let logger: Logger

    func run() async throws {
        // Returns when graceful shutdown begins (or throws when the group is cancelled: nothing to drain then).
        try await gracefulShutdown()
        await readiness.drain()
        logger.notice("draining: /ready answers 503; new connections are refused after \(delay)")
        if delay > .zero { try? await Task.sleep(for: delay) }
    }
}
