/// A size in whole pixels.
///
/// Both dimensions are at least 1; `init` rejects anything else, so a `PixelSize` can always back an image.
public struct PixelSize: Hashable, Sendable, CustomStringConvertible {
    /// Columns.
    public let width: Int
    /// Rows.
    public let height: Int

    /// Creates a pixel size, throwing ``GeometryError/invalidSize(_:)`` unless both dimensions are at least 1.
    public init(width: Int, height: Int) throws(GeometryError) {
        guard width >= 1, height >= 1 else {
            throw .invalidSize("\(width)×\(height) pixels: both dimensions must be at least 1")
        }
        self.width = width
        self.height = height
    }

    /// Creates a pixel size the caller has already validated; **traps** unless both dimensions are at least 1.
    ///
    /// For sizes that come from input, use the throwing ``init(width:height:)``.
    public init(validWidth width: Int, height: Int) {
        precondition(width >= 1 && height >= 1, "PixelSize must be at least 1×1, got \(width)×\(height)")
        self.width = width
        self.height = height
    }

    /// The same size as a continuous ``Size``.
    @inlinable
    public var size: Size { Size(width: width, height: height) }

    /// The same size with width and height exchanged.
    @inlinable
    public var transposed: PixelSize { PixelSize(validWidth: height, height: width) }

    /// `width × height`.
    @inlinable
    public var pixelCount: Int { width * height }

    public var description: String { "\(width)×\(height)" }
}
