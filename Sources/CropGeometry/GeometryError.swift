/// Every error the geometry layer throws. Each case names the offending value.
public enum GeometryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A size that is negative, zero where a positive size is required, NaN or infinite.
    case invalidSize(String)
    /// A number that is NaN or infinite, or outside its allowed range.
    case invalidValue(name: String, value: Double, reason: String)
    /// An aspect ratio whose terms are not positive, or that cannot be parsed.
    case invalidAspectRatio(String)
    /// A rectangle that is empty, not finite, or lies outside the picture.
    case invalidRect(String)
    /// An EXIF orientation value outside 1…8.
    case invalidOrientation(Int)
    /// A recipe that cannot be read; `field` names the JSON field at fault.
    case invalidRecipe(field: String, reason: String)

    public var description: String {
        switch self {
        case .invalidSize(let message): "invalid size: \(message)"
        case .invalidValue(let name, let value, let reason): "invalid \(name) \(value): \(reason)"
        case .invalidAspectRatio(let message): "invalid aspect ratio: \(message)"
        case .invalidRect(let message): "invalid rectangle: \(message)"
        case .invalidOrientation(let value): "invalid EXIF orientation \(value): must be 1…8"
        case .invalidRecipe(let field, let reason): "invalid recipe field '\(field)': \(reason)"
        }
    }
}
