/// File-path text as the command line names it (`NSString`'s path methods without Foundation): paths stay as the user
/// wrote them, relative or not, since messages print them.
package enum Paths {
    /// The part after the last `/`, trailing slashes ignored: `a/b.jpg` → `b.jpg`, `a/b/` → `b`, `/` → `/`.
    package static func lastComponent(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard trimmed != "/", let slash = trimmed.lastIndex(of: "/") else { return String(trimmed) }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// A file name split at its last dot: `b.tar.gz` → (`b.tar`, `gz`); no extension for `b` or `.profile`.
    package static func splitExtension(_ name: String) -> (stem: String, pathExtension: String) {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (name, "") }
        return (String(name[..<dot]), String(name[name.index(after: dot)...]))
    }

    /// `name` inside the folder `folder`: `out` + `a.jpg` → `out/a.jpg`, `out/` + `a.jpg` → `out/a.jpg`.
    package static func joined(_ folder: String, _ name: String) -> String {
        folder.isEmpty ? name : folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}
