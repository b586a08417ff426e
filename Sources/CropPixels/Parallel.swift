import Dispatch

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Splitting pixel work across cores.
package enum Parallel {
    /// Processor cores available to this process (at least 1).
    package static let coreCount: Int = Swift.max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))

    /// The number of threads to use given a `maxThreads` option (`0` = all cores).
    package static func threads(_ maxThreads: Int) -> Int {
        maxThreads <= 0 ? coreCount : Swift.min(maxThreads, coreCount)
    }

    /// Runs `body` on a thread of its own with a stack of `stackSize` bytes, and returns at once (Foundation's
    /// `Thread` without Foundation). For long work that blocks, which should not hold one of Dispatch's workers.
    package static func detach(stackSize: Int = 8 << 20, _ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackSize)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        #if canImport(Darwin)
            var thread: pthread_t?
        #else
            var thread = pthread_t()
        #endif
        let started = pthread_create(
            &thread, &attributes,
            { context in
                #if canImport(Darwin)
                    let body = Unmanaged<ThreadBody>.fromOpaque(context).takeRetainedValue()
                #else
                    let body = Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue()
                #endif
                body.run()
                return nil
            }, context)
        if started != 0 {
            // No thread to be had (the process's limit): one of Dispatch's workers runs it instead.
            let body = Unmanaged<ThreadBody>.fromOpaque(context).takeRetainedValue()
            DispatchQueue.global().async { body.run() }
        }
    }

    /// Runs `body(0..<count)`, on up to `threads` threads (all of them by default). Returns when every call has
    /// returned.
    package static func forEach(_ count: Int, threads: Int = .max, _ body: (Int) -> Void) {
        if threads < count {
            // Fewer threads than items: thread t takes items t, t + threads, t + 2·threads …
            let n = Swift.max(threads, 1)
            forEach(n) { t in
                for i in stride(from: t, to: count, by: n) { body(i) }
            }
        } else if count == 1 {
            body(0)
        } else if count > 1 {
            // The work items only touch disjoint memory; the box tells the compiler so.
            withoutActuallyEscaping(body) { escaping in
                let box = UncheckedSendable(escaping)
                DispatchQueue.concurrentPerform(iterations: count) { box.value($0) }
            }
        }
    }

    /// Runs `body(0..<count)` on up to `threads` threads, each taking the next item as it finishes one, so items of
    /// unequal cost keep every thread busy (``forEach(_:threads:_:)`` deals them out in turn beforehand). Give the
    /// costliest items first. Returns when every call has returned.
    package static func forEachTaken(_ count: Int, threads: Int = .max, _ body: (Int) -> Void) {
        let n = Swift.max(1, Swift.min(threads, count))
        guard n > 1 else {
            for i in 0..<count { body(i) }
            return
        }
        let lock = Lock()
        let next = UncheckedSendable(UnsafeMutablePointer<Int>.allocate(capacity: 1))
        next.value.initialize(to: 0)
        defer { next.value.deallocate() }
        forEach(n) { _ in
            while true {
                let i = lock.locked {
                    defer { next.value.pointee += 1 }
                    return next.value.pointee
                }
                guard i < count else { return }
                body(i)
            }
        }
    }

    /// Splits `range` into `parts` contiguous chunks of nearly equal size (fewer when the range is short).
    package static func chunks(_ range: Range<Int>, parts: Int) -> [Range<Int>] {
        let n = Swift.max(1, Swift.min(parts, range.count))
        return (0..<n).map { i in
            (range.lowerBound + range.count * i / n)..<(range.lowerBound + range.count * (i + 1) / n)
        }
    }
}

/// A closure carried to a new thread through pthread's context pointer.
private final class ThreadBody: Sendable {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}
