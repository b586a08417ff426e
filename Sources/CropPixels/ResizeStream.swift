import CropGeometry
import Dispatch

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A resize that consumes source rows as they arrive and hands out output rows as soon as they are complete, so a
/// large image can be resized while it is being decoded without ever being held whole.
///
/// Push source rows top to bottom with ``push(_:)-(UnsafePixelRows)`` (any number at a time: rows outside the ones
/// the resize reads are skipped), then ``pull(maxRows:)`` the output rows that became ready. The results are
/// identical to ``PixelBuffer/resized(width:height:from:options:)`` with the same arguments.
///
/// Two ways to use more than one core (``Concurrency``):
/// - ``Concurrency/parallel``: each group of pushed rows is filtered during `push`, split across threads by output
///   columns. Each thread owns a slice of the output width and its own ring of horizontally filtered rows
///   (`O(slice width × vertical filter taps)`) and runs both passes, so the threads never wait for each other
///   inside a group. Rows are filtered straight from the caller's memory; only an incomplete group is copied.
/// - ``Concurrency/background``: `push` only copies the rows into one of two blocks of ``groupRows`` rows and
///   returns; a background thread filters full blocks. The caller (a decoder) keeps its core while the resize runs
///   on the other. Call ``waitUntilFiltered()`` after the last push before pulling the last rows.
///
/// For a decoder handing over small bands, `.background` is the better choice: `.parallel` pays a thread hand-off
/// per group and its second thread reads rows the caller's core has just written; it pays off for large pushes
/// (measured on the 2-core machine: one push of 6000×4000 → 1920×1280 in 19 ms instead of 36 ms on one thread,
/// but 16-row pushes anywhere from 24 to 55 ms).
///
/// Output rows wait in a queue until pulled.
///
/// ```swift
/// let stream = try ResizeStream(sourceWidth: 6000, sourceHeight: 4000, format: .rgb8,
///                               outputWidth: 1920, outputHeight: 1280)
/// while let band = decoder.nextRows() {          // e.g. 16 decoded rows at a time
///     try stream.push(band)
///     if let out = try stream.pull() { encoder.write(out) }
/// }
/// ```
package final class ResizeStream {
    /// How a stream spreads its work over cores.
    package enum Concurrency: Hashable, Sendable {
        /// Filter during `push`, on every core, split by output columns.
        case parallel
        /// Filter on one background thread while the caller goes on; `push` only copies rows.
        case background
    }

    /// Source columns.
    package let sourceWidth: Int
    /// Source rows.
    package let sourceHeight: Int
    /// The format of pushed and pulled rows.
    package let format: PixelFormat
    /// Output columns.
    package let outputWidth: Int
    /// Output rows.
    package let outputHeight: Int
    /// Pushed rows are filtered once this many are waiting (or the last row has arrived).
    package let groupRows: Int
    /// How the work is spread over cores.
    package let concurrency: Concurrency
    /// Source rows pushed so far (the index of the next row to push).
    public private(set) var rowsPushed = 0

    private let plan: ResamplePlan
    /// One engine per slice of output columns.
    private let parts: [(columns: Range<Int>, engine: ResampleEngine)]
    private let neededRows: Range<Int>
    private let sourceRowBytes: Int
    private let outputRowBytes: Int
    /// The next source row to filter (touched only by the filtering thread).
    private var nextRow: Int
    /// Copies of pushed rows not filtered yet: rows `nextRow ..< nextRow + stagedCount` (parallel), or the block
    /// being filled (background).
    private var staging: ScratchBuffer
    private var stagedCount = 0

    /// Guards everything below.
    private let lock = Lock()
    /// Output rows computed so far.
    private var rowsProduced = 0
    /// Output rows pulled so far.
    private var pulled = 0
    /// Produced, not yet pulled rows: row `pulled + i` at `queue + (queueStart + i) · outputRowBytes`.
    private var queue: ScratchBuffer
    private var queueStart = 0

    /// Background mode: the filtering thread, and the blocks `push` fills (at most two exist).
    private let worker: DispatchQueue?
    private let freeBlockCount = DispatchSemaphore(value: 1)
    private var freeBlocks: [ScratchBuffer] = []

    /// Creates a stream that resizes the `sourceRect` part of a `sourceWidth × sourceHeight` image (all of it when
    /// `nil`) to `outputWidth × outputHeight`.
    ///
    /// - Parameters:
    ///   - groupRows: rows to collect before filtering (rounded up to a multiple of 8); `nil` picks 128 for
    ///     ``Concurrency/parallel`` and 64 for ``Concurrency/background``. In parallel mode, pushes of at least that
    ///     many rows are filtered in place without copying.
    ///   - planCache: where the resize's taps are looked up first (the same resize made lately) and kept.
    /// - Throws: ``PixelError`` for invalid sizes or a source rectangle that is empty or outside the image.
    package init(
        sourceWidth: Int, sourceHeight: Int, format: PixelFormat, outputWidth: Int, outputHeight: Int,
        sourceRect: Rect? = nil, options: ResampleOptions = .default, groupRows: Int? = nil,
        concurrency: Concurrency = .parallel, planCache: ResamplePlanCache = .shared
    ) throws(PixelError) {
        try PixelLimits.unlimited.check(width: sourceWidth, height: sourceHeight)
        try PixelLimits.default.check(width: outputWidth, height: outputHeight)
        let rect = try PixelBuffer.validatedSourceRect(
            sourceRect ?? Rect(x: 0, y: 0, width: Double(sourceWidth), height: Double(sourceHeight)),
            width: sourceWidth, height: sourceHeight)
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.format = format
        self.outputWidth = outputWidth
        self.outputHeight = outputHeight
        self.concurrency = concurrency
        self.groupRows = Swift.max(8, ((groupRows ?? (concurrency == .parallel ? 128 : 64)) + 7) / 8 * 8)
        let plan = planCache.plan(
            format: format, sourceWidth: sourceWidth, sourceHeight: sourceHeight, outputWidth: outputWidth,
            outputHeight: outputHeight, sourceRect: rect, options: options)
        self.plan = plan
        // Slices of at least 64 columns: narrower ones would mostly filter their neighbours' overlap.
        let threads =
            concurrency == .background
            ? 1 : Swift.min(Parallel.threads(options.maxThreads), Swift.max(1, outputWidth / 64))
        parts = Parallel.chunks(0..<outputWidth, parts: threads).map { columns in
            let slice = threads == 1 ? plan : plan.slice(columns: columns, options: options)
            return (columns, ResampleEngine(plan: slice, outputRows: 0..<outputHeight))
        }
        neededRows = plan.sourceRows(for: 0..<outputHeight)
        nextRow = neededRows.lowerBound
        sourceRowBytes = sourceWidth * format.bytesPerPixel
        staging = ScratchBuffer(byteCount: self.groupRows * sourceRowBytes)
        outputRowBytes = outputWidth * format.bytesPerPixel
        queue = ScratchBuffer(byteCount: 8 * outputRowBytes)
        worker = concurrency == .background ? DispatchQueue(label: "CropPixels.ResizeStream") : nil
        if worker != nil { freeBlocks = [ScratchBuffer(byteCount: self.groupRows * sourceRowBytes)] }
    }

    // No `deinit`: each background job holds the stream strongly, so while filtering is pending the stream lives,
    // and the last job may be what frees it, on the worker's own thread. A `deinit` that waited for the worker would
    // then wait for itself (libdispatch traps on that: the SIGILL that `ResizeStreamTeardownTests` guards against).
    // Callers that want no work left behind after an error call `waitUntilFiltered()`.

    /// The source rows the resize reads; rows pushed outside this range are skipped.
    package var sourceRowsNeeded: Range<Int> { neededRows }

    /// Whether every source row the resize reads has been pushed.
    package var hasAllSourceRows: Bool { rowsPushed >= neededRows.upperBound }

    /// Output rows pulled so far (the index of the next row to pull).
    package var rowsPulled: Int { lock.locked { pulled } }

    /// Output rows ready to pull.
    package var availableRows: Int { lock.locked { rowsProduced - pulled } }

    /// Whether every output row has been pulled.
    package var isFinished: Bool { lock.locked { pulled == outputHeight } }

    /// Pushes the next `rows.height` source rows, top to bottom.
    ///
    /// - Throws: ``PixelError/formatMismatch(_:)`` when the rows' width or format differ from the stream's, or
    ///   ``PixelError/invalidArgument(name:reason:)`` when they run past the source height.
    /// - Complexity: amortised O(row width × horizontal taps) per row (in background mode, O(row width) here and
    ///   the rest on the background thread).
    package func push(_ rows: UnsafePixelRows) throws(PixelError) {
        guard rows.width == sourceWidth, rows.format == format else {
            throw .formatMismatch(
                "pushed rows are \(rows.width) wide in \(rows.format), the stream expects \(sourceWidth) in \(format)")
        }
        guard rowsPushed + rows.height <= sourceHeight else {
            throw .invalidArgument(
                name: "rows", reason: "\(rows.height) rows after \(rowsPushed) exceed the source height \(sourceHeight)"
            )
        }
        let pushedFirst = rowsPushed
        rowsPushed += rows.height
        let first = Swift.max(pushedFirst, neededRows.lowerBound)
        let last = Swift.min(rowsPushed, neededRows.upperBound)
        guard first < last else { return }
        if concurrency == .background {
            pushToBackground(rows, (first - pushedFirst)..<(last - pushedFirst), isLast: last == neededRows.upperBound)
            return
        }
        let fresh = last - first
        let total = stagedCount + fresh
        let isLast = last == neededRows.upperBound
        guard total >= groupRows || isLast else {
            for i in 0..<fresh {
                (staging.pointer + (stagedCount + i) * sourceRowBytes)
                    .copyMemory(from: rows.row(first - pushedFirst + i), byteCount: sourceRowBytes)
            }
            stagedCount = total
            return
        }
        let count = isLast ? total : total / 8 * 8
        withUnsafeTemporaryAllocation(of: UnsafeRawPointer.self, capacity: total) { pointers in
            for i in 0..<stagedCount { pointers[i] = UnsafeRawPointer(staging.pointer + i * sourceRowBytes) }
            for i in 0..<fresh { pointers[stagedCount + i] = UnsafeRawPointer(rows.row(first - pushedFirst + i)) }
            filter(pointers.baseAddress!, count: count)
            // The few rows left over (fewer than 8) are the caller's: keep copies.
            for i in count..<total {
                (staging.pointer + (i - count) * sourceRowBytes).copyMemory(
                    from: pointers[i], byteCount: sourceRowBytes)
            }
        }
        stagedCount = total - count
    }

    /// Lets `fill` write the next source rows straight into the stream's own memory, saving the copy ``push(_:)-
    /// (UnsafePixelRows)`` makes: a decoder reads its rows into the rows `fill` is given (at most `maxRows`, fewer at
    /// the end of a block or of the rows the resize reads) and returns how many it wrote.
    ///
    /// Rows above ``sourceRowsNeeded`` must have been pushed (or skipped by pushing them) first; once every row the
    /// resize reads is in, `fill` is not called and the result is 0.
    ///
    /// - Returns: the rows `fill` wrote (its result, clamped to the rows it was given).
    package func write<E: Error>(maxRows: Int, _ fill: (UnsafePixelRows) throws(E) -> Int) throws(E) -> Int {
        precondition(rowsPushed >= neededRows.lowerBound, "push the rows above the ones the resize reads first")
        let count = Swift.min(maxRows, groupRows - stagedCount, neededRows.upperBound - rowsPushed)
        guard count > 0 else { return 0 }
        let target = UnsafePixelRows(
            base: staging.pointer + stagedCount * sourceRowBytes, bytesPerRow: sourceRowBytes, width: sourceWidth,
            height: count, format: format)
        let written = Swift.min(Swift.max(try fill(target), 0), count)
        rowsPushed += written
        stagedCount += written
        if stagedCount == groupRows || rowsPushed == neededRows.upperBound {
            if concurrency == .background {
                handOverBlock()
            } else {
                // groupRows is a multiple of 8: a full block filters whole batches; the last one filters what it has.
                filter(block: staging, count: stagedCount)
                stagedCount = 0
            }
        }
        return written
    }

    /// Pushes every row of `buffer`. See ``push(_:)-(UnsafePixelRows)``.
    package func push(_ buffer: PixelBuffer) throws(PixelError) {
        try buffer.withUnsafeRows { rows throws(PixelError) in try push(rows) }
    }

    /// Waits until every pushed row has been filtered (background mode; returns at once in parallel mode). After
    /// the last push, all output rows are then available.
    package func waitUntilFiltered() {
        worker?.sync {}
    }

    /// Takes up to `maxRows` ready output rows as a buffer (`nil` when none is ready).
    ///
    /// - Throws: ``PixelError`` only if the band cannot be allocated.
    package func pull(maxRows: Int = .max) throws(PixelError) -> PixelBuffer? {
        let n = Swift.min(maxRows, availableRows)
        guard n > 0 else { return nil }
        var band = try PixelBuffer(width: outputWidth, height: n, format: format, limits: .unlimited)
        band.withUnsafeMutableRows { dst in dequeue(n, into: dst, startRow: 0) }
        return band
    }

    /// Copies up to `destination.height - startRow` ready rows into `destination` from row `startRow` on, and
    /// returns how many it copied. The destination must have the stream's output width and format.
    package func pull(into destination: inout PixelBuffer, startRow: Int) throws(PixelError) -> Int {
        guard destination.width == outputWidth, destination.format == format else {
            throw .formatMismatch("destination is \(destination.width) wide in \(destination.format)")
        }
        guard startRow >= 0, startRow <= destination.height else {
            throw .invalidArgument(name: "startRow", reason: "\(startRow) outside 0…\(destination.height)")
        }
        let n = Swift.min(destination.height - startRow, availableRows)
        destination.withUnsafeMutableRows { dst in dequeue(n, into: dst, startRow: startRow) }
        return n
    }

    // MARK: Internals

    private func dequeue(_ n: Int, into dst: UnsafePixelRows, startRow: Int) {
        lock.locked {
            for i in 0..<n {
                dst.row(startRow + i).copyMemory(
                    from: queue.pointer + (queueStart + i) * outputRowBytes, byteCount: outputRowBytes)
            }
            queueStart += n
            pulled += n
        }
    }

    /// Copies rows `range` of `rows` into the block being filled, handing full blocks to the background thread.
    private func pushToBackground(_ rows: UnsafePixelRows, _ range: Range<Int>, isLast: Bool) {
        for i in range {
            (staging.pointer + stagedCount * sourceRowBytes).copyMemory(from: rows.row(i), byteCount: sourceRowBytes)
            stagedCount += 1
            if stagedCount == groupRows || (isLast && i == range.upperBound - 1) { handOverBlock() }
        }
    }

    /// Hands the block being filled to the background thread and takes a free one.
    private func handOverBlock() {
        let block = staging, count = stagedCount
        // The block is handed over whole: `push` takes another one and never touches this one again until the job
        // returns it to `freeBlocks` (under the lock); the stream's filtering state is only used by the one serial
        // worker in background mode.
        let job = UncheckedSendable((self, block))
        guard let worker else { return }
        worker.async {
            let (stream, block) = job.value
            stream.filter(block: block, count: count)
            stream.lock.locked { stream.freeBlocks.append(block) }
            stream.freeBlockCount.signal()
        }
        // Take a free block (the other one, or this one once the background thread is done with it).
        freeBlockCount.wait()
        staging = lock.locked { freeBlocks.removeLast() }
        stagedCount = 0
    }

    /// Filters the first `count` rows of `block` (rows of `sourceRowBytes`) as the next source rows.
    private func filter(block: ScratchBuffer, count: Int) {
        withUnsafeTemporaryAllocation(of: UnsafeRawPointer.self, capacity: count) { pointers in
            for r in 0..<count { pointers[r] = UnsafeRawPointer(block.pointer + r * sourceRowBytes) }
            filter(pointers.baseAddress!, count: count)
        }
    }

    /// Filters source rows `nextRow ..< nextRow + count` (`rows[i]` is row `nextRow + i`) and produces every
    /// output row they complete; each column slice runs on its own thread.
    private func filter(_ rows: UnsafePointer<UnsafeRawPointer>, count: Int) {
        let start = nextRow, end = nextRow + count
        let produced = lock.locked { rowsProduced }
        var ready = produced
        while ready < outputHeight, plan.sourceRowsEnd(forOutputRow: ready) <= end { ready += 1 }
        // Only this thread moves or grows the queue, and readers hold the lock while they copy out.
        let base = lock.locked {
            reserveQueue(ready - produced)
            return queue.pointer + (queueStart + rowsProduced - pulled) * outputRowBytes
        }
        let rowBytes = outputRowBytes, bpp = format.bytesPerPixel
        let plan = self.plan, parts = self.parts
        Parallel.forEach(parts.count) { k in
            let (columns, engine) = parts[k]
            var y = produced, r = 0
            while r < count {
                let n = Swift.min(8, count - r)
                engine.horizontal(rows: rows + r, count: n, firstRow: start + r, worker: 0)
                r += n
                while y < ready, plan.sourceRowsEnd(forOutputRow: y) <= start + r {
                    engine.vertical(
                        outputRow: y, into: base + (y - produced) * rowBytes + columns.lowerBound * bpp, worker: 0)
                    y += 1
                }
            }
        }
        nextRow = end
        lock.locked { rowsProduced = ready }
    }

    /// Makes room for `extra` more rows after the unpulled ones, moving them to the front or growing the queue.
    /// Called with the lock held.
    private func reserveQueue(_ extra: Int) {
        let waiting = rowsProduced - pulled
        let capacity = queue.byteCount / Swift.max(outputRowBytes, 1)
        if queueStart + waiting + extra <= capacity { return }
        if waiting + extra <= capacity {
            memmove(queue.pointer, queue.pointer + queueStart * outputRowBytes, waiting * outputRowBytes)
        } else {
            let grown = ScratchBuffer(byteCount: Swift.max(capacity * 2, waiting + extra) * outputRowBytes)
            grown.pointer.copyMemory(
                from: queue.pointer + queueStart * outputRowBytes, byteCount: waiting * outputRowBytes)
            queue = grown
        }
        queueStart = 0
    }
}
