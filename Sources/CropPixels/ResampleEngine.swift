/// The streaming core of a resize: filters source rows horizontally, eight at a time, into a ring of rows at the
/// output width, and produces each output row from that ring as soon as its vertical support has been filtered.
///
/// Memory is `O(outputWidth × verticalTaps)` for the ring plus one batch of scratch per worker, whatever the
/// source height. Batches of source rows are independent, so several workers may run ``horizontal(rows:count:
/// firstRow:worker:)`` at once on different batches; output rows are independent too once their source rows are
/// in the ring. The caller sequences the two (see ``ResizeStream`` and `PixelBuffer.resized`).
final class ResampleEngine {
    let plan: ResamplePlan
    /// Output rows this engine produces.
    let outputRows: Range<Int>
    /// Source rows those output rows read, in the order they must arrive.
    let sourceRows: Range<Int>
    /// Rows the ring holds.
    let ringCapacity: Int
    let ring: ScratchBuffer
    let workers: [Worker]

    /// Scratch for one thread: the packed batch, the filtered batch before transposition, row pointers and a
    /// temporary output row.
    final class Worker {
        /// Source rows of a batch, transposed so that each byte holds one row: `columns × channels × 8` bytes.
        let columnBytes: ScratchBuffer
        /// The batch in the layout the horizontal filter reads.
        let packed: ScratchBuffer
        /// Horizontally filtered samples, eight rows per sample.
        let tile: ScratchBuffer
        /// Row pointers: a batch's 8 source rows, or an output row's ring rows.
        let rows: UnsafeMutablePointer<UnsafeRawPointer>
        let rowCapacity: Int
        /// One output row before alpha is divided out or the transfer curve applied.
        let temp: ScratchBuffer

        init(plan: ResamplePlan) {
            let c = plan.channels
            let cols = plan.windowColumns + 2
            switch plan.kind {
            case .nearest:
                columnBytes = ScratchBuffer(byteCount: 0)
                packed = ScratchBuffer(byteCount: 0)
                tile = ScratchBuffer(byteCount: 0)
                temp = ScratchBuffer(byteCount: 0)
            case .fixed8:
                columnBytes = ScratchBuffer(byteCount: cols * c * 8 + 64)
                packed = ScratchBuffer(byteCount: (cols / 2 + 1) * c * 32 + 64)
                tile = ScratchBuffer(byteCount: ((plan.rowSamples + 7) & ~7) * 16 + 64)
                temp = ScratchBuffer(byteCount: ((plan.rowSamples + 7) & ~7) * 2 + 64)
            case .float:
                columnBytes = ScratchBuffer(byteCount: 0)
                packed = ScratchBuffer(byteCount: cols * c * 32 + 64)
                tile = ScratchBuffer(byteCount: ((plan.rowSamples + 7) & ~7) * 32 + 64)
                temp = ScratchBuffer(byteCount: ((plan.rowSamples + 7) & ~7) * 4 + 64)
            }
            rowCapacity = Swift.max(8, plan.verticalTaps + 2)
            // Whole cache lines of its own: another thread's worker writing its pointers next door would otherwise
            // evict these from under the vertical pass, which reads them in its inner loop.
            rowStorage = ScratchBuffer(byteCount: (rowCapacity * MemoryLayout<UnsafeRawPointer>.stride + 63) & ~63)
            rows = rowStorage.typed(UnsafeRawPointer.self)
        }

        private let rowStorage: ScratchBuffer
    }

    /// Creates an engine for output rows `outputRows` that filters up to `groupRows` source rows between two
    /// vertical passes, with `workerCount` independent scratch sets.
    init(plan: ResamplePlan, outputRows: Range<Int>, groupRows: Int = 8, workerCount: Int = 1) {
        self.plan = plan
        self.outputRows = outputRows
        sourceRows = plan.sourceRows(for: outputRows)
        ringCapacity = Swift.min(plan.verticalTaps + groupRows + 8, Swift.max(sourceRows.count, 1))
        ring = ScratchBuffer(byteCount: ringCapacity * plan.ringStride)
        workers = (0..<Swift.max(workerCount, 1)).map { _ in Worker(plan: plan) }
    }

    /// The ring row that holds filtered source row `y`.
    @inline(__always)
    func ringRow(_ y: Int) -> UnsafeMutableRawPointer {
        ring.pointer + (y % ringCapacity) * plan.ringStride
    }

    /// Filters source rows `firstRow ..< firstRow + count` (`count` ≤ 8) horizontally into the ring.
    ///
    /// - Parameter rows: the rows' first bytes; `rows[i]` is source row `firstRow + i`.
    func horizontal(rows: UnsafePointer<UnsafeRawPointer>, count: Int, firstRow: Int, worker: Int) {
        assert(count >= 1 && count <= 8)
        let w = workers[worker]
        for i in 0..<8 { w.rows[i] = rows[Swift.min(i, count - 1)] }
        switch plan.kind {
        case .nearest: horizontalNearest(count: count, firstRow: firstRow, worker: w)
        case .fixed8(let taps, _): horizontalFixed(taps, count: count, firstRow: firstRow, worker: w)
        case .float(let taps, _): horizontalFloat(taps, count: count, firstRow: firstRow, worker: w)
        }
    }

    /// Computes output row `y` into `destination` (`outputWidth` pixels in the plan's format). Every source row it
    /// reads must have been filtered, and none overwritten since.
    func vertical(outputRow y: Int, into destination: UnsafeMutableRawPointer, worker: Int) {
        let w = workers[worker]
        switch plan.kind {
        case .nearest:
            destination.copyMemory(
                from: ringRow(plan.vertical.first[y]), byteCount: plan.outputWidth * plan.format.bytesPerPixel)
        case .fixed8(_, let taps): verticalFixed(taps, outputRow: y, into: destination, worker: w)
        case .float(_, let taps): verticalFloat(taps, outputRow: y, into: destination, worker: w)
        }
    }

    /// Fills `w.rows` with the ring rows of output row `y`, the last one repeated to an even count, and returns
    /// how many it wrote.
    @inline(__always)
    func gatherRingRows(outputRow y: Int, evenCount: Bool, worker w: Worker) -> Int {
        let first = plan.vertical.first[y], count = plan.vertical.count[y]
        let n = evenCount ? (count + 1) & ~1 : count
        for k in 0..<n { w.rows[k] = UnsafeRawPointer(ringRow(first + Swift.min(k, count - 1))) }
        return n
    }

    // MARK: Nearest

    private func horizontalNearest(count: Int, firstRow: Int, worker w: Worker) {
        let bpp = plan.format.bytesPerPixel
        plan.horizontal.first.withUnsafeBufferPointer { first in
            for r in 0..<count {
                let src = w.rows[r], dst = ringRow(firstRow + r)
                switch bpp {
                case 1: Self.gather(UInt8.self, first, src, dst)
                case 2: Self.gather(UInt16.self, first, src, dst)
                case 4: Self.gather(UInt32.self, first, src, dst)
                case 8: Self.gather(UInt64.self, first, src, dst)
                default:
                    for (x, sx) in first.enumerated() {
                        (dst + x * bpp).copyMemory(from: src + sx * bpp, byteCount: bpp)
                    }
                }
            }
        }
    }

    @inline(__always)
    private static func gather<T>(
        _: T.Type, _ first: UnsafeBufferPointer<Int>, _ src: UnsafeRawPointer, _ dst: UnsafeMutableRawPointer
    ) {
        let s = src.assumingMemoryBound(to: T.self), d = dst.assumingMemoryBound(to: T.self)
        for (x, sx) in first.enumerated() { d[x] = s[sx] }
    }
}
