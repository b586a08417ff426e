// The first of several results to arrive, for ImageService.withTimeout.

/// The first of several results to arrive.
actor Race<T: Sendable> {
    private var outcome: Result<T, any Error>?
    private var waiter: CheckedContinuation<Result<T, any Error>, Never>?

    func finish(_ result: Result<T, any Error>) {
        guard outcome == nil else { return }
        outcome = result
        waiter?.resume(returning: result)
        waiter = nil
    }

    func result() async -> Result<T, any Error> {
        if let outcome { return outcome }
        return await withCheckedContinuation { waiter = $0 }
    }
}

extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
