#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension Double {
    /// The number with `places` digits after the decimal point (0…20), rounded as C's `printf("%.*f")` rounds it:
    /// `0.35`, `12.0`, `-3`. Reports and progress lines use it instead of Foundation's `String(format:)`, so that the
    /// `cropkit` command links FoundationEssentials alone.
    package func decimal(places: Int) -> String {
        precondition((0...20).contains(places), "decimal(places:) takes 0 to 20 places")
        // The longest text: a sign, 309 integer digits (Double.greatestFiniteMagnitude), the point, 20 places, a NUL.
        return withVaList([Int32(places), self]) { arguments in
            withUnsafeTemporaryAllocation(of: CChar.self, capacity: 336) { buffer in
                _ = vsnprintf(buffer.baseAddress, buffer.count, "%.*f", arguments)
                return String(cString: buffer.baseAddress!)
            }
        }
    }
}
