import Testing

@testable import CropEditor

/// Admission by memory: reservations against a fixed capacity, first come first served, 413 past the per-request
/// limit, 503 when too many wait.
@Suite struct MemoryBudgetTests {
    static let mb = 1 << 20

    @Test("reservations that fit go at once; one that does not waits until enough is released")
    func waitsForRoom() async throws {
        let budget = MemoryBudget(capacity: 100 * Self.mb)
        try await budget.reserve(60 * Self.mb)
        #expect(await budget.reserved == 60 * Self.mb)
        let waiter = Task { try await budget.reserve(50 * Self.mb) }
        while await budget.waitingCount < 1 { await Task.yield() }
        #expect(await budget.reserved == 60 * Self.mb)  // 60 + 50 > 100: it waits
        await budget.release(60 * Self.mb)
        try await waiter.value
        #expect(await budget.reserved == 50 * Self.mb)
        #expect(await budget.peakReserved == 60 * Self.mb)
        await budget.release(50 * Self.mb)
        #expect(await budget.reserved == 0)
    }

    @Test("first come, first served: a small reservation does not pass a large one that waits")
    func firstComeFirstServed() async throws {
        let budget = MemoryBudget(capacity: 100 * Self.mb)
        try await budget.reserve(70 * Self.mb)
        let large = Task { try await budget.reserve(80 * Self.mb) }
        while await budget.waitingCount < 1 { await Task.yield() }
        let small = Task { try await budget.reserve(10 * Self.mb) }
        while await budget.waitingCount < 2 { await Task.yield() }
        #expect(await budget.reserved == 70 * Self.mb)  // 10 would fit, but the large one came first
        await budget.release(70 * Self.mb)
        try await large.value
        try await small.value
        #expect(await budget.reserved == 90 * Self.mb)
        #expect(await budget.waitingCount == 0)
    }

    @Test("past the per-request limit: needsTooMuchMemory (413) at once; a full wait queue: busy (503)")
    func refusals() async throws {
        let budget = MemoryBudget(capacity: 100 * Self.mb, requestLimit: 40 * Self.mb, queueCapacity: 1)
        await #expect(throws: EditorError.needsTooMuchMemory(planned: 41 * Self.mb, limit: 40 * Self.mb)) {
            try await budget.reserve(41 * Self.mb)
        }
        #expect(EditorError.needsTooMuchMemory(planned: 41 * Self.mb, limit: 40 * Self.mb).status == .contentTooLarge)
        try await budget.reserve(40 * Self.mb)
        try await budget.reserve(40 * Self.mb)
        let waiter = Task { try await budget.reserve(40 * Self.mb) }
        while await budget.waitingCount < 1 { await Task.yield() }
        await #expect(throws: EditorError.busy(queued: 1)) { try await budget.reserve(1 * Self.mb) }
        #expect(await budget.refused == 2)
        await budget.release(40 * Self.mb)
        try await waiter.value
        #expect(await budget.reserved == 80 * Self.mb)
    }

    @Test("the per-request limit never exceeds the capacity, so every admitted reservation can run")
    func limitClamped() {
        let budget = MemoryBudget(capacity: 64 * Self.mb, requestLimit: 1 << 40)
        #expect(budget.requestLimit == 64 * Self.mb)
        #expect(MemoryBudget(capacity: 10).capacity == Self.mb)
    }

    @Test("a render queue with a budget reserves the plan around the work and releases it after, also on failure")
    func queueReserves() async throws {
        let budget = MemoryBudget(capacity: 100 * Self.mb)
        let queue = RenderQueue(concurrency: 2, capacity: 4, memory: budget)
        let seen = try await queue.performPlanned({ 30 * Self.mb }) { 1 }
        #expect(seen == 1)
        #expect(await budget.peakReserved == 30 * Self.mb && budget.capacity == 100 * Self.mb)
        struct Failure: Error {}
        await #expect(throws: Failure.self) {
            try await queue.performPlanned({ 20 * Self.mb }) { () throws -> Int in throw Failure() }
        }
        #expect(await budget.reserved == 0)
        await #expect(throws: EditorError.self) { try await queue.performPlanned({ 200 * Self.mb }) { 1 } }
    }
}
