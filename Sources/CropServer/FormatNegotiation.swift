import CropKit
import Foundation

/// `format=auto`: the output format from the client's `Accept` header. AVIF, then WebP, then JPEG; PNG instead of
/// JPEG when the result has alpha and neither AVIF nor WebP is accepted. A type counts as accepted when `Accept`
/// names it, or `image/*` or `*/*`, with a quality above 0; an explicit `q=0` refuses it even under a wildcard.
/// Decided: a missing `Accept` header accepts nothing special (JPEG or PNG), as browsers always send one. An
/// animation that keeps its frames is answered in WebP when accepted, else GIF (CropKit writes no animated AVIF).
public enum FormatNegotiation {
    /// The format to answer with.
    public static func format(accept: String?, hasAlpha: Bool, animated: Bool = false) -> ImageFormat {
        let ranges = parse(accept ?? "")
        func accepts(_ type: String) -> Bool {
            if let exact = ranges.first(where: { $0.type == type }) { return exact.quality > 0 }
            if let images = ranges.first(where: { $0.type == "image/*" }) { return images.quality > 0 }
            return false  // */* alone does not announce AVIF or WebP support
        }
        if animated { return accepts("image/webp") ? .webp : .gif }
        if accepts("image/avif") { return .avif }
        if accepts("image/webp") { return .webp }
        return hasAlpha ? .png : .jpeg
    }

    /// Media ranges with their `q` (1 when absent), lower-cased.
    static func parse(_ header: String) -> [(type: String, quality: Double)] {
        header.split(separator: ",").compactMap { part in
            let fields = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let type = fields.first, !type.isEmpty else { return nil }
            var quality = 1.0
            for field in fields.dropFirst() where field.hasPrefix("q=") {
                quality = Double(field.dropFirst(2)).map { min(max($0, 0), 1) } ?? 1
            }
            return (type, quality)
        }
    }
}
