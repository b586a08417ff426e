/// Every error the pixel layer throws. Each case names the offending values.
public enum PixelError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A width or height below 1, or a row stride too small for the width.
    case invalidDimensions(width: Int, height: Int, reason: String)
    /// The image has more pixels than the configured limit allows (a decompression-bomb guard).
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// A size computation overflowed the platform's integer range.
    case sizeOverflow(width: Int, height: Int, bytesPerPixel: Int)
    /// A rectangle that is empty, not finite, or does not overlap the image.
    case invalidRect(String)
    /// An argument outside its allowed range (a radius, a border, a scale …).
    case invalidArgument(name: String, reason: String)
    /// Two buffers, or a buffer and an operation, whose formats do not fit together.
    case formatMismatch(String)

    public var description: String {
        switch self {
        case .invalidDimensions(let w, let h, let reason):
            "invalid image dimensions \(w)×\(h): \(reason)"
        case .tooManyPixels(let w, let h, let limit):
            "image of \(w)×\(h) = \(w.multipliedReportingOverflow(by: h).partialValue) pixels exceeds the limit of "
                + "\(limit) pixels"
        case .sizeOverflow(let w, let h, let bpp):
            "image of \(w)×\(h) at \(bpp) bytes per pixel is too large to address"
        case .invalidRect(let message):
            "invalid rectangle: \(message)"
        case .invalidArgument(let name, let reason):
            "invalid \(name): \(reason)"
        case .formatMismatch(let message):
            "pixel format mismatch: \(message)"
        }
    }
}

/// Limits that protect a process from hostile or accidental giant images.
///
/// Every decoder checks the header against these limits *before* allocating pixel memory, so a 100 000 × 100 000
/// "decompression bomb" costs a few bytes of header parsing, not 30 GB.
public struct PixelLimits: Hashable, Sendable {
    /// The largest number of pixels (width × height) an image may have. Default: 200 megapixels.
    public var maxPixels: Int

    /// Creates limits; `maxPixels` must be at least 1.
    public init(maxPixels: Int = 200_000_000) {
        precondition(maxPixels >= 1, "maxPixels must be at least 1")
        self.maxPixels = maxPixels
    }

    /// The default limits: 200 megapixels.
    public static let `default` = PixelLimits()

    /// No practical limit (`Int.max` pixels); memory can still run out.
    public static let unlimited = PixelLimits(maxPixels: .max)

    /// Checks dimensions against the limits and returns the pixel count.
    ///
    /// - Throws: ``PixelError/invalidDimensions(width:height:reason:)`` for a dimension below 1,
    ///   ``PixelError/tooManyPixels(width:height:limit:)`` above the limit, ``PixelError/sizeOverflow(width:height:bytesPerPixel:)``
    ///   when width × height overflows.
    @discardableResult
    public func check(width: Int, height: Int) throws(PixelError) -> Int {
        guard width >= 1, height >= 1 else {
            throw .invalidDimensions(width: width, height: height, reason: "both dimensions must be at least 1")
        }
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow else { throw .tooManyPixels(width: width, height: height, limit: maxPixels) }
        guard count <= maxPixels else { throw .tooManyPixels(width: width, height: height, limit: maxPixels) }
        return count
    }
}
