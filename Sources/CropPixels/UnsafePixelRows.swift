#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Raw access to a ``PixelBuffer``'s rows, valid only inside `withUnsafeRows`/`withUnsafeMutableRows`.
///
/// Bounds are checked with `assert` (debug builds only), in the style of swift-collections' unsafe handles.
@usableFromInline
package struct UnsafePixelRows {
    /// The first byte of row 0.
    @usableFromInline
    package let base: UnsafeMutableRawPointer
    /// Bytes from one row to the next.
    @usableFromInline
    package let bytesPerRow: Int
    /// Columns.
    @usableFromInline
    package let width: Int
    /// Rows.
    @usableFromInline
    package let height: Int
    /// The pixel format.
    @usableFromInline
    package let format: PixelFormat

    @inlinable
    package init(base: UnsafeMutableRawPointer, bytesPerRow: Int, width: Int, height: Int, format: PixelFormat) {
        self.base = base
        self.bytesPerRow = bytesPerRow
        self.width = width
        self.height = height
        self.format = format
    }

    /// The first `rowCount` rows (at most ``height``).
    @inlinable
    package func prefix(_ rowCount: Int) -> UnsafePixelRows {
        UnsafePixelRows(
            base: base, bytesPerRow: bytesPerRow, width: width, height: Swift.min(Swift.max(0, rowCount), height),
            format: format)
    }

    /// The first byte of row `y`.
    @inlinable
    package func row(_ y: Int) -> UnsafeMutableRawPointer {
        assert(y >= 0 && y < height, "row \(y) outside 0..<\(height)")
        return base + y * bytesPerRow
    }

    /// Row `y` as 8-bit samples (`width × channels` of them).
    @inlinable
    package func row8(_ y: Int) -> UnsafeMutablePointer<UInt8> {
        assert(format.depth == .eight)
        return row(y).assumingMemoryBound(to: UInt8.self)
    }

    /// Row `y` as 16-bit samples (`width × channels` of them).
    @inlinable
    package func row16(_ y: Int) -> UnsafeMutablePointer<UInt16> {
        assert(format.depth == .sixteen)
        return row(y).assumingMemoryBound(to: UInt16.self)
    }
}
