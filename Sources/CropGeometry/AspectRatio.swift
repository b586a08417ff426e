/// A width-to-height ratio kept as two reduced positive integers, so that equality is exact.
///
/// `AspectRatio(4, 3) == AspectRatio(8, 6)`; there is no floating-point comparison anywhere in its `Equatable`
/// conformance. Use ``value`` when a `Double` is needed.
public struct AspectRatio: Hashable, Sendable, CustomStringConvertible {
    /// The reduced width term (at least 1).
    public let width: Int
    /// The reduced height term (at least 1).
    public let height: Int

    /// The largest accepted term before reduction; keeps every product of terms and pixel sizes far from overflow.
    public static let maximumTerm = 1_000_000

    /// Creates the ratio `width:height`, reduced by their greatest common divisor.
    ///
    /// Throws ``GeometryError/invalidAspectRatio(_:)`` unless both terms are in `1...maximumTerm`.
    public init(_ width: Int, _ height: Int) throws(GeometryError) {
        guard (1...Self.maximumTerm).contains(width), (1...Self.maximumTerm).contains(height) else {
            throw .invalidAspectRatio("\(width):\(height): both terms must be whole numbers in 1…\(Self.maximumTerm)")
        }
        let g = Self.gcd(width, height)
        self.width = width / g
        self.height = height / g
    }

    /// The ratio of a pixel size, reduced (4032×3024 gives 4:3).
    public init(of size: PixelSize) {
        let g = Self.gcd(size.width, size.height)
        self.width = size.width / g
        self.height = size.height / g
    }

    /// Parses `"W:H"` (also `"W/H"` and `"WxH"`), e.g. `"16:9"`.
    public init(string: String) throws(GeometryError) {
        let separators: Set<Character> = [":", "/", "x", "×"]
        let parts = string.split(omittingEmptySubsequences: false, whereSeparator: { separators.contains($0) })
        guard parts.count == 2,
            let w = Int(parts[0].trimmingSpaces), let h = Int(parts[1].trimmingSpaces)
        else {
            throw .invalidAspectRatio("'\(string)': expected W:H with whole numbers, e.g. 3:2")
        }
        try self.init(w, h)
    }

    /// `width / height` as a `Double`.
    @inlinable
    public var value: Double { Double(width) / Double(height) }

    /// The ratio with its terms exchanged (3:2 becomes 2:3).
    public var transposed: AspectRatio {
        // Already reduced, so no validation is needed.
        AspectRatio(uncheckedWidth: height, height: width)
    }

    /// 1:1.
    public static let square = AspectRatio(uncheckedWidth: 1, height: 1)

    /// `"W:H"`.
    public var description: String { "\(width):\(height)" }

    private init(uncheckedWidth width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    static func gcd(_ a: Int, _ b: Int) -> Int {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return Swift.max(a, 1)
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var s = self
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return s
    }
}

/// The aspect constraint of a crop.
///
/// - ``free``: any width and height.
/// - ``original``: the ratio of the *upright* picture (the stored image after its EXIF orientation and the user's
///   quarter turns), reduced; it follows the picture when it is turned.
/// - ``ratio(_:)``: a fixed `W:H`, held as reduced integers.
///
/// A locked crop renders at an integer output size that is *exactly* proportional: `(k·W, k·H)` pixels (see
/// ``OutputSizing``). Encoded as a JSON string: `"free"`, `"original"` or `"W:H"`.
public enum AspectLock: Hashable, Sendable, Codable, CustomStringConvertible {
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

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let string = try container.decode(String.self)
        do {
            self = try AspectLock(string: string)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
