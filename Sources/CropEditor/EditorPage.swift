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
    }

    /// URL path (`/`, `/editor.js` …) → file.
    public let assets: [String: Asset]

    /// The served files: URL path, resource name, MIME type.
    static let files: [(path: String, resource: String, type: String)] = [
        ("/", "index.html", "text/html; charset=utf-8"),
        ("/editor.css", "editor.css", "text/css; charset=utf-8"),
        ("/editor.js", "editor.js", "text/javascript; charset=utf-8"),
    ]

    /// Reads the page from the package resources.
    /// - Throws: ``EditorPageError`` naming a resource that is missing or unreadable.
    public init() throws(EditorPageError) {
        var assets: [String: Asset] = [:]
        for file in Self.files {
            let name = (file.resource as NSString).deletingPathExtension
            let ext = (file.resource as NSString).pathExtension
            guard let url = Bundle.module.url(forResource: name, withExtension: ext, subdirectory: "Resources"),
                let data = try? Data(contentsOf: url)
            else {
                throw EditorPageError(resource: file.resource)
            }
            assets[file.path] = Asset(bytes: [UInt8](data), contentType: file.type)
        }
        self.assets = assets
    }
}

/// A file of the editor page is missing from the package resources (a broken installation).
public struct EditorPageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The resource's name.
    public var resource: String
    public var description: String { "the editor page resource '\(resource)' is missing from the installation" }
}
