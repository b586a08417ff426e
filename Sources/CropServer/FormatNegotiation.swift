import CropKit
import CropWeb
import Foundation

/// `format=auto`: the output format from the client's `Accept` header. AVIF, then JPEG XL, then WebP, then JPEG; PNG
/// instead of JPEG when the result has alpha and none of the others is accepted. A type counts as accepted when
/// `Accept` names it, or `image/*` or `*/*`, with a quality above 0; an explicit `q=0` refuses it even under a
/// wildcard. JPEG XL only when named (`image/jxl`, as Safari sends): browsers that cannot show it still send
/// `image/*`. Decided by `Benchmarks/new-formats.sh`'s measure: at the default qualities JPEG XL is 0.8× WebP's bytes at
/// the same SSIM, and AVIF smaller still.
/// Decided: a missing `Accept` header accepts nothing special (JPEG or PNG), as browsers always send one. An
/// animation that keeps its frames is answered in WebP when accepted, else GIF: both `ImageFormat.writesAnimation`,
/// and an AVIF sequence, which CropKit also writes, costs an AV1 encode per frame, too slow to make on demand.
public enum FormatNegotiation {
    /// The format to answer with.
    public static func format(accept: String?, hasAlpha: Bool, animated: Bool = false) -> ImageFormat {
        let ranges = MediaRanges(accept)
        if animated { return ranges.accepts("image/webp") ? .webp : .gif }
        if ranges.accepts("image/avif") { return .avif }
        if ranges.names("image/jxl") { return .jxl }
        if ranges.accepts("image/webp") { return .webp }
        return hasAlpha ? .png : .jpeg
    }
}
