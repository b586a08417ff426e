#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The sRGB transfer curve (IEC 61966-2-1) as lookup tables, for linear-light resampling.
///
/// Decoding (stored value → linear light in 0…1) is one table per bit depth. Encoding (linear → stored) goes
/// through a table indexed by `√linear`, which spends its resolution where the curve is steep (the shadows):
/// the result is within one 16-bit level of the exact curve.
enum SRGB {
    /// Stored value in 0…1 to linear light.
    static func toLinear(_ v: Double) -> Double {
        v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
    }

    /// Linear light in 0…1 to stored value.
    static func fromLinear(_ l: Double) -> Double {
        l <= 0.0031308 ? l * 12.92 : 1.055 * pow(l, 1 / 2.4) - 0.055
    }

    /// 8-bit stored value → linear light.
    static let decode8: [Float] = (0..<256).map { Float(toLinear(Double($0) / 255)) }

    /// 16-bit stored value → linear light.
    static let decode16: [Float] = (0..<65536).map { Float(toLinear(Double($0) / 65535)) }

    /// Size of the encoding table minus one.
    static let encodeSteps: Float = 65536

    /// `√linear · 65536` (rounded) → 16-bit stored value.
    static let encode16: [UInt16] = (0...65536).map { i in
        let s = Double(i) / 65536
        return UInt16((fromLinear(s * s) * 65535).rounded())
    }

    /// Linear light (clamped to 0…1) → 16-bit stored value.
    @inline(__always)
    static func encode(_ linear: Float, table: UnsafePointer<UInt16>) -> UInt16 {
        let l = Swift.min(Swift.max(linear, 0), 1)
        return table[Int(l.squareRoot() * encodeSteps + 0.5)]
    }
}
