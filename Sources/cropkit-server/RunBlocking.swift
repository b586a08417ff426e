import Dispatch

/// Runs `body` to completion from synchronous code (the root command is synchronous) and rethrows its error.
func runBlocking(_ body: @escaping @Sendable () async throws -> Void) throws {
    final class Outcome: @unchecked Sendable {
        // @unchecked Sendable: `error` is written by the task before it signals `done`, and read only after `done`.
        var error: (any Error)?
        let done = DispatchSemaphore(value: 0)
    }
    let outcome = Outcome()
    Task.detached {
        do { try await body() } catch { outcome.error = error }
        outcome.done.signal()
    }
    outcome.done.wait()
    if let error = outcome.error { throw error }
}

/// Runs `body` to completion from synchronous code and returns its value.
func runBlockingValue<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let box = BlockingResult<T>()
    try runBlocking { box.value = try await body() }
    guard let value = box.value else { preconditionFailure("runBlocking returned without running its body") }
    return value
}

/// The value a blocking run hands back to its synchronous caller.
private final class BlockingResult<T: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `value` is written by the task before `runBlocking` returns, and read only after.
    var value: T?
}
