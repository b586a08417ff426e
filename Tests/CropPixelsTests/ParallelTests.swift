import Testing

@testable import CropPixels

@Suite("Parallel")
struct ParallelTests {
    /// Counts, per item, how often `body` ran it, and the most threads that ran at once.
    final class Tally: @unchecked Sendable {
        // @unchecked Sendable: every field is touched under `lock`.
        let lock = Lock()
        var runs: [Int]
        var running = 0, mostRunning = 0
        /// What each item's work computed (kept, so the optimiser cannot drop the work).
        var results: [UInt64]

        init(_ count: Int) {
            runs = Array(repeating: 0, count: count)
            results = Array(repeating: 0, count: count)
        }

        func run(_ item: Int, cost: Int) {
            lock.locked {
                runs[item] += 1
                running += 1
                mostRunning = Swift.max(mostRunning, running)
            }
            // Unequal work, so threads finish out of turn.
            var x = UInt64(item)
            for _ in 0..<cost { x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407 }
            lock.locked {
                running -= 1
                results[item] = x
            }
        }
    }

    @Test(
        "forEachTaken runs every item exactly once, on at most the threads asked for",
        arguments: [
            (0, 2), (1, 2), (5, 1), (7, 2), (100, 2), (100, 8), (3, 8),
        ])
    func takenOnce(_ count: Int, _ threads: Int) {
        let tally = Tally(count)
        Parallel.forEachTaken(count, threads: threads) { tally.run($0, cost: ($0 * 7919) % 20_000) }
        #expect(tally.runs == Array(repeating: 1, count: count))
        #expect(tally.mostRunning <= Swift.max(1, Swift.min(threads, count)))
    }
}
