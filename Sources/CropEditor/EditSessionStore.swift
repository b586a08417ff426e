import CropKit
import Foundation

/// The server-held edit sessions: one per page load, each an ``EditorSession`` over the edited picture plus the
/// recipe of its last state.
///
/// A page reload reconnects with its session id and gets a fresh ``EditorSession`` restored from that recipe (undo
/// history does not survive a reload; the picture's state does). Sessions unused for ``lifetime`` expire; at most
/// ``capacity`` are kept (the least recently used go first).
actor EditSessionStore {
    struct Entry {
        /// The live session, created by the connection's first `viewport` event.
        var session: EditorSession?
        /// The last state's recipe (`nil` until the first edit).
        var recipe: Recipe?
        /// When the session was last used.
        var lastUsed: ContinuousClock.Instant
    }

    let image: EditedImage
    let lifetime: Duration
    let capacity: Int
    let sessionConfiguration: EditorSession.Configuration
    private var entries: [String: Entry] = [:]
    private let clock = ContinuousClock()

    init(image: EditedImage, lifetime: Duration, capacity: Int, sessionConfiguration: EditorSession.Configuration) {
        self.image = image
        self.lifetime = lifetime
        self.capacity = max(1, capacity)
        var configuration = sessionConfiguration
        configuration.previewSize = image.previewSize
        self.sessionConfiguration = configuration
    }

    /// How many sessions are held.
    var count: Int { entries.count }

    /// Opens a connection: reuses the session `id` if it is still held (the page was reloaded), otherwise creates one.
    /// Either way the live ``EditorSession`` is dropped and rebuilt from the recipe on the first `viewport` event.
    func open(id: String?) -> (id: String, restored: Bool) {
        sweep()
        if let id, var entry = entries[id] {
            entry.session = nil
            entry.lastUsed = clock.now
            entries[id] = entry
            return (id, entry.recipe != nil)
        }
        if entries.count >= capacity, let oldest = entries.min(by: { $0.value.lastUsed < $1.value.lastUsed }) {
            entries[oldest.key] = nil
        }
        let newID = UUID().uuidString.lowercased()
        entries[newID] = Entry(session: nil, recipe: nil, lastUsed: clock.now)
        return (newID, false)
    }

    /// Applies one event to session `id` and returns the new view state.
    ///
    /// The first event of a connection must be `viewport` (the session needs the view's size); it creates the live
    /// session from the saved recipe, or from the untouched picture.
    func handle(_ event: EditorEvent, session id: String) throws -> EditorViewState {
        guard var entry = entries[id] else { throw EditorError.unknownSession(id) }
        entry.lastUsed = clock.now
        defer { entries[id] = entry }
        if var session = entry.session {
            let state = try session.handle(event)
            entry.session = session
            entry.recipe = state.recipe
            return state
        }
        guard case .viewport(let size, let insets) = event else {
            throw EditorError.invalidParameter(
                name: "event", reason: "the first event of a connection must be 'viewport', not '\(event.type)'")
        }
        let state = try startState(recipe: entry.recipe)
        let session = try EditorSession(
            state: state, viewportSize: size, insets: insets, configuration: sessionConfiguration)
        let view = session.viewState
        entry.session = session
        entry.recipe = view.recipe
        return view
    }

    /// The current view state of session `id`, if it has a live session.
    func viewState(session id: String) -> EditorViewState? {
        entries[id]?.session?.viewState
    }

    /// The recipe of session `id`'s current state (the untouched picture before any edit).
    func recipe(session id: String) throws -> Recipe {
        guard var entry = entries[id], clock.now - entry.lastUsed <= lifetime else {
            throw EditorError.unknownSession(id)
        }
        entry.lastUsed = clock.now
        entries[id] = entry
        return try entry.recipe ?? startState(recipe: nil).recipe
    }

    /// Forgets session `id` (Cancel). Returns whether it existed.
    func remove(session id: String) -> Bool {
        entries.removeValue(forKey: id) != nil
    }

    /// Marks session `id` as used now (an open connection keeps its session alive).
    func touch(session id: String) {
        entries[id]?.lastUsed = clock.now
    }

    /// Drops expired sessions.
    func sweep() {
        let now = clock.now
        entries = entries.filter { now - $0.value.lastUsed <= lifetime }
    }

    private func startState(recipe: Recipe?) throws -> CropState {
        if let recipe {
            return try CropState(recipe: recipe, sourceSize: image.info.storedSize, orientation: image.info.orientation)
        }
        return try CropState(sourceSize: image.info.storedSize, orientation: image.info.orientation)
    }
}
