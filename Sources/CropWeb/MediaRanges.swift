import Foundation

/// An `Accept` header's media ranges: what a client says it takes. The image service's format negotiation and the
/// editor's previews and regions both read it.
package struct MediaRanges: Sendable {
    /// The ranges with their `q` (1 when absent), lower-cased.
    package let ranges: [(type: String, quality: Double)]

    /// Parses an `Accept` header (`nil`: no header, which accepts nothing special).
    package init(_ header: String?) {
        ranges = (header ?? "").split(separator: ",").compactMap { part in
            let fields = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let type = fields.first, !type.isEmpty else { return nil }
            var quality = 1.0
            for field in fields.dropFirst() where field.hasPrefix("q=") {
                quality = Double(field.dropFirst(2)).map { min(max($0, 0), 1) } ?? 1
            }
            return (type, quality)
        }
    }

    /// Whether `type` is named with a quality above 0 (a wildcard does not count: for formats a client may not show
    /// although it says `image/*`, as JPEG XL).
    package func names(_ type: String) -> Bool {
        ranges.first { $0.type == type }.map { $0.quality > 0 } ?? false
    }

    /// Whether `type` is accepted: named with a quality above 0, or under `image/*` when not named (an explicit
    /// `q=0` refuses it even under a wildcard). `*/*` alone does not announce AVIF or WebP support.
    package func accepts(_ type: String) -> Bool {
        if let exact = ranges.first(where: { $0.type == type }) { return exact.quality > 0 }
        if let images = ranges.first(where: { $0.type == "image/*" }) { return images.quality > 0 }
        return false
    }
}
