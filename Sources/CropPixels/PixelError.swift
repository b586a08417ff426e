/// Every error the pixel layer throws. Each case names the offending values.
public enum PixelError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A width or height below 1, or a row stride too small for the width.
    case invalidDimensions(width: Int, height: Int, reason: String)
    /// The image has more pixels than the configured limit allows (a decompression-bomb guard).
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// An animation's frames × canvas pixels are above ``PixelLimits/maxAnimationPixels``.
    case tooManyAnimationPixels(frames: Int, width: Int, height: Int, limit: Int)
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
        case .tooManyAnimationPixels(let frames, let w, let h, let limit):
            "animation of \(frames) frames of \(w)×\(h) pixels exceeds the limit of \(limit) pixels over all frames"
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
