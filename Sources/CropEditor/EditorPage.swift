import CropKit
import Foundation

/// The editor page's files, read once from the package's resources into memory.
///
/// The server answers a fixed set of paths from this table and nothing else: no request path is ever joined to a
/// directory or handed to the file system.
public struct EditorPage: Sendable {
    /// One served file.
    public struct Asset: Sendable {
        /// The bytes.
        public var bytes: [UInt8]
        /// The MIME type.
        public var contentType: String
        /// The bytes gzip-compressed, when that makes them smaller (served to browsers that accept gzip).
        public var gzipped: [UInt8]?
        /// A strong entity tag for the bytes (the gzipped ones add `-gzip`), so that a revalidation costs a 304.
        public var entityTag: String

        /// An asset of `bytes`, compressed and tagged now.
        public init(bytes: [UInt8], contentType: String) {
            self.bytes = bytes
            self.contentType = contentType
            let compressed = Gzip.compress(bytes)
            gzipped = compressed.flatMap { $0.count < bytes.count ? $0 : nil }
            // FNV-1a, 64 bits: enough to tell versions of a file apart (not a security measure).
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            let hex = String(hash, radix: 16)
            entityTag = "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
        }

        /// The entity tag of the gzipped bytes.
        public var gzippedEntityTag: String { String(entityTag.dropLast()) + "-gzip\"" }
    }

    /// URL path (`/`, `/editor.js` …) → file.
    public let assets: [String: Asset]

    /// The served files: URL path, resource name, MIME type.
    static let files: [(path: String, resource: String, type: String)] = [
        ("/", "index.html", "text/html; charset=utf-8"),
        ("/editor.css", "editor.css", "text/css; charset=utf-8"),
        ("/editor.js", "editor.js", "text/javascript; charset=utf-8"),
        ("/favicon.svg", "favicon.svg", "image/svg+xml"),
        ("/embed.js", "embed.js", "text/javascript; charset=utf-8"),
        // The crop engine in the page (and the drop-in component built on it): the page runs the session's engine
        // itself. Served with a day's cache lifetime, see `EditorServer.assetResponse`.
        ("/web/cropkit-engine.js", "web/cropkit-engine.js", "text/javascript; charset=utf-8"),
        ("/web/cropkit-engine.wasm", "web/cropkit-engine.wasm", "application/wasm"),
        ("/web/cropkit-cropper.js", "web/cropkit-cropper.js", "text/javascript; charset=utf-8"),
        ("/web/cropkit-draw.js", "web/cropkit-draw.js", "text/javascript; charset=utf-8"),
    ]

    /// Reads the page from the package resources.
    /// - Throws: ``EditorPageError`` naming a resource that is missing or unreadable.
    public init() throws(EditorPageError) {
        let directory = Self.resourceDirectory()
        var assets: [String: Asset] = [:]
        for file in Self.files {
            guard let directory, let data = FileManager.default.contents(atPath: directory + "/" + file.resource)
            else {
                throw EditorPageError(resource: file.resource)
            }
            assets[file.path] = Asset(bytes: [UInt8](data), contentType: file.type)
        }
        self.assets = assets
    }

    /// The folder holding the page (`ResourceBundle`: the Linux and Apple bundle layouts, an installed
    /// `share/cropkit`, then the source tree this binary was built from).
    static func resourceDirectory() -> String? {
        ResourceBundle.directory(
            target: "CropEditor", subfolder: "Resources", marker: "index.html",
            source: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Resources").path
        )
    }
}

/// A file of the editor page is missing from the package resources (a broken installation).
public struct EditorPageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The resource's name.
    public var resource: String
    public var description: String { "the editor page resource '\(resource)' is missing from the installation" }
}
