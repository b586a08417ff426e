import Prometheus

/// What `cropkit serve` counts, in Prometheus text at `GET /metrics`:
///
/// | metric | what |
/// |---|---|
/// | `cropkit_http_requests_total{route, status}` | requests answered, by route (`/img`, `/health`, `/ready`, `/metrics`, `other`) and status |
/// | `cropkit_request_stage_seconds{stage}` | time per image request in each stage: `queue` (waiting for a slot), `fetch` (finding the source and reading its header), `process` (decode, process and encode, which overlap in one streaming run) |
/// | `cropkit_requests_in_flight` | image requests being answered |
/// | `cropkit_queue_depth` | image requests waiting for a slot |
/// | `cropkit_source_bytes_total`, `cropkit_response_bytes_total` | bytes of the sources read and of the images sent |
/// | `cropkit_not_modified_total` | 304 answers |
public final class ServiceMetrics: Sendable {
    /// The registry the metrics live in (add your own to it).
    public let registry = PrometheusCollectorRegistry()
    let inFlight: Gauge
    let queueDepth: Gauge
    let sourceBytes: Counter
    let responseBytes: Counter
    let notModified: Counter

    /// The stages of an image request.
    public enum Stage: String, Sendable, CaseIterable {
        case queue, fetch, process
    }

    static let buckets: [Duration] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]
        .map { .nanoseconds(Int64($0 * 1e9)) }

    public init() {
        inFlight = registry.makeGauge(descriptor: Self.name("requests_in_flight", "", "Image requests being answered"))
        queueDepth = registry.makeGauge(descriptor: Self.name("queue_depth", "", "Image requests waiting for a slot"))
        sourceBytes = registry.makeCounter(descriptor: Self.name("source_bytes", "total", "Bytes of sources read"))
        responseBytes = registry.makeCounter(descriptor: Self.name("response_bytes", "total", "Bytes of images sent"))
        notModified = registry.makeCounter(descriptor: Self.name("not_modified", "total", "304 answers"))
    }

    static func name(_ metric: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "cropkit", metricName: metric, unitName: unit, helpText: help)
    }

    /// Counts one answered request.
    func answered(route: String, status: Int) {
        registry.makeCounter(
            descriptor: Self.name("http_requests", "total", "Requests answered, by route and status"),
            labels: [("route", route), ("status", String(status))]
        ).increment()
    }

    /// Records the time one image request spent in `stage`.
    func record(_ stage: Stage, _ duration: Duration) {
        registry.makeDurationHistogram(
            descriptor: Self.name("request_stage", "seconds", "Time per image request in each stage"),
            labels: [("stage", stage.rawValue)], buckets: Self.buckets
        ).record(duration)
    }

    /// The route label of a request path.
    static func route(_ path: String) -> String {
        if path.hasPrefix("/img/") { return "/img" }
        return ["/health", "/ready", "/metrics"].contains(path) ? path : "other"
    }

    /// The exposition text.
    public func text() -> String {
        registry.emitToString()
    }
}
