import ServiceLifecycle

/// The shutdown order of `cropkit serve`: on SIGTERM (or SIGINT) `/ready` turns 503 first, the server keeps answering
/// for `delay` so that a load balancer polling `/ready` stops sending work, and only then does the HTTP server stop
/// accepting connections and finish the requests in flight. (A service group shuts its services down last first, so
/// this one, listed after the server, runs before it.)
struct DrainOnShutdown: Service {
    let readiness: Readiness
    let delay: Duration

    func run() async throws {
        // Returns when graceful shutdown begins (or throws when the group is cancelled: nothing to drain then).
        try await gracefulShutdown()
        await readiness.drain()
        if delay > .zero { try? await Task.sleep(for: delay) }
    }
}
