#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A mutex with a condition variable (pthread; Foundation's `NSCondition` without Foundation).
package final class Condition: @unchecked Sendable {
    // @unchecked Sendable: the pthread objects are only touched through pthread calls, which synchronise.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    package init() {
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` with the mutex held.
    package func locked<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits until `ready()` holds, then runs `body`, all with the mutex held (`ready` is re-checked after each wake).
    package func wait<T>(until ready: () -> Bool, then body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !ready() { pthread_cond_wait(condition, mutex) }
        return try body()
    }

    /// Wakes every waiter; call with the mutex held (inside `locked` or `wait`).
    package func broadcast() {
        pthread_cond_broadcast(condition)
    }

    // The bare primitives, for critical sections that are not one closure (a scheduler that lets go of the mutex
    // while it works and takes it back).

    /// Takes the mutex.
    package func lock() { pthread_mutex_lock(mutex) }

    /// Lets go of the mutex.
    package func unlock() { pthread_mutex_unlock(mutex) }

    /// With the mutex held: lets go of it until woken, then holds it again. Wakes can be spurious; check in a loop.
    package func wait() { pthread_cond_wait(condition, mutex) }
}
