import CropKit

/// Saves one connection's crop beside its photo as it changes (``EditorLibrary/save(_:of:)``): at once when the
/// view is at rest, at most every ``interval`` during a gesture, and the last change when the connection closes.
/// A failure (a read-only folder) is said once, not on every event.
struct CropSaver {
    /// The longest a change waits to be saved while a gesture runs.
    static let interval: Duration = .milliseconds(500)

    let library: EditorLibrary
    let imageID: String
    let now: @Sendable () -> ContinuousClock.Instant
    /// The crop known to be saved (or where the session started, before any change).
    var saved: Recipe?
    private var pending: Recipe?
    private var lastWrite: ContinuousClock.Instant?
    private var failed = false

    init(library: EditorLibrary, imageID: String, now: @escaping @Sendable () -> ContinuousClock.Instant) {
        self.library = library
        self.imageID = imageID
        self.now = now
    }

    /// Notes `recipe` (`nil`: nothing new) and saves what is pending when the view is `atRest` or the interval has
    /// passed. Returns the failure's line the first time saving fails, else `nil`.
    mutating func save(_ recipe: Recipe?, atRest: Bool) async -> String? {
        guard library.path(of: imageID) != nil else { return nil }
        if let recipe {
            pending = recipe == saved ? nil : recipe
        }
        guard let target = pending else { return nil }
        let time = now()
        if !atRest, let lastWrite, time - lastWrite < Self.interval { return nil }
        do {
            try await library.save(target, of: imageID)
            saved = target
            pending = nil
            lastWrite = time
            return nil
        } catch {
            defer { failed = true }
            return failed ? nil : EditorError.message(for: error) + " (the crop is kept for this session only)"
        }
    }
}
