#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The presets file of `cropkit serve --presets` and of the command line's `--presets`: one preset per line, `NAME=QUERY` (the query as in a URL, e.g.
/// `thumb=size=300x300&mode=fill&format=auto`); blank lines and lines starting with `#` are ignored.
public enum PresetFile {
    /// The presets by name.
    ///
    /// - Throws: ``CropKitError/invalidRequest(name:reason:)`` (named `presets`) naming the line that has no name, or
    ///   a name given twice.
    public static func parse(_ text: String) throws(CropKitError) -> [String: String] {
        var presets: [String: String] = [:]
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            // Spaces and tabs around the line go (Foundation's `CharacterSet.whitespaces`: tab and Unicode's Zs).
            func isBlank(_ c: Character) -> Bool {
                c == "\t" || c.unicodeScalars.allSatisfy { $0.properties.generalCategory == .spaceSeparator }
            }
            let start = raw.firstIndex { !isBlank($0) } ?? raw.endIndex
            let line = raw[start..<(raw.lastIndex { !isBlank($0) }.map(raw.index(after:)) ?? start)]
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            guard let equals = line.firstIndex(of: "="), equals > line.startIndex else {
                throw .invalidRequest(name: "presets", reason: "line \(index + 1) is not NAME=QUERY")
            }
            let name = String(line[..<equals])
            guard presets[name] == nil else {
                throw .invalidRequest(name: "presets", reason: "line \(index + 1) repeats the preset '\(name)'")
            }
            presets[name] = String(line[line.index(after: equals)...])
        }
        return presets
    }
}
