import CropEditor
import CropKit
import CropWeb
import Foundation

/// The options of a signed editor URL, `GET /edit/<path>?<options>&sig=…`: what the host requires of the crop, where
/// the editing starts, and the output the `done` URL asks for. Every one is signed with the URL, so the person
/// editing cannot change them.
///
/// | name | value |
/// |---|---|
/// | `aspect` | `W:H`: the crop keeps this ratio (the page cannot change it) |
/// | `min-size` | the smallest crop side, in source pixels |
/// | `size` | `WxH`: the exact output size (the aspect is then W:H) |
/// | `round` | a flag: a round output (the page draws a circle; the `done` URL's outside is transparent) |
/// | `recipe` | the crop to start from, base64url JSON (as in image URLs) |
/// | `format` | the output format of the `done` URL (`jpeg`, `png`, `webp`, `avif`, `heic`, `auto`) |
/// | `quality` | its quality, 1…100 |
public struct EditQuery: Sendable, Equatable {
    /// What the crop and the output must be.
    public var constraints: CropConstraints
    /// Where the editing starts, if not at the untouched picture.
    public var recipe: Recipe?
    /// `format=…&quality=…` as given, for the `done` URL (empty: the source's format).
    public var outputQuery: String

    static let names: Set<String> = ["aspect", "min-size", "size", "round", "recipe", "format", "quality"]

    /// Parses the query.
    ///
    /// - Parameter query: percent-encoded `name=value` pairs joined by `&`, `sig` already removed.
    /// - Throws: `WebError.invalidParameter(name:reason:)` naming the parameter that is unknown, repeated,
    ///   malformed or contradicts another.
    public init(query: String) throws(WebError) {
        var values: [String: String] = [:]
        for item in try ImageService.editorErrors({ () throws(CropKitError) in try ImageQuery.items(query) }) {
            guard Self.names.contains(item.name) else {
                throw .invalidParameter(
                    name: item.name,
                    reason: "unknown editor parameter (aspect, min-size, size, round, recipe, format, quality)")
            }
            guard values.updateValue(item.value, forKey: item.name) == nil else {
                throw .invalidParameter(name: item.name, reason: "given more than once")
            }
        }
        func value<T>(_ name: String, _ parse: (String) -> T?, _ expected: String) throws(WebError) -> T? {
            guard let text = values[name] else { return nil }
            guard let parsed = parse(text) else {
                throw .invalidParameter(name: name, reason: "'\(text)' is not \(expected)")
            }
            return parsed
        }
        let aspect = try value("aspect", { try? AspectRatio(string: $0) }, "a ratio W:H")
        let minimum = try value(
            "min-size", { Int($0).flatMap { $0 >= 1 ? $0 : nil } }, "a whole number of pixels, at least 1")
        let size = try value("size", OptionValue.size, "a size WxH")
        let round =
            try value(
                "round", { ["", "1", "true"].contains($0) ? true : ["0", "false"].contains($0) ? false : nil },
                "a flag (empty, 1, true, 0 or false)") ?? false
        if let aspect, let size, aspect != AspectRatio(of: size) {
            throw .invalidParameter(
                name: "aspect", reason: "\(aspect) is not the ratio of size \(size.width)x\(size.height)")
        }
        constraints = try CropConstraints(
            aspect: aspect, minimumCropSize: Double(minimum ?? 1), outputSize: size, isRound: round)
        if let text = values["recipe"] {
            guard let json = URLSigner.base64URLDecoded(text) else {
                throw .invalidParameter(name: "recipe", reason: "not base64url")
            }
            do { recipe = try Recipe(json: json) } catch {
                throw .invalidParameter(name: "recipe", reason: "\(error)")
            }
        }
        var format: ImageFormat?
        if let text = values["format"], text != "auto" {
            guard let parsed = OptionValue.format(text) else {
                throw .invalidParameter(
                    name: "format", reason: "'\(text)' is not \(OptionValue.formatList(adding: ["auto"]))")
            }
            format = parsed
        }
        if round, format == .jpeg { throw WebError(ImageQuery.roundNeedsAlpha) }
        let quality = try value("quality", { Int($0) }, "a whole number")
        try SaveOptions(format: format, quality: quality).checked(for: format)
        outputQuery = ["format", "quality"].compactMap { name in values[name].map { "\(name)=\($0)" } }
            .joined(separator: "&")
    }
}
