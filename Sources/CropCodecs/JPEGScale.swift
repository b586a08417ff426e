import CropGeometry
import CropPixels

/// JPEG shrink-on-load: libjpeg's DCT scaling decodes straight to 1/2, 1/4 or 1/8 of the stored size, which is much
/// faster and smaller than decoding the full image and resizing.
public enum JPEGScale: Int, CaseIterable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// Full size.
    case full = 1
    /// Half size (1/2).
    case half = 2
    /// Quarter size (1/4).
    case quarter = 4
    /// An eighth (1/8).
    case eighth = 8

    /// The divisor: 1, 2, 4 or 8.
    @inlinable
    public var denominator: Int { rawValue }

    /// The decoded size of an image stored at `width × height`: each dimension divided and rounded up, as libjpeg
    /// does.
    public func scaledSize(width: Int, height: Int) -> (width: Int, height: Int) {
        ((width + denominator - 1) / denominator, (height + denominator - 1) / denominator)
    }

    /// The largest reduction whose output still covers `minWidth × minHeight`, so that a later resize only ever
    /// shrinks.
    public static func largestReduction(width: Int, height: Int, minWidth: Int, minHeight: Int) -> JPEGScale {
        for scale in [JPEGScale.eighth, .quarter, .half] {
            let size = scale.scaledSize(width: width, height: height)
            if size.width >= minWidth && size.height >= minHeight { return scale }
        }
        return .full
    }

    public var description: String { self == .full ? "1" : "1/\(denominator)" }
}
