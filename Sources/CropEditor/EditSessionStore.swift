import CropInteraction
import CropKit
import Foundation

/// The server-held edit sessions: one per page load, each bound to one picture of the library (by id) and
/// remembered by the recipe of its last state.
///
/// The live ``CropSession`` belongs to the WebSocket connection; the store keeps what must outlive it. A page
/// reload reconnects with its session id and gets a fresh ``CropSession`` restored from the recipe (the picture's
/// state survives a reload; the undo history does not). A second page opening an id that is already connected (a
/// duplicated browser tab) gets a new session starting from the same recipe, so two pages never share one.
/// Sessions without a connection and unused for ``lifetime`` expire; at most ``capacity`` are kept (the least
/// recently used unconnected ones go first).
actor EditSessionStore {
    struct Entry {
        /// The picture the session edits (its id in the library).
        var imageID: String
        /// The last state's recipe (`nil` until the first event).
        var recipe: Recipe?
        /// When the session was last used.
        var lastUsed: ContinuousClock.Instant
        /// Open WebSocket connections on it (0 or 1).
        var connections: Int
        /// The photo's saved crop when the session began (`nil`: none), which Cancel puts back.
        var savedAtStart: Recipe? = nil
        /// The open connection's saver (`nil` without one): flushed before Export all and on request.
        var saver: CropSaver? = nil
        /// The page load that last sent events (its `page` token) and the sequence number of the last event applied
        /// for it, so that a page reconnecting after a drop resends only what the session has not seen.
        var page: String? = nil
        var lastSequence = 0
    }

    let lifetime: Duration
    let capacity: Int
    let sessionConfiguration: CropSession.Configuration
    /// The smallest crop side in source pixels.
    let minimumCropSize: Double
    private var entries: [String: Entry] = [:]
    /// The time now (injected, so expiry can be tested without waiting).
    private let now: @Sendable () -> ContinuousClock.Instant

    init(
        lifetime: Duration, capacity: Int, sessionConfiguration: CropSession.Configuration,
        constraints: CropConstraints = .none,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) {
        self.now = now
        self.lifetime = lifetime
        self.capacity = max(1, capacity)
        var configuration = sessionConfiguration
        configuration.fixedAspect = constraints.aspect ?? configuration.fixedAspect
        self.sessionConfiguration = configuration
        self.minimumCropSize = constraints.minimumCropSize
    }

    /// How many sessions are held.
    var count: Int { entries.count }

    /// Opens a connection on picture `imageID`: on session `id` if it is held, edits that picture and is free (a
    /// reload), on a new session copying its recipe if another connection has it, or on a new untouched session
    /// (remembering `savedCrop`, the photo's saved crop now, for Cancel). Returns the id and the recipe to restore.
    func connect(id: String?, image imageID: String, savedCrop: Recipe? = nil) -> (id: String, recipe: Recipe?) {
        sweep()
        let now = self.now()
        if let id, var entry = entries[id], entry.imageID == imageID {
            if entry.connections == 0 {
                entry.connections = 1
                entry.lastUsed = now
                entries[id] = entry
                return (id, entry.recipe)
            }
            return (
                insert(
                    Entry(
                        imageID: imageID, recipe: entry.recipe, lastUsed: now, connections: 1,
                        savedAtStart: entry.savedAtStart)), entry.recipe
            )
        }
        return (
            insert(Entry(imageID: imageID, recipe: nil, lastUsed: now, connections: 1, savedAtStart: savedCrop)), nil
        )
    }

    /// The connection on session `id` closed.
    func disconnect(id: String) {
        guard var entry = entries[id] else { return }
        entry.connections = max(0, entry.connections - 1)
        entry.saver = nil
        entry.lastUsed = now()
        entries[id] = entry
    }

    /// Records session `id`'s current recipe (re-creating an entry that was cancelled meanwhile is not done: a
    /// cancelled session stays gone).
    func update(id: String, recipe: Recipe) {
        guard var entry = entries[id] else { return }
        entry.recipe = recipe
        entry.lastUsed = now()
        entries[id] = entry
    }

    /// Session `id`'s connection saves through `saver`.
    func attach(_ saver: CropSaver, to id: String) {
        entries[id]?.saver = saver
    }

    /// The saver of session `id`'s open connection, if any.
    func saver(of id: String) -> CropSaver? {
        entries[id]?.saver
    }

    /// The savers of every open connection (Export all flushes them first).
    func savers() -> [CropSaver] {
        entries.values.compactMap(\.saver)
    }

    /// The last event of page load `page` that session `id` applied (0: none, or another page load's).
    func lastSequence(of id: String, page: String?) -> Int {
        guard let entry = entries[id], let page, entry.page == page else { return 0 }
        return entry.lastSequence
    }

    /// Session `id` applied event `sequence` of page load `page`.
    func applied(_ sequence: Int, page: String, session id: String) {
        guard var entry = entries[id] else { return }
        if entry.page != page {
            entry.page = page
            entry.lastSequence = 0
        }
        entry.lastSequence = max(entry.lastSequence, sequence)
        entries[id] = entry
    }

    /// A new editor session for a connection: restored from `recipe`, or at `start` (`nil`: the untouched
    /// picture).
    /// Returns the session and how it was made (what a page needs to run the same session in its own engine).
    func makeSession(
        on image: EditedImage, recipe: Recipe?, start: Recipe?, viewportSize: Size,
        insets: EdgeInsets
    ) throws -> (CropSession, SessionStartMessage) {
        var configuration = sessionConfiguration
        configuration.previewSize = image.previewSize
        let origin = recipe ?? start
        let session = try CropSession(
            state: state(of: image, recipe: origin), viewportSize: viewportSize, insets: insets,
            configuration: configuration)
        return (
            session,
            SessionStartMessage(
                storedSize: image.info.storedSize, orientation: image.info.orientation,
                minimumCropSize: minimumCropSize,
                configuration: configuration, recipe: origin)
        )
    }

    /// The picture session `id` edits and its current recipe (`nil` before any edit: the start).
    func edit(session id: String) throws -> (imageID: String, recipe: Recipe?) {
        guard var entry = entries[id], entry.connections > 0 || now() - entry.lastUsed <= lifetime else {
            throw EditorError.unknownSession(id)
        }
        entry.lastUsed = now()
        entries[id] = entry
        return (entry.imageID, entry.recipe)
    }

    /// The recipe a session on `image` renders: `recipe`, or where a new session starts (`start`, or the
    /// untouched picture).
    func recipe(_ recipe: Recipe?, of image: EditedImage, start: Recipe?) throws -> Recipe {
        try recipe ?? state(of: image, recipe: start).recipe
    }

    /// Forgets session `id` (Cancel). Returns its entry, `nil` when there was none.
    func remove(session id: String) -> Entry? {
        entries.removeValue(forKey: id)
    }

    /// Whether session `id` has an open connection.
    func isConnected(_ id: String) -> Bool { (entries[id]?.connections ?? 0) > 0 }

    /// Whether session `id` is still held.
    func contains(session id: String) -> Bool { entries[id] != nil }

    /// Drops expired sessions (those without a connection, unused for longer than the lifetime).
    func sweep() {
        let now = self.now()
        entries = entries.filter { $0.value.connections > 0 || now - $0.value.lastUsed <= lifetime }
    }

    private func insert(_ entry: Entry) -> String {
        if entries.count >= capacity,
            let oldest = entries.filter({ $0.value.connections == 0 }).min(by: { $0.value.lastUsed < $1.value.lastUsed }
            )
        {
            entries[oldest.key] = nil
        }
        let id = UUID().uuidString.lowercased()
        entries[id] = entry
        return id
    }

    private func state(of image: EditedImage, recipe: Recipe?) throws -> CropState {
        if let recipe {
            return try CropState(
                recipe: recipe, sourceSize: image.info.storedSize, orientation: image.info.orientation,
                minimumCropSize: minimumCropSize)
        }
        return try CropState(
            sourceSize: image.info.storedSize, orientation: image.info.orientation,
            minimumCropSize: minimumCropSize)
    }
}
