/// A colour for padding, borders and flattening: red, green, blue and straight alpha, stored at 16 bits so that it
/// is exact in both 8-bit and 16-bit buffers (an 8-bit value `v` is stored as `v × 257`).
///
/// In a gray buffer the colour becomes its luminance (Rec. 709 weights on the stored values); in a buffer without
/// alpha, its alpha is ignored (operations that need transparency add an alpha channel first).
public struct PixelColor: Hashable, Sendable, CustomStringConvertible {
    /// Red, 0…65535.
    public var red: UInt16
    /// Green, 0…65535.
    public var green: UInt16
    /// Blue, 0…65535.
    public var blue: UInt16
    /// Alpha, 0 (transparent) … 65535 (opaque).
    public var alpha: UInt16

    /// Creates a colour from 16-bit components.
    public init(red16: UInt16, green16: UInt16, blue16: UInt16, alpha16: UInt16 = .max) {
        red = red16
        green = green16
        blue = blue16
        alpha = alpha16
    }

    /// Creates a colour from 8-bit components.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = .max) {
        self.init(
            red16: UInt16(red) * 257, green16: UInt16(green) * 257, blue16: UInt16(blue) * 257,
            alpha16: UInt16(alpha) * 257)
    }

    /// Creates a gray from an 8-bit level.
    public init(gray: UInt8, alpha: UInt8 = .max) {
        self.init(red: gray, green: gray, blue: gray, alpha: alpha)
    }

    /// Opaque black.
    public static let black = PixelColor(gray: 0)
    /// Opaque white.
    public static let white = PixelColor(gray: 255)
    /// Fully transparent black.
    public static let transparent = PixelColor(gray: 0, alpha: 0)

    /// Whether alpha is at its maximum.
    public var isOpaque: Bool { alpha == .max }

    /// Rec. 709 luminance of the stored values, 0…65535.
    public var luminance: UInt16 {
        let r: Double = 0.2126 * Double(red), g: Double = 0.7152 * Double(green), b: Double = 0.0722 * Double(blue)
        return UInt16((r + g + b).rounded())
    }

    /// The colour's samples in `format`, in channel order, at the format's depth.
    public func samples(for format: PixelFormat) -> [Int] {
        let values16: [UInt16]
        switch format.layout {
        case .gray: values16 = [luminance]
        case .grayAlpha: values16 = [luminance, alpha]
        case .rgb: values16 = [red, green, blue]
        case .rgba: values16 = [red, green, blue, alpha]
        }
        return values16.map { format.depth == .eight ? (Int($0) + 128) / 257 : Int($0) }
    }

    public var description: String {
        "PixelColor(r: \(red), g: \(green), b: \(blue), a: \(alpha) of 65535)"
    }
}
