/// The aspect constraint of a crop.
///
/// - ``free``: any width and height.
/// - ``original``: the ratio of the *upright* picture (the stored image after its EXIF orientation and the user's
///   quarter turns), reduced; it follows the picture when it is turned.
/// - ``ratio(_:)``: a fixed `W:H`, held as reduced integers.
///
/// A locked crop renders at an integer output size that is *exactly* proportional: `(k·W, k·H)` pixels (see
/// `OutputSizing`). Encoded as a JSON string: `"free"`, `"original"` or `"W:H"`.
public enum AspectLock: Hashable, Sendable, CustomStringConvertible {
    /// No lock: the crop takes any proportions.
    case free
    /// The upright picture's own proportions.
    case original
    /// Exactly these proportions.
    case ratio(AspectRatio)

    /// A fixed `width:height` lock, reduced; throws for terms outside `1...AspectRatio.maximumTerm`.
    public static func ratio(_ width: Int, _ height: Int) throws(GeometryError) -> AspectLock {
        .ratio(try AspectRatio(width, height))
    }

    /// 1:1.
    public static let square = AspectLock.ratio(.square)

    /// Parses `"free"`, `"original"` or `"W:H"`.
    public init(string: String) throws(GeometryError) {
        switch string.lowercased() {
        case "free": self = .free
        case "original": self = .original
        default: self = .ratio(try AspectRatio(string: string))
        }
    }

    /// The ratio this lock imposes on a picture whose upright size is `uprightSize`; `nil` when free.
    public func aspectRatio(uprightSize: PixelSize) -> AspectRatio? {
        switch self {
        case .free: nil
        case .original: AspectRatio(of: uprightSize)
        case .ratio(let r): r
        }
    }

    /// `"free"`, `"original"` or `"W:H"`.
    public var description: String {
        switch self {
        case .free: "free"
        case .original: "original"
        case .ratio(let r): r.description
        }
    }
}
