import CropWeb
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The folder images are served from. A request path resolves to a regular file inside it or to nothing: `..`,
/// `.` and empty segments are refused whether sent plain or percent-encoded, as are NUL bytes and backslashes, and
/// the file's real path (symbolic links resolved) must still lie inside the folder's real path.
public struct SourceFolder: Sendable {
    /// The folder's real path (symbolic links resolved).
    public let root: String

    /// A source file and what identifies this version of it.
    public struct Source: Sendable, Hashable {
        /// The real path.
        public var path: String
        /// The size in bytes.
        public var size: Int
        /// The modification time, in nanoseconds since 1970.
        public var modified: Int64
    }

    /// - Throws: ``ServiceSetupError/badRoot(path:reason:)`` when `root` is not a readable folder.
    public init(root: String) throws(ServiceSetupError) {
        guard let real = Self.realPath(root) else { throw .badRoot(path: root, reason: "no such folder") }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: real, isDirectory: &isFolder), isFolder.boolValue else {
            throw .badRoot(path: root, reason: "not a folder")
        }
        self.root = real
    }

    /// The file that `path` (the part of the URL path after `/img/`, still percent-encoded) names.
    ///
    /// - Throws: `WebError.notFound(path:)` for anything that is not a regular file inside the folder, with
    ///   the same answer for a traversal attempt as for a missing file (nothing is revealed about the outside).
    public func resolve(_ path: Substring) throws(WebError) -> Source {
        let notFound = WebError.notFound(path: "/img/" + path)
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        var decoded: [String] = []
        for segment in segments {
            guard let name = String(segment).removingPercentEncoding, !name.isEmpty, name != ".", name != "..",
                !name.contains("/"), !name.contains("\\"), !name.contains("\0")
            else { throw notFound }
            decoded.append(name)
        }
        guard !decoded.isEmpty, let real = Self.realPath(root + "/" + decoded.joined(separator: "/")),
            real.hasPrefix(root + "/")
        else { throw notFound }
        var status = stat()
        guard stat(real, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { throw notFound }
        #if canImport(Darwin)
            let modified = Int64(status.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(status.st_mtimespec.tv_nsec)
        #else
            let modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
        #endif
        return Source(path: real, size: Int(status.st_size), modified: modified)
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// Why the service cannot start.
public enum ServiceSetupError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The source folder is missing or not a folder.
    case badRoot(path: String, reason: String)
    /// No signing key, and `--allow-unsigned` was not given.
    case noSigningKey
    /// The keys could not be read.
    case badKeys(String)
    /// The presets file could not be read.
    case badPresets(String)
    /// A `--watermark NAME=FILE` (or `--font NAME=FILE`) without a name, named twice, or whose file is no picture
    /// (no font); the reason starts with the option.
    case badWatermark(String)
    /// An `--origin` prefix is not an absolute http(s) URL without a query.
    case badOrigin(String)

    public var description: String {
        switch self {
        case .badRoot(let path, let reason): "the source folder \(path): \(reason)"
        case .noSigningKey:
            "no signing key: set CROPKIT_SIGNING_KEY (hex) or --key-file, or pass --allow-unsigned for development"
        case .badKeys(let reason): "the signing keys: \(reason)"
        case .badPresets(let reason): "the presets: \(reason)"
        case .badWatermark(let reason): reason
        case .badOrigin(let text): "the origin '\(text)' is not an absolute http(s) URL prefix without a query"
        }
    }
}
