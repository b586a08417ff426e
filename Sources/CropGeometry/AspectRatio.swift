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

    /// The largest size of this ratio that fits in `bounds` (as wide or as tall as it).
    public func largestSize(in bounds: Size) -> Size {
        let width = Swift.min(bounds.width, bounds.height * value)
        return Size(width: width, height: width / value)
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
