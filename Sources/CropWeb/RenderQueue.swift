import Dispatch

/// Admission control for renders: at most ``concurrency`` run at once, at most ``capacity`` more wait in FIFO order,
/// and a request that finds the queue full is refused at once with ``WebError/busy(queued:)`` (HTTP 503).
///
/// Memory stays bounded: a request takes its place in the queue *before* its body is read, so waiting requests hold
/// no image bytes (their bodies stay in the socket, flow-controlled by TCP), and at most `concurrency` images are
/// decoded at once.
///
/// The work itself runs on a Dispatch queue, off Swift's cooperative thread pool and the server's event loops, so
/// a long render never stalls other connections (the WebSocket round trip stays short while renders run).
public actor RenderQueue {
    /// How many renders run at once (≥ 1).
    public nonisolated let concurrency: Int
    /// How many requests may wait for a slot (≥ 0).
    public nonisolated let capacity: Int
    /// Admission by memory, or `nil` to admit by count alone: ``performPlanned(_:_:)`` reserves each render's planned
    /// peak from it.
    public nonisolated let memory: MemoryBudget?

    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []
    /// How many renders hold a slot now.
    public var runningCount: Int { running }
    /// How many requests wait for a slot now.
    public var waitingCount: Int { waiting.count }
    /// The largest number of renders ever running at once (for tests and the load test).
    public private(set) var peakRunning = 0
    /// How many requests were refused because the queue was full.
    public private(set) var refused = 0

    /// Creates a queue; `concurrency` is raised to 1 and `capacity` to 0 if lower. With `memory`, renders run through
    /// ``performPlanned(_:_:)`` also reserve their planned memory from it.
    public init(concurrency: Int, capacity: Int, memory: MemoryBudget? = nil) {
        self.concurrency = max(1, concurrency)
        self.capacity = max(0, capacity)
        self.memory = memory
    }

    /// Waits for a slot, or throws ``WebError/busy(queued:)`` when `capacity` requests already wait.
    /// Every successful call must be balanced by one ``release()``.
    public func acquire() async throws(WebError) {
        if running < concurrency {
            running += 1
            peakRunning = max(peakRunning, running)
            return
        }
        guard waiting.count < capacity else {
            refused += 1
            throw .busy(queued: waiting.count)
        }
        await withCheckedContinuation { waiting.append($0) }
        // The releasing caller handed its slot over: `running` is unchanged.
    }

    /// Gives a slot back, handing it to the longest-waiting request if any.
    public func release() {
        if waiting.isEmpty {
            running -= 1
        } else {
            waiting.removeFirst().resume()
        }
    }

    /// Runs `body` in a slot: waits for one (or throws ``WebError/busy(queued:)``), then calls `body`, which
    /// usually reads the request body and calls ``perform(_:)``.
    public nonisolated func withSlot<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await acquire()
        do {
            let value = try await body()
            await release()
            return value
        } catch {
            await release()
            throw error
        }
    }

    /// Runs `work` like ``perform(_:)`` once the bytes `plan` returns (a render's `MemoryPlan`, planned from the header
    /// on a worker thread) are reserved from ``memory``; without a budget, `plan` is not called.
    ///
    /// - Throws: what `plan` throws (an unreadable header fails here, before anything is decoded), and
    ///   ``MemoryBudget/reserve(_:)``'s errors.
    public nonisolated func performPlanned<T: Sendable>(
        _ plan: @escaping @Sendable () throws -> Int, _ work: @escaping @Sendable () throws -> T
    ) async throws -> T {
        guard memory != nil else { return try await perform(work) }
        return try await performReserving(try await perform(plan), work)
    }

    /// Runs `work` like ``perform(_:)`` once `bytes` are reserved from ``memory`` (at once without a budget).
    public nonisolated func performReserving<T: Sendable>(
        _ bytes: Int, _ work: @escaping @Sendable () throws -> T
    ) async throws -> T {
        guard let memory else { return try await perform(work) }
        return try await memory.withReservation(bytes) { try await perform(work) }
    }

    /// Runs blocking, CPU-bound `work` on a Dispatch worker thread and returns its result.
    public nonisolated func perform<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(with: Result { try work() })
            }
        }
    }
}
