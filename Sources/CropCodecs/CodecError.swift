import CropPixels

/// Every error the codec layer throws. Each case names the problem and carries the offending values.
public enum CodecError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The data is not an image CropKit recognises (empty, or no known signature).
    case notAnImage(reason: String)
    /// A recognised image format CropKit cannot read or write (GIF, WebP, HEIF …).
    case unsupportedFormat(String)
    /// A format CropKit reads and writes through a system library that could not be loaded (missing, or another
    /// ABI); `reason` says which library and how to install it.
    case libraryUnavailable(format: ImageFormat, reason: String)
    /// A feature of a supported format that CropKit does not handle (12-bit JPEG, lossless JPEG, alpha in JPEG …).
    case unsupportedFeature(format: ImageFormat, feature: String)
    /// The data ends before the image is complete: the decoder needed bytes past the end. (A JPEG whose data holds
    /// every block but ends without its EOI marker decodes, with a ``CodecWarning``.)
    case truncated(format: ImageFormat, detail: String)
    /// The image has more pixels than the configured `PixelLimits` allow; nothing large was allocated.
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// The codec rejected the data; `message` is the codec's own message (libjpeg's or libpng's).
    case corruptData(format: ImageFormat, message: String)
    /// The codec needed more working memory than allowed, or memory ran out.
    case resourceLimit(format: ImageFormat, message: String)
    /// A file could not be read or written; `reason` is the system's message.
    case ioFailure(path: String, operation: String, reason: String)
    /// The output file exists and overwriting was not allowed.
    case fileExists(path: String)
    /// An argument outside its allowed range (quality, compression level, row stride …).
    case invalidArgument(name: String, reason: String)
    /// A font (for a text watermark) that cannot be used: not a font FreeType reads, bitmap-only, too large, or
    /// FreeType or HarfBuzz is not installed. `name` is its file's path.
    case unusableFont(name: String, reason: String)

    public var description: String {
        switch self {
        case .notAnImage(let reason):
            "not an image: \(reason)"
        case .unsupportedFormat(let name):
            "unsupported image format: \(name)"
        case .libraryUnavailable(let format, let reason):
            "\(format.displayName) support is unavailable: \(reason)"
        case .unsupportedFeature(let format, let feature):
            "unsupported \(format.displayName) feature: \(feature)"
        case .truncated(let format, let detail):
            "truncated \(format.displayName) data: \(detail)"
        case .tooManyPixels(let w, let h, let limit):
            "image of \(w)×\(h) = \(w.multipliedReportingOverflow(by: h).partialValue) pixels exceeds the limit of "
                + "\(limit) pixels"
        case .corruptData(let format, let message):
            "corrupt \(format.displayName) data: \(message)"
        case .resourceLimit(let format, let message):
            "\(format.displayName) decoding needs too much memory: \(message)"
        case .ioFailure(let path, let operation, let reason):
            "cannot \(operation) \(path): \(reason)"
        case .fileExists(let path):
            "\(path) already exists and overwriting was not allowed"
        case .invalidArgument(let name, let reason):
            "invalid \(name): \(reason)"
        case .unusableFont(let name, let reason):
            "cannot use the font \(name): \(reason)"
        }
    }

    /// Maps a pixel-layer error met while allocating a decoded image.
    init(_ error: PixelError) {
        switch error {
        case .tooManyPixels(let w, let h, let limit):
            self = .tooManyPixels(width: w, height: h, limit: limit)
        case .sizeOverflow(let w, let h, _):
            self = .tooManyPixels(width: w, height: h, limit: Int.max)
        default:
            self = .invalidArgument(name: "image", reason: error.description)
        }
    }
}
