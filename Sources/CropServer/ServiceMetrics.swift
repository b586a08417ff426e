import CropWeb
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
/// | `cropkit_memory_budget_bytes`, `cropkit_memory_reserved_bytes`, `cropkit_memory_peak_reserved_bytes` | the memory budget, what renders have reserved from it now, and the most ever at once |
/// | `cropkit_memory_waiting`, `cropkit_memory_refused` | renders waiting for memory; renders refused (413 over the per-request limit, or 503 with the wait queue full) |
public final class ServiceMetrics: Sendable {
    /// The registry the metrics live in (add your own to it).
    public let registry = PrometheusCollectorRegistry()
    let inFlight: Gauge
    let queueDepth: Gauge
    let sourceBytes: Counter
    let responseBytes: Counter
    let notModified: Counter
    let memoryBudget: Gauge
    let memoryReserved: Gauge
    let memoryPeakReserved: Gauge
    let memoryWaiting: Gauge
    let memoryRefused: Gauge

    /// The stages of an image request.
    public enum Stage: String, Sendable, CaseIterable {
        case queue, fetch, process
    }

    static let buckets: [Duration] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]
        .map { .nanoseconds(Int64($0 * 1e9)) }

    /// The service's metrics, each at zero, in a registry of their own.
    public init() {
        inFlight = registry.makeGauge(descriptor: Self.name("requests_in_flight", "", "Image requests being answered"))
        queueDepth = registry.makeGauge(descriptor: Self.name("queue_depth", "", "Image requests waiting for a slot"))
        sourceBytes = registry.makeCounter(descriptor: Self.name("source_bytes", "total", "Bytes of sources read"))
        responseBytes = registry.makeCounter(descriptor: Self.name("response_bytes", "total", "Bytes of images sent"))
        notModified = registry.makeCounter(descriptor: Self.name("not_modified", "total", "304 answers"))
        memoryBudget = registry.makeGauge(
            descriptor: Self.name("memory_budget", "bytes", "Memory renders may hold at once"))
        memoryReserved = registry.makeGauge(
            descriptor: Self.name("memory_reserved", "bytes", "Memory reserved by renders now (their planned peaks)"))
        memoryPeakReserved = registry.makeGauge(
            descriptor: Self.name("memory_peak_reserved", "bytes", "The most memory ever reserved at once"))
        memoryWaiting = registry.makeGauge(descriptor: Self.name("memory_waiting", "", "Renders waiting for memory"))
        memoryRefused = registry.makeGauge(
            descriptor: Self.name("memory_refused", "", "Renders refused for memory (413 or 503), since the start"))
    }

    /// Reads the memory budget's figures into the gauges (at each scrape).
    func observe(_ memory: MemoryBudget) async {
        memoryBudget.set(Double(memory.capacity))
        memoryReserved.set(Double(await memory.reserved))
        memoryPeakReserved.set(Double(await memory.peakReserved))
        memoryWaiting.set(Double(await memory.waitingCount))
        memoryRefused.set(Double(await memory.refused))
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
