/// Which channels a pixel has, in memory order.
public enum ChannelLayout: String, CaseIterable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// One luminance channel.
    case gray
    /// Luminance, then alpha.
    case grayAlpha
    /// Red, green, blue.
    case rgb
    /// Red, green, blue, then alpha (straight, not premultiplied).
    case rgba

    /// The number of channels: 1…4.
    @inlinable
    public var channelCount: Int {
        switch self {
        case .gray: 1
        case .grayAlpha: 2
        case .rgb: 3
        case .rgba: 4
        }
    }

    /// Whether the last channel is alpha.
    @inlinable
    public var hasAlpha: Bool { self == .grayAlpha || self == .rgba }

    /// Whether the layout carries colour (RGB) rather than luminance only.
    @inlinable
    public var isColor: Bool { self == .rgb || self == .rgba }

    /// The number of colour channels, alpha excluded: 1 or 3.
    @inlinable
    public var colorChannelCount: Int { isColor ? 3 : 1 }

    /// The same colour model with an alpha channel.
    @inlinable
    public var withAlpha: ChannelLayout { isColor ? .rgba : .grayAlpha }

    /// The same colour model without an alpha channel.
    @inlinable
    public var withoutAlpha: ChannelLayout { isColor ? .rgb : .gray }

    public var description: String {
        switch self {
        case .gray: "gray"
        case .grayAlpha: "gray+alpha"
        case .rgb: "RGB"
        case .rgba: "RGBA"
        }
    }
}

/// Bits per channel sample.
public enum BitDepth: Int, CaseIterable, Hashable, Sendable, Codable {
    /// One byte per sample, 0…255.
    case eight = 8
    /// Two bytes per sample in native byte order, 0…65535.
    case sixteen = 16

    /// Bytes per sample: 1 or 2.
    @inlinable
    public var bytesPerSample: Int { self == .eight ? 1 : 2 }

    /// The largest sample value: 255 or 65535.
    @inlinable
    public var maxValue: Int { self == .eight ? 255 : 65535 }
}

/// The memory format of a pixel: its channel layout and bit depth.
public struct PixelFormat: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The channels, in memory order.
    public var layout: ChannelLayout
    /// Bits per channel.
    public var depth: BitDepth

    /// Creates a format.
    @inlinable
    public init(_ layout: ChannelLayout, _ depth: BitDepth = .eight) {
        self.layout = layout
        self.depth = depth
    }

    /// Gray, 8-bit.
    public static let gray8 = PixelFormat(.gray)
    /// Gray and alpha, 8-bit.
    public static let grayAlpha8 = PixelFormat(.grayAlpha)
    /// RGB, 8-bit.
    public static let rgb8 = PixelFormat(.rgb)
    /// RGBA, 8-bit.
    public static let rgba8 = PixelFormat(.rgba)
    /// Gray, 16-bit.
    public static let gray16 = PixelFormat(.gray, .sixteen)
    /// Gray and alpha, 16-bit.
    public static let grayAlpha16 = PixelFormat(.grayAlpha, .sixteen)
    /// RGB, 16-bit.
    public static let rgb16 = PixelFormat(.rgb, .sixteen)
    /// RGBA, 16-bit.
    public static let rgba16 = PixelFormat(.rgba, .sixteen)

    /// Channels per pixel.
    @inlinable
    public var channelCount: Int { layout.channelCount }

    /// Bytes per pixel: channels × bytes per sample.
    @inlinable
    public var bytesPerPixel: Int { layout.channelCount * depth.bytesPerSample }

    /// Whether the format has an alpha channel.
    @inlinable
    public var hasAlpha: Bool { layout.hasAlpha }

    /// The same depth with another layout.
    @inlinable
    public func with(layout: ChannelLayout) -> PixelFormat { PixelFormat(layout, depth) }

    /// The same layout with another depth.
    @inlinable
    public func with(depth: BitDepth) -> PixelFormat { PixelFormat(layout, depth) }

    public var description: String { "\(layout) \(depth.rawValue)-bit" }
}
