/// Picture rows `firstRow ..< firstRow + count` of a picture ``width`` pixels wide, each reached through its own
/// pointer, so the rows need not be evenly spaced in memory (a ``SourceRowWindow`` hands out rows of a ring).
///
/// The pointers are valid only while the rows' owner keeps them: inside the `withUnsafeRows` of the buffer they
/// come from, or until the window releases them. Readers stay within each row, except that the 8-bit kernels may load
/// a few bytes past the end of a row that is not the last one held (and ignore them).
package struct SourceRows {
    /// The picture row of `pointers[0]`.
    package let firstRow: Int
    /// Pixels per row.
    package let width: Int
    /// The rows' pixel format.
    package let format: PixelFormat
    /// The first byte of each row.
    package let pointers: [UnsafeRawPointer]

    /// Rows of a table.
    package init(firstRow: Int, width: Int, format: PixelFormat, pointers: [UnsafeRawPointer]) {
        self.firstRow = firstRow
        self.width = width
        self.format = format
        self.pointers = pointers
    }

    /// Every row of `rows`, which hold picture rows from `firstRow` on.
    package init(_ rows: UnsafePixelRows, firstRow: Int) {
        self.init(
            firstRow: firstRow, width: rows.width, format: rows.format,
            pointers: (0..<rows.height).map { UnsafeRawPointer(rows.row($0)) })
    }

    /// How many rows.
    package var count: Int { pointers.count }

    /// The picture rows held.
    package var range: Range<Int> { firstRow..<(firstRow + pointers.count) }

    /// The first byte of picture row `y`, which must be held.
    @inline(__always)
    package func row(_ y: Int) -> UnsafeRawPointer {
        assert(range.contains(y), "row \(y) outside \(range)")
        return pointers[y - firstRow]
    }

    /// The rows as evenly spaced rows (one stride apart), when they are; `nil` otherwise.
    package var evenlySpaced: UnsafePixelRows? {
        guard let first = pointers.first else { return nil }
        let stride = pointers.count > 1 ? pointers[1] - first : width * format.bytesPerPixel
        guard stride >= width * format.bytesPerPixel else { return nil }
        for (i, p) in pointers.enumerated() where p != first + i * stride { return nil }
        return UnsafePixelRows(
            base: UnsafeMutableRawPointer(mutating: first), bytesPerRow: stride, width: width, height: count,
            format: format)
    }
}
