import CropGeometry

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
/// Push source rows top to bottom with ``push(_:)`` (any number at a time: rows outside the ones the resize reads
/// are skipped), then ``pull(maxRows:)`` the output rows that became ready. The stream keeps a ring of
/// horizontally filtered rows, `O(outputWidth × vertical filter taps)`, a group of pushed rows not yet filtered
/// (at most ``groupRows``), and the output rows not yet pulled.
///
/// Pushed rows are filtered in groups: the group's batches of 8 rows are filtered horizontally in parallel, then the
/// output rows they complete are produced in parallel. The results are identical to
/// ``PixelBuffer/resized(width:height:from:options:)`` for the same arguments.
///
/// ```swift
/// let stream = try ResizeStream(sourceWidth: 6000, sourceHeight: 4000, format: .rgb8,
///                               outputWidth: 1920, outputHeight: 1280)
/// while let band = decoder.nextRows() {          // e.g. 16 decoded rows at a time
///     try stream.push(band)
///     if let out = try stream.pull() { encoder.write(out) }
/// }
/// ```
public final class ResizeStream {
    /// Source columns.
    public let sourceWidth: Int
    /// Source rows.
    public let sourceHeight: Int
    /// The format of pushed and pulled rows.
    public let format: PixelFormat
    /// Output columns.
    public let outputWidth: Int
    /// Output rows.
    public let outputHeight: Int
    /// Source rows filtered together between two vertical passes.
    public let groupRows: Int
    /// Source rows pushed so far (the index of the next row to push).
    public private(set) var rowsPushed = 0
    /// Output rows pulled so far (the index of the next row to pull).
    public private(set) var rowsPulled = 0

    private let plan: ResamplePlan
    private let engine: ResampleEngine
    private let threads: Int
    /// Pointers to the pushed rows of the current group (into the caller's memory until copied to `staging`).
    private let pending: UnsafeMutablePointer<UnsafeRawPointer>
    private var pendingCount = 0
    private var pendingFirstRow: Int
    private let staging: ScratchBuffer
    private let sourceRowBytes: Int
    /// Output rows computed so far.
    private var rowsProduced = 0
    /// Produced, not yet pulled rows: row `rowsPulled + i` at `queue + (queueStart + i) · outputRowBytes`.
    private var queue: ScratchBuffer
    private var queueStart = 0
    private let outputRowBytes: Int

    /// Creates a stream that resizes the `sourceRect` part of a `sourceWidth × sourceHeight` image (all of it when
    /// `nil`) to `outputWidth × outputHeight`.
    ///
    /// - Parameter groupRows: source rows filtered per parallel step (rounded up to a multiple of 8); `nil` picks
    ///   16 per thread.
    /// - Throws: ``PixelError`` for invalid sizes or a source rectangle that is empty or outside the image.
    public init(
        sourceWidth: Int, sourceHeight: Int, format: PixelFormat, outputWidth: Int, outputHeight: Int,
        sourceRect: Rect? = nil, options: ResampleOptions = .default, groupRows: Int? = nil
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
        threads = Parallel.threads(options.maxThreads)
        self.groupRows = ((groupRows ?? 16 * threads) + 7) / 8 * 8
        plan = ResamplePlan(
            format: format, sourceWidth: sourceWidth, sourceHeight: sourceHeight, outputWidth: outputWidth,
            outputHeight: outputHeight, sourceRect: rect, options: options)
        engine = ResampleEngine(
            plan: plan, outputRows: 0..<outputHeight, groupRows: self.groupRows,
            workerCount: Swift.max(threads, self.groupRows / 8))
        pendingFirstRow = engine.sourceRows.lowerBound
        pending = .allocate(capacity: self.groupRows)
        sourceRowBytes = sourceWidth * format.bytesPerPixel
        staging = ScratchBuffer(byteCount: self.groupRows * sourceRowBytes)
        outputRowBytes = outputWidth * format.bytesPerPixel
        queue = ScratchBuffer(byteCount: 4 * outputRowBytes)
    }

    deinit { pending.deallocate() }

    /// The source rows the resize reads; rows pushed outside this range are skipped.
    public var sourceRowsNeeded: Range<Int> { engine.sourceRows }

    /// Whether every source row the resize reads has been pushed.
    public var hasAllSourceRows: Bool { rowsPushed >= engine.sourceRows.upperBound }

    /// Output rows ready to pull.
    public var availableRows: Int { rowsProduced - rowsPulled }

    /// Whether every output row has been pulled.
    public var isFinished: Bool { rowsPulled == outputHeight }

    /// Pushes the next `rows.height` source rows, top to bottom.
    ///
    /// - Throws: ``PixelError/formatMismatch(_:)`` when the rows' width or format differ from the stream's, or
    ///   ``PixelError/invalidArgument(name:reason:)`` when they run past the source height.
    /// - Complexity: amortised O(row width × horizontal taps) per row.
    public func push(_ rows: UnsafePixelRows) throws(PixelError) {
        guard rows.width == sourceWidth, rows.format == format else {
            throw .formatMismatch(
                "pushed rows are \(rows.width) wide in \(rows.format), the stream expects \(sourceWidth) in \(format)")
        }
        guard rowsPushed + rows.height <= sourceHeight else {
            throw .invalidArgument(
                name: "rows", reason: "\(rows.height) rows after \(rowsPushed) exceed the source height \(sourceHeight)")
        }
        let needed = engine.sourceRows
        for i in 0..<rows.height {
            let y = rowsPushed
            rowsPushed += 1
            guard needed.contains(y) else { continue }
            pending[pendingCount] = UnsafeRawPointer(rows.row(i))
            pendingCount += 1
            if pendingCount == groupRows || y == needed.upperBound - 1 {
                flush()
            }
        }
        // Rows still pending point into the caller's memory: keep copies.
        for i in 0..<pendingCount where !isStaged(pending[i]) {
            let slot = staging.pointer + i * sourceRowBytes
            slot.copyMemory(from: pending[i], byteCount: sourceRowBytes)
            pending[i] = UnsafeRawPointer(slot)
        }
    }

    /// Pushes every row of `buffer`. See ``push(_:)-(UnsafePixelRows)``.
    public func push(_ buffer: PixelBuffer) throws(PixelError) {
        try buffer.withUnsafeRows { rows throws(PixelError) in try push(rows) }
    }

    /// Takes up to `maxRows` ready output rows as a buffer (`nil` when none is ready).
    ///
    /// - Throws: ``PixelError`` only if the band cannot be allocated.
    public func pull(maxRows: Int = .max) throws(PixelError) -> PixelBuffer? {
        let n = Swift.min(maxRows, availableRows)
        guard n > 0 else { return nil }
        var band = try PixelBuffer(width: outputWidth, height: n, format: format, limits: .unlimited)
        band.withUnsafeMutableRows { dst in
            for i in 0..<n {
                dst.row(i).copyMemory(from: queue.pointer + (queueStart + i) * outputRowBytes, byteCount: outputRowBytes)
            }
        }
        queueStart += n
        rowsPulled += n
        return band
    }

    /// Copies up to `destination.height - startRow` ready rows into `destination` from row `startRow` on, and
    /// returns how many it copied. The destination must have the stream's output width and format.
    public func pull(into destination: inout PixelBuffer, startRow: Int) throws(PixelError) -> Int {
        guard destination.width == outputWidth, destination.format == format else {
            throw .formatMismatch("destination is \(destination.width) wide in \(destination.format)")
        }
        guard startRow >= 0, startRow <= destination.height else {
            throw .invalidArgument(name: "startRow", reason: "\(startRow) outside 0…\(destination.height)")
        }
        let n = Swift.min(destination.height - startRow, availableRows)
        destination.withUnsafeMutableRows { dst in
            for i in 0..<n {
                dst.row(startRow + i).copyMemory(
                    from: queue.pointer + (queueStart + i) * outputRowBytes, byteCount: outputRowBytes)
            }
        }
        queueStart += n
        rowsPulled += n
        return n
    }

    // MARK: Internals

    private func isStaged(_ p: UnsafeRawPointer) -> Bool {
        p >= UnsafeRawPointer(staging.pointer) && p < UnsafeRawPointer(staging.pointer + staging.byteCount)
    }

    /// Filters the pending rows and produces every output row they complete.
    private func flush() {
        guard pendingCount > 0 else { return }
        let first = pendingFirstRow, count = pendingCount
        let batches = (count + 7) / 8
        let engine = self.engine, pending = self.pending
        Parallel.forEach(Swift.min(batches, threads)) { t in
            var b = t
            while b < batches {
                let n = Swift.min(8, count - b * 8)
                engine.horizontal(rows: pending + b * 8, count: n, firstRow: first + b * 8, worker: t)
                b += Swift.min(batches, threads)
            }
        }
        pendingFirstRow += count
        pendingCount = 0

        var ready = rowsProduced
        while ready < outputHeight, plan.sourceRowsEnd(forOutputRow: ready) <= pendingFirstRow { ready += 1 }
        let newRows = ready - rowsProduced
        guard newRows > 0 else { return }
        reserveQueue(newRows)
        let base = queue.pointer + (queueStart + availableRows) * outputRowBytes
        let produced = rowsProduced, rowBytes = outputRowBytes
        let chunks = Parallel.chunks(0..<newRows, parts: newRows >= 4 ? threads : 1)
        Parallel.forEach(chunks.count) { t in
            for i in chunks[t] {
                engine.vertical(outputRow: produced + i, into: base + i * rowBytes, worker: t)
            }
        }
        rowsProduced = ready
    }

    /// Makes room for `extra` more rows after the unpulled ones, moving them to the front or growing the queue.
    private func reserveQueue(_ extra: Int) {
        let waiting = availableRows
        let capacity = queue.byteCount / Swift.max(outputRowBytes, 1)
        if queueStart + waiting + extra <= capacity { return }
        if waiting + extra <= capacity {
            memmove(queue.pointer, queue.pointer + queueStart * outputRowBytes, waiting * outputRowBytes)
        } else {
            let grown = ScratchBuffer(byteCount: Swift.max(capacity * 2, waiting + extra) * outputRowBytes)
            grown.pointer.copyMemory(from: queue.pointer + queueStart * outputRowBytes, byteCount: waiting * outputRowBytes)
            queue = grown
        }
        queueStart = 0
    }
}
