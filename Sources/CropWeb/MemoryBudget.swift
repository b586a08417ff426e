/// Admission by memory: each render reserves the peak its `MemoryPlan` planned from the header, before it decodes
/// anything, out of a fixed ``capacity``; what does not fit waits, in arrival order, until enough is released.
///
/// - A reservation larger than ``requestLimit`` is refused at once with ``WebError/needsTooMuchMemory(planned:limit:)``
///   (HTTP 413): it could never run within the limit.
/// - A reservation that does not fit now waits; when ``queueCapacity`` reservations already wait it is refused with
///   ``WebError/busy(queued:)`` (HTTP 503, `Retry-After`).
/// - Waiters are served first come, first served: a small render never passes a large one that waits, so a large one
///   is never starved.
///
/// Invariant: `0 ≤ reserved ≤ capacity`; ``requestLimit`` ≤ ``capacity``, so every admitted reservation can run.
public actor MemoryBudget {
    /// The bytes renders may hold at once.
    public nonisolated let capacity: Int
    /// The most one render may reserve (≤ ``capacity``).
    public nonisolated let requestLimit: Int
    /// How many reservations may wait.
    public nonisolated let queueCapacity: Int

    /// Bytes reserved now.
    public private(set) var reserved = 0
    /// The most ever reserved at once.
    public private(set) var peakReserved = 0
    /// Reservations refused (too large, or the wait queue full).
    public private(set) var refused = 0
    private var waiting: [(bytes: Int, continuation: CheckedContinuation<Void, Never>)] = []
    /// Reservations waiting now.
    public var waitingCount: Int { waiting.count }

    /// A budget of `capacity` bytes (at least 1 MiB), `requestLimit` per render (clamped to the capacity), and at most
    /// `queueCapacity` waiting reservations.
    public init(capacity: Int, requestLimit: Int? = nil, queueCapacity: Int = 64) {
        self.capacity = max(1 << 20, capacity)
        self.requestLimit = min(self.capacity, max(1, requestLimit ?? capacity))
        self.queueCapacity = max(0, queueCapacity)
    }

    /// Reserves `bytes`, waiting while they do not fit; every successful call must be balanced by one
    /// ``release(_:)`` of the same bytes.
    ///
    /// - Throws: ``WebError/needsTooMuchMemory(planned:limit:)`` above ``requestLimit``, ``WebError/busy(queued:)``
    ///   when ``queueCapacity`` reservations already wait.
    public func reserve(_ bytes: Int) async throws(WebError) {
        let bytes = max(0, bytes)
        guard bytes <= requestLimit else {
            refused += 1
            throw .needsTooMuchMemory(planned: bytes, limit: requestLimit)
        }
        if waiting.isEmpty, reserved + bytes <= capacity {
            take(bytes)
            return
        }
        guard waiting.count < queueCapacity else {
            refused += 1
            throw .busy(queued: waiting.count)
        }
        await withCheckedContinuation { waiting.append((bytes, $0)) }
        // The releasing caller reserved the bytes on this waiter's behalf.
    }

    /// Gives `bytes` back and admits the waiters at the head of the queue that now fit.
    public func release(_ bytes: Int) {
        reserved -= max(0, bytes)
        precondition(reserved >= 0, "MemoryBudget: more released than reserved")
        while let head = waiting.first, reserved + head.bytes <= capacity {
            waiting.removeFirst()
            take(head.bytes)
            head.continuation.resume()
        }
    }

    /// Runs `body` holding a reservation of `bytes` (see ``reserve(_:)``), released however `body` ends.
    public nonisolated func withReservation<T: Sendable>(_ bytes: Int, _ body: () async throws -> T) async throws -> T {
        try await reserve(bytes)
        do {
            let value = try await body()
            await release(bytes)
            return value
        } catch {
            await release(bytes)
            throw error
        }
    }

    private func take(_ bytes: Int) {
        reserved += bytes
        peakReserved = max(peakReserved, reserved)
    }
}
