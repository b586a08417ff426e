#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A reconstruction filter for resampling.
///
/// Each filter is a kernel `k(x)` of the distance `x` between a source pixel centre and the sampling position, in
/// source pixels, that is zero outside `-support…support`. When reducing by a factor `s > 1`, the kernel is stretched
/// by `s` (its support grows to `support × s`), so it removes what the smaller output cannot show. The definitions
/// are Pillow's (and the textbook ones), so results can be compared with `Image.resize` pixel for pixel.
public enum ResamplingFilter: String, CaseIterable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// Nearest neighbour: the source pixel whose area contains the sampling position. Fast, blocky, aliases.
    case nearest
    /// Box (area average): every source pixel under the output pixel weighs the same. Exact averages for
    /// integer reductions.
    case box
    /// Bilinear (triangle, support 1).
    case bilinear
    /// Bicubic with `a = −0.5` (Catmull-Rom, support 2): sharp, interpolating, slight overshoot.
    case catmullRom
    /// Mitchell–Netravali with `B = C = 1/3` (support 2): a softer cubic with little ringing.
    case mitchell
    /// Lanczos with three lobes (support 3): the sharpest, and the default for reductions.
    case lanczos3

    /// The kernel's radius at scale 1, in source pixels.
    @inlinable
    public var support: Double {
        switch self {
        case .nearest, .box: 0.5
        case .bilinear: 1
        case .catmullRom, .mitchell: 2
        case .lanczos3: 3
        }
    }

    /// The kernel value at distance `x` (in source pixels, at scale 1).
    ///
    /// The box is half-open, `(−0.5, 0.5]`, so that an integer reduction takes each source pixel exactly once.
    public func weight(_ x: Double) -> Double {
        switch self {
        case .nearest, .box:
            return x > -0.5 && x <= 0.5 ? 1 : 0
        case .bilinear:
            let ax = abs(x)
            return ax < 1 ? 1 - ax : 0
        case .catmullRom:
            let a = -0.5, ax = abs(x)
            if ax < 1 { return ((a + 2) * ax - (a + 3)) * ax * ax + 1 }
            if ax < 2 { return (((ax - 5) * ax + 8) * ax - 4) * a }
            return 0
        case .mitchell:
            let b = 1.0 / 3, c = 1.0 / 3, ax = abs(x)
            if ax < 1 {
                return ((12 - 9 * b - 6 * c) * ax * ax * ax + (-18 + 12 * b + 6 * c) * ax * ax + (6 - 2 * b)) / 6
            }
            if ax < 2 {
                return
                    ((-b - 6 * c) * ax * ax * ax + (6 * b + 30 * c) * ax * ax + (-12 * b - 48 * c) * ax
                    + (8 * b + 24 * c)) / 6
            }
            return 0
        case .lanczos3:
            guard x >= -3, x < 3 else { return 0 }
            if x == 0 { return 1 }
            // sinc(x) · sinc(x / 3) with one sine: sin(3θ) = sin θ (3 − 4 sin² θ), θ = πx / 3. Every output pixel's
            // taps are weighed afresh, so this halves the resizer's set-up on small renders.
            let theta = x * (Double.pi / 3), s = sin(theta)
            return s * s * (3 - 4 * s * s) / (3 * theta * theta)
        }
    }

    public var description: String {
        switch self {
        case .nearest: "nearest"
        case .box: "box"
        case .bilinear: "bilinear"
        case .catmullRom: "Catmull-Rom"
        case .mitchell: "Mitchell"
        case .lanczos3: "Lanczos3"
        }
    }
}
