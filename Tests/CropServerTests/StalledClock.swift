import Foundation

/// A clock that moves only when told to, and whose sleeps last until they are cancelled.
final class StalledClock: Clock, @unchecked Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }
    private let lock = NSLock()
    private var current = Instant(offset: .zero)
    var now: Instant { lock.withLock { current } }
    var minimumResolution: Duration { .nanoseconds(1) }
    func advance(by duration: Duration) { lock.withLock { current = current.advanced(by: duration) } }
    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        while true { try await Task.sleep(nanoseconds: 1_000_000) }
    }
}
