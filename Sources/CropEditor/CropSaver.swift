import CropKit

/// Saves one connection's crop beside its photo as it changes (``EditorLibrary/save(_:of:)``): at once when the
/// view is at rest, at most every ``interval`` while a gesture or a run of steps goes on, and whatever is still
/// pending when ``flushIfDue()`` finds the interval passed (the connection calls it every half interval, so the last
/// change of a run of key steps is on disk within a second of the key, with no further event), when the page asks
/// (``flush()``: before it leaves or hides), before Export all, and when the connection closes.
/// A failure (a read-only folder) is said once, not on every event.
actor CropSaver {
    /// The longest a change waits to be saved while a gesture runs.
    static let interval: Duration = .milliseconds(500)

    let library: EditorLibrary
    let imageID: String
    let now: @Sendable () -> ContinuousClock.Instant
    /// The crop known to be saved (or where the session started, before any change).
    private(set) var saved: Recipe?
    private var pending: Recipe?
    private var lastWrite: ContinuousClock.Instant?
    private var failed = false

    init(library: EditorLibrary, imageID: String, now: @escaping @Sendable () -> ContinuousClock.Instant) {
        self.library = library
        self.imageID = imageID
        self.now = now
    }

    /// Whether a change waits to be written.
    var hasPending: Bool { pending != nil }

    /// The session started at `recipe` (restored, or at the server's start): nothing to save for it.
    func started(at recipe: Recipe) {
        saved = recipe
        pending = nil
    }

    /// Notes `recipe` (`nil`: nothing new) and saves what is pending when the view is `atRest` or the interval has
    /// passed. Returns the failure's line the first time saving fails, else `nil`.
    func save(_ recipe: Recipe?, atRest: Bool) async -> String? {
        if let recipe {
            pending = recipe == saved ? nil : recipe
        }
        if !atRest, let lastWrite, now() - lastWrite < Self.interval { return nil }
        return await write()
    }

    /// Saves what is pending if the interval since the last write has passed (a run of steps that stopped).
    @discardableResult
    func flushIfDue() async -> String? {
        guard pending != nil else { return nil }
        if let lastWrite, now() - lastWrite < Self.interval { return nil }
        return await write()
    }

    /// Saves what is pending now.
    @discardableResult
    func flush() async -> String? {
        await write()
    }

    private func write() async -> String? {
        guard let target = pending, library.path(of: imageID) != nil else { return nil }
        do {
            try await library.save(target, of: imageID)
            saved = target
            // A change noted while the write was under way stays pending.
            if pending == target { pending = nil }
            lastWrite = now()
            return nil
        } catch {
            defer { failed = true }
            return failed ? nil : EditorError.message(for: error) + " (the crop is kept for this session only)"
        }
    }
}
