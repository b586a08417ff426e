import CropKit
import Foundation

/// The pictures an editor server edits, each under a short id, and what is known of each: its preview, its
/// thumbnail, its saved crop and where its editing starts.
///
/// - **The server's own pictures** have the ids `"0"`, `"1"`, … in order. They are given in memory
///   (``init(_:maximumUploads:)``) or as files (``init(files:pipeline:previewMaximumSide:maximumUploads:start:)``,
///   `cropkit edit DIR`). A file is read only when it is first shown, and at most ``cachedFiles`` are held at once,
///   so a folder of 200 photos costs the memory of a few. Each file's crop is saved beside it in a
///   ``RecipeSidecar``; the photo itself is never written.
/// - **Uploads** (pictures opened in the page, ids `"u1"`, `"u2"`, …) are kept in memory, at most
///   ``maximumUploads``: opening one more forgets the oldest upload (a page still showing it then gets a clear
///   error, not a wrong picture). The server's own pictures are never forgotten.
public actor EditorLibrary {
    /// One of the server's own pictures.
    private struct Entry: Sendable {
        var name: String
        /// The file, for a picture of a folder or file list; `nil` for one given in memory.
        var path: String?
        /// The picture given in memory.
        var image: EditedImage?
    }

    /// What the page's strip shows of one of the server's pictures (`GET /api/images`).
    public struct Item: Codable, Hashable, Sendable {
        /// The picture's id.
        public var id: String
        /// The file's name.
        public var name: String
        /// Whether a crop is saved for it (a sidecar beside the file).
        public var edited: Bool
        /// Where its thumbnail is; the URL changes when the saved crop does.
        public var thumbnail: String
    }

    /// How many uploaded pictures are kept at most.
    public let maximumUploads: Int
    /// How many pictures read from files are held at once (previews and bytes); older ones are read again when
    /// shown again.
    public nonisolated let cachedFiles = 4
    /// The id of the first picture.
    public nonisolated let firstID = "0"
    /// Whether the server's pictures are files whose crops are saved beside them.
    public nonisolated var savesCrops: Bool { entries.contains { $0.path != nil } }
    /// The steps a picture without a saved crop starts from (a proposal), or none.
    public nonisolated let start: [ImageOperation]

    private nonisolated let entries: [Entry]
    private let pipeline: ImagePipeline
    private let previewMaximumSide: Int
    private var uploads: [String: EditedImage] = [:]
    private var uploadOrder: [String] = []
    private var uploadCount = 0
    private var loaded: [String: EditedImage] = [:]
    private var loadedOrder: [String] = []
    private var loading: [String: Task<EditedImage, any Error>] = [:]
    private var thumbnails: [String: (version: Int, bytes: [UInt8], format: ImageFormat)] = [:]
    private var versions: [String: Int] = [:]
    private var proposals: [String: EditorStart] = [:]

    /// A library of `images` (at least one) held in memory, under the ids `"0"`, `"1"`, … in order. Their crops
    /// are not saved anywhere.
    public init(_ images: [EditedImage], maximumUploads: Int = 16) {
        precondition(!images.isEmpty, "an editor needs at least one picture")
        self.entries = images.map { Entry(name: $0.name, path: nil, image: $0) }
        self.maximumUploads = max(1, maximumUploads)
        self.pipeline = ImagePipeline()
        self.previewMaximumSide = 1600
        self.start = []
    }

    /// A library of the photos at `files` (at least one; see ``PhotoFolder``), under the ids `"0"`, `"1"`, … in
    /// order, each read when first shown.
    ///
    /// - Parameters:
    ///   - files: the photos' paths, in the order the strip shows them.
    ///   - pipeline: reads the files and makes previews and thumbnails (its pixel limit applies).
    ///   - previewMaximumSide: the previews' longer side at most.
    ///   - maximumUploads: how many pictures opened in the page are kept at once.
    ///   - start: the steps a photo without a saved crop starts from (for example an attention crop), measured on
    ///     each photo when it is first edited; empty for the untouched photo.
    public init(
        files: [String], pipeline: ImagePipeline = ImagePipeline(), previewMaximumSide: Int = 1600,
        maximumUploads: Int = 16, start: [ImageOperation] = []
    ) {
        precondition(!files.isEmpty, "an editor needs at least one picture")
        self.entries = files.map { Entry(name: ($0 as NSString).lastPathComponent, path: $0, image: nil) }
        self.maximumUploads = max(1, maximumUploads)
        self.pipeline = pipeline
        self.previewMaximumSide = previewMaximumSide
        self.start = start
    }

    /// The ids of the server's own pictures, in order (uploads are not listed).
    public nonisolated var ids: [String] { entries.indices.map(String.init) }

    /// The file of picture `id`, when it is one of the server's pictures read from a file.
    public nonisolated func path(of id: String) -> String? {
        ownEntry(id)?.path
    }

    /// The name of picture `id` (its file's name), when it is one of the server's pictures.
    public nonisolated func name(of id: String) -> String? {
        ownEntry(id)?.name
    }

    private nonisolated func ownEntry(_ id: String) -> Entry? {
        guard let index = Int(id), String(index) == id, entries.indices.contains(index) else { return nil }
        return entries[index]
    }

    /// The picture with `id`, read and previewed if it is a file not held now.
    /// - Throws: `EditorError.unknownImage(_:)` when there is none (never was, or an upload that was forgotten);
    ///   the reason a file cannot be read (`EditorError.unsupportedImage(reason:)` and the like).
    public func image(_ id: String) async throws -> EditedImage {
        if let upload = uploads[id] { return upload }
        guard let entry = ownEntry(id) else { throw EditorError.unknownImage(id) }
        if let image = entry.image { return image }
        if let image = loaded[id] {
            loadedOrder.removeAll { $0 == id }
            loadedOrder.append(id)
            return image
        }
        let task: Task<EditedImage, any Error>
        if let running = loading[id] {
            task = running
        } else {
            let path = entry.path ?? "", pipeline = self.pipeline, side = previewMaximumSide
            task = Task.detached(priority: .userInitiated) {
                do {
                    return try EditedImage(
                        name: (path as NSString).lastPathComponent, bytes: try ImageSource.file(path).bytes(),
                        pipeline: pipeline, previewMaximumSide: side)
                } catch let error as CropKitError {
                    throw EditorError(error)
                }
            }
            loading[id] = task
        }
        let image: EditedImage
        do {
            image = try await task.value
        } catch {
            loading[id] = nil
            throw error
        }
        loading[id] = nil
        if loaded[id] == nil {
            loaded[id] = image
            loadedOrder.append(id)
            while loadedOrder.count > cachedFiles { loaded[loadedOrder.removeFirst()] = nil }
        }
        return image
    }

    /// Keeps an uploaded picture and returns its new id, forgetting the oldest upload when there are too many.
    public func add(upload image: EditedImage) -> String {
        uploadCount += 1
        let id = "u\(uploadCount)"
        uploads[id] = image
        uploadOrder.append(id)
        while uploadOrder.count > maximumUploads {
            uploads[uploadOrder.removeFirst()] = nil
        }
        return id
    }

    /// How many pictures are known (the server's and the uploads kept).
    public var count: Int { entries.count + uploads.count }

    // MARK: Saved crops

    /// The crop saved for picture `id`, `nil` when there is none (or it is not a file).
    /// - Throws: `EditorError.invalidSidecar(name:reason:)` when the sidecar exists but cannot be read.
    public nonisolated func savedCrop(of id: String) throws(EditorError) -> Recipe? {
        guard let path = path(of: id) else { return nil }
        return try RecipeSidecar(photo: path).read()
    }

    /// Saves `recipe` as picture `id`'s crop, replacing its sidecar; `nil` or an untouched crop removes the sidecar.
    /// Pictures that are not files have nothing saved. (Callers save only what changed: `CropSaver` compares with
    /// the crop it saved last.)
    public func save(_ recipe: Recipe?, of id: String) throws(EditorError) {
        guard let path = path(of: id) else { return }
        let sidecar = RecipeSidecar(photo: path)
        if let recipe, !recipe.isIdentity { try sidecar.write(recipe) } else { try sidecar.remove() }
        versions[id, default: 0] += 1
    }

    /// The strip's list: every one of the server's pictures with whether it has a saved crop.
    public func items() -> [Item] {
        ids.map { id in
            let path = path(of: id)
            let edited = path.map { RecipeSidecar(photo: $0).exists } ?? false
            return Item(
                id: id, name: name(of: id) ?? id, edited: edited,
                thumbnail: "api/images/\(id)/thumbnail?v=\(versions[id, default: 0])")
        }
    }

    // MARK: Thumbnails and starts

    /// Picture `id`'s thumbnail: its crop as saved (or its start), at most `side` pixels on the longer side, made
    /// with shrink-on-load from the file (never from a held preview) and kept until the crop changes.
    public func thumbnail(of id: String, side: Int = 160) async throws -> (bytes: [UInt8], format: ImageFormat) {
        let version = versions[id, default: 0]
        if let held = thumbnails[id], held.version == version { return (held.bytes, held.format) }
        guard let entry = ownEntry(id) else { throw EditorError.unknownImage(id) }
        let source: ImageSource = entry.path.map { .file($0) } ?? .data(entry.image?.bytes ?? [])
        let recipe = try await startRecipe(of: id)
        let pipeline = self.pipeline
        let made = try await Task.detached(priority: .utility) { () throws -> EncodedImage in
            do {
                // WebP (alpha kept), the first frame of an animation.
                var options = SaveOptions(format: .webp, quality: 80, stripMetadata: true)
                options.frames = .first
                return try pipeline.run(
                    source,
                    (recipe.map { [.recipe($0)] } ?? []) + [.fit(within: PixelSize(validWidth: side, height: side))],
                    to: .data(options))
            } catch let error as CropKitError {
                throw EditorError(error)
            }
        }.value
        thumbnails[id] = (version, made.bytes, made.format)
        return (made.bytes, made.format)
    }

    /// Where editing picture `id` starts when no session has a crop for it: its saved crop, else the library's
    /// ``start`` measured on it, else `nil` (the untouched picture). A sidecar that cannot be read is passed over.
    public func startRecipe(of id: String) async throws -> Recipe? {
        if let saved = try? savedCrop(of: id) { return saved }
        return try await proposal(for: id)?.recipe
    }

    /// The library's ``start`` measured on picture `id` (kept once measured), `nil` without a start.
    public func proposal(for id: String) async throws -> EditorStart? {
        guard !start.isEmpty else { return nil }
        if let known = proposals[id] { return known }
        guard let entry = ownEntry(id) else { throw EditorError.unknownImage(id) }
        let source: ImageSource = entry.path.map { .file($0) } ?? .data(entry.image?.bytes ?? [])
        let steps = start, pipeline = self.pipeline
        let proposal = try await Task.detached(priority: .userInitiated) { () throws -> EditorStart in
            do { return try EditorStart.proposed(for: source, steps, pipeline: pipeline) } catch let error
                as CropKitError
            {
                throw EditorError(error)
            }
        }.value
        proposals[id] = proposal
        return proposal
    }
}
