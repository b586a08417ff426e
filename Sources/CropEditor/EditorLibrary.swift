/// The pictures an editor server edits, each under a short id: the ones it was started with (ids `"0"`, `"1"`, …)
/// and the ones people open in the page (uploads, ids `"u1"`, `"u2"`, …).
///
/// Uploads are kept in memory, at most ``maximumUploads`` of them: opening one more forgets the oldest upload (a
/// page still showing it then gets a clear error, not a wrong picture). The server's own pictures are never
/// forgotten.
public actor EditorLibrary {
    /// How many uploaded pictures are kept at most.
    public let maximumUploads: Int
    private var images: [String: EditedImage] = [:]
    private var uploads: [String] = []
    private var uploadCount = 0
    /// The id of the first picture.
    public nonisolated let firstID = "0"

    /// A library of `images` (at least one), under the ids `"0"`, `"1"`, … in order.
    public init(_ images: [EditedImage], maximumUploads: Int = 16) {
        precondition(!images.isEmpty, "an editor needs at least one picture")
        for (i, image) in images.enumerated() { self.images[String(i)] = image }
        self.maximumUploads = max(1, maximumUploads)
    }

    /// The picture with `id`.
    /// - Throws: ``EditorError/unknownImage(_:)`` when there is none (never was, or an upload that was forgotten).
    public func image(_ id: String) throws(EditorError) -> EditedImage {
        guard let image = images[id] else { throw .unknownImage(id) }
        return image
    }

    /// Keeps an uploaded picture and returns its new id, forgetting the oldest upload when there are too many.
    public func add(upload image: EditedImage) -> String {
        uploadCount += 1
        let id = "u\(uploadCount)"
        images[id] = image
        uploads.append(id)
        while uploads.count > maximumUploads {
            images[uploads.removeFirst()] = nil
        }
        return id
    }

    /// How many pictures are held (the server's and the uploads).
    public var count: Int { images.count }
}
