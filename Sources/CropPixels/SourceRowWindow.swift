/// The source rows of a render that reads a sliding band of the picture, shared by one writer (a decoder filling
/// rows top to bottom) and any number of concurrent readers (renderers), in a ring of ``capacity`` rows: the render
/// holds the band it reads, not the picture.
///
/// ## What may be read while rows are written
/// Every picture row of ``rows`` goes through three states, in order, kept under one lock:
/// 1. **Not yet written.** Its ring slot may still hold an older row that readers use.
/// 2. **Published** (below ``publishedRows``, at or above the release mark): complete, and its bytes never change
///    while it stays published. Readers may read published rows only ( ``rows(_:)`` checks), from any thread, while
///    the writer fills later rows.
/// 3. **Released** (below the mark set by ``release(below:)``): nobody reads it again; its slot is free.
///
/// The writer fills only slots of released (or never used) rows: ``write(maxRows:_:)`` waits until the next slot is
/// free, lends the writer those slots and nothing else, and publishes what it filled. So a slot is never written while
/// a reader may look at it, as long as readers release only rows they are done with, which is the caller's part.
/// ``fail()`` ends every wait, so a writer never waits for readers that stopped.
package final class SourceRowWindow: @unchecked Sendable {
    // @unchecked Sendable: the counters are guarded by `condition`; slot memory is shared by the protocol above.

    /// The picture rows the window will hold, in order.
    package let rows: Range<Int>
    /// Pixels per picture row.
    package let width: Int
    /// The columns of each row the window holds: every column, or one strip of them (a render in column strips).
    package let columns: Range<Int>
    /// The rows' format.
    package let format: PixelFormat
    /// Ring slots: the most rows held at once.
    package let capacity: Int

    private let rowBytes: Int
    private let storage: ScratchBuffer
    private let condition = Condition()
    // Guarded by `condition`.
    private var published: Int
    private var releasedBelow: Int
    private var failed = false

    /// A window for columns `columns` (every column by default) of picture rows `rows`, `width` pixels of `format`
    /// each, holding at most `capacity` rows at a time (clamped to 1…`rows.count`).
    package init(rows: Range<Int>, width: Int, columns: Range<Int>? = nil, format: PixelFormat, capacity: Int) {
        self.rows = rows
        self.width = width
        self.columns = (columns ?? 0..<width).clamped(to: 0..<width)
        self.format = format
        self.capacity = Swift.max(1, Swift.min(capacity, rows.count))
        rowBytes = self.columns.count * format.bytesPerPixel
        // 16 spare bytes after the last slot: kernels may load a few bytes past the end of a row.
        storage = ScratchBuffer(byteCount: self.capacity * rowBytes + 16)
        published = rows.lowerBound
        releasedBelow = rows.lowerBound
    }

    /// Bytes of pixel memory the window holds.
    package var byteCount: Int { storage.byteCount }

    /// Slots the writer may fill now without waiting.
    package var freeSlots: Int {
        condition.locked { Swift.min(capacity - (published - releasedBelow), rows.upperBound - published) }
    }

    /// Rows published so far: rows `rows.lowerBound ..< publishedRows` have been written.
    package var publishedRows: Int { condition.locked { published } }

    /// Fills the next rows: waits until at least one slot is free, then lends `fill` up to `maxRows` consecutive free
    /// slots (fewer at the end of the ring) as rows to write (``columns`` wide), and publishes the number of rows
    /// `fill` returns.
    ///
    /// - Returns: the rows published, 0 when every row of ``rows`` is.
    /// - Throws: ``PixelError/invalidArgument(name:reason:)`` when the window was failed while waiting; whatever
    ///   `fill` throws (nothing is published then).
    package func write(maxRows: Int, _ fill: (UnsafePixelRows) throws -> Int) throws -> Int {
        // (start, count), or count −1 when the window failed.
        let (start, count) = condition.wait(
            until: { failed || published == rows.upperBound || published - releasedBelow < capacity }
        ) { () -> (Int, Int) in
            if failed { return (published, -1) }
            let free = capacity - (published - releasedBelow)
            let slot = (published - rows.lowerBound) % capacity
            return (published, Swift.max(0, Swift.min(maxRows, free, capacity - slot, rows.upperBound - published)))
        }
        if count < 0 { throw PixelError.invalidArgument(name: "window", reason: "the render stopped") }
        guard count > 0 else { return 0 }
        let slot = (start - rows.lowerBound) % capacity
        let target = UnsafePixelRows(
            base: storage.pointer + slot * rowBytes, bytesPerRow: rowBytes, width: columns.count, height: count,
            format: format)
        let written = Swift.min(Swift.max(try fill(target), 0), count)
        condition.locked {
            published += written
            condition.broadcast()
        }
        return written
    }

    /// Marks rows below `row` as read for the last time: their slots may be filled again. Never moves back. The
    /// mark may pass the published rows (a column strip whose next reads lie further down than the decoder has
    /// come): the rows below it still to be written are then written into free slots and never read, so they never
    /// hold a slot that a later row needs.
    package func release(below row: Int) {
        condition.locked {
            let mark = Swift.min(Swift.max(row, releasedBelow), rows.upperBound)
            if mark > releasedBelow {
                releasedBelow = mark
                condition.broadcast()
            }
        }
    }

    /// Ends every wait: the writer's next ``write(maxRows:_:)`` throws.
    package func fail() {
        condition.locked {
            failed = true
            condition.broadcast()
        }
    }

    /// Published, unreleased picture rows `range`, as a table of row pointers (valid until they are released), each
    /// addressing its row's column 0 (of which only ``columns`` may be read).
    ///
    /// - Throws: ``PixelError/invalidArgument(name:reason:)`` when a row of `range` is not published yet or was
    ///   released already.
    package func rows(_ range: Range<Int>) throws(PixelError) -> SourceRows {
        let (low, high) = condition.locked { (releasedBelow, published) }
        guard range.lowerBound >= low, range.upperBound <= high, !range.isEmpty else {
            throw .invalidArgument(
                name: "rows", reason: "\(range) is not within the published, unreleased rows \(low)..<\(high)")
        }
        let base = storage.pointer - columns.lowerBound * format.bytesPerPixel
        let pointers = range.map { y in
            UnsafeRawPointer(base + ((y - rows.lowerBound) % capacity) * rowBytes)
        }
        return SourceRows(firstRow: range.lowerBound, width: width, format: format, pointers: pointers)
    }
}
