import CropCodecs
import CropKit
import Foundation

/// A photo's crop saved beside it, non-destructively: the recipe (`Recipe`'s JSON) in a file named after the
/// photo's whole name plus ``suffix``, so `IMG_0412.jpg` has `IMG_0412.jpg.cropkit.json` (and `a.jpg` and `a.png`
/// never share one).
///
/// The photo itself is never opened for writing. The sidecar is written atomically (a temporary file in the same
/// folder, then renamed), so a crash leaves the old crop or the new one, never half of either.
public struct RecipeSidecar: Hashable, Sendable {
    /// What a sidecar's name adds to the photo's.
    public static let suffix = ".cropkit.json"
    /// The largest sidecar read, in bytes (a recipe is a few hundred).
    public static let maximumBytes = 64 * 1024

    /// The photo's path.
    public let photo: String

    /// The sidecar of the photo at `photo`.
    public init(photo: String) {
        self.photo = photo
    }

    /// The sidecar's path.
    public var path: String { photo + Self.suffix }

    /// Whether the sidecar exists.
    public var exists: Bool { FileManager.default.fileExists(atPath: path) }

    /// The saved crop, `nil` when there is no sidecar.
    /// - Throws: `EditorError.invalidSidecar(name:reason:)` when it cannot be read or is not a valid recipe.
    public func read() throws(EditorError) -> Recipe? {
        guard exists else { return nil }
        let name = (path as NSString).lastPathComponent
        let bytes: [UInt8]
        do {
            bytes = try FileIO.readPrefix(ofFileAtPath: path, maxBytes: Self.maximumBytes + 1).bytes
        } catch {
            throw .invalidSidecar(name: name, reason: error.description)
        }
        guard bytes.count <= Self.maximumBytes else {
            throw .invalidSidecar(name: name, reason: "it is larger than \(Self.maximumBytes) bytes")
        }
        do {
            return try Recipe(json: Data(bytes))
        } catch {
            throw .invalidSidecar(name: name, reason: error.description)
        }
    }

    /// Saves `recipe`, replacing the sidecar atomically.
    /// - Throws: `EditorError.cannotSave(name:reason:)` when the folder cannot be written.
    public func write(_ recipe: Recipe) throws(EditorError) {
        do {
            try FileIO.writeAtomically([UInt8](recipe.json()), toPath: path, overwrite: true)
        } catch {
            throw .cannotSave(name: (path as NSString).lastPathComponent, reason: error.description)
        }
    }

    /// Removes the sidecar (the photo is untouched again); nothing happens when there is none.
    /// - Throws: `EditorError.cannotSave(name:reason:)` when it exists and cannot be removed.
    public func remove() throws(EditorError) {
        guard exists else { return }
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            throw .cannotSave(name: (path as NSString).lastPathComponent, reason: "\(error.localizedDescription)")
        }
    }
}
