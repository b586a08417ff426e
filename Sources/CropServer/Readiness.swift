// Readiness: what `/ready` answers, for a load balancer that drains an instance before it stops.

/// Whether the service takes new work: `/ready` answers 503 once ``drain()`` was called.
public actor Readiness {
    /// Whether the service takes new work.
    public private(set) var isReady = true

    /// A service that takes work.
    public init() {}

    /// Stop taking new work (`/ready` turns 503; a load balancer stops sending requests).
    public func drain() {
        isReady = false
    }
}
