import CropGeometry

/// The general (rotating) path of ``AffineRenderer``: a separable kernel in source x and y, evaluated at each output
/// pixel's source position, with weights tabulated for 128 sub-pixel phases.
///
/// Positions step along an output row in 32.32 fixed point. The 8-bit kernel filters two horizontal taps at a time
/// with a multiply-add of 16-bit pairs (all channels in one vector), then combines rows the same way, so a 4×4
/// Catmull-Rom pixel costs 8 + 2 such steps.
struct AffineKernel: Sendable {
    static let phaseBits = 7
    static let phases = 1 << phaseBits

    /// Taps along source x and y (even).
    let nx: Int
    let ny: Int
    /// `phases × nx/2` (`ny/2`) coefficient pairs (14-bit), phase-major, then `phases × nx` (`ny`) `Float`
    /// weights, in one allocation that the kernels read through raw pointers.
    let tables: Tables

    final class Tables: @unchecked Sendable {
        // @unchecked Sendable: written once in `init`, then only read (by any number of renderer threads).
        let storage: ScratchBuffer
        let fixedX: UnsafeMutablePointer<UInt32>
        let fixedY: UnsafeMutablePointer<UInt32>
        let floatX: UnsafeMutablePointer<Float>
        let floatY: UnsafeMutablePointer<Float>

        init(fixedX: [UInt32], fixedY: [UInt32], floatX: [Float], floatY: [Float]) {
            storage = ScratchBuffer(byteCount: 4 * (fixedX.count + fixedY.count + floatX.count + floatY.count))
            self.fixedX = storage.typed(UInt32.self)
            self.fixedY = self.fixedX + fixedX.count
            self.floatX = UnsafeMutableRawPointer(self.fixedY + fixedY.count).assumingMemoryBound(to: Float.self)
            self.floatY = self.floatX + floatX.count
            self.fixedX.update(from: fixedX, count: fixedX.count)
            self.fixedY.update(from: fixedY, count: fixedY.count)
            self.floatX.update(from: floatX, count: floatX.count)
            self.floatY.update(from: floatY, count: floatY.count)
        }
    }

    init(filter: ResamplingFilter, transform t: AffineTransform2D) {
        // The footprint of one output pixel along source x and y; the kernel stretches by it when it exceeds 1.
        let nearest = filter == .nearest
        let fx = nearest ? 1 : Swift.max(1, (t.a * t.a + t.c * t.c).squareRoot())
        let fy = nearest ? 1 : Swift.max(1, (t.b * t.b + t.d * t.d).squareRoot())
        let kernel: ResamplingFilter = nearest ? .box : filter
        func taps(_ f: Double) -> Int { Swift.max(2, 2 * Int((kernel.support * f - 1e-9).rounded(.up))) }
        nx = taps(fx)
        ny = taps(fy)
        let (fixedX, floatX) = Self.table(kernel, taps: nx, scale: fx)
        let (fixedY, floatY) = Self.table(kernel, taps: ny, scale: fy)
        tables = Tables(fixedX: fixedX, fixedY: fixedY, floatX: floatX, floatY: floatY)
    }

    /// Weights of taps `k = 0..<n` at `base − (n/2 − 1) + k` for a sample at `base + phase / phases`.
    private static func table(_ filter: ResamplingFilter, taps n: Int, scale f: Double) -> ([UInt32], [Float]) {
        var fixed: [UInt32] = []
        var float: [Float] = []
        var q = [Int32](repeating: 0, count: n)
        for p in 0..<phases {
            let t = Double(p) / Double(phases)
            var w = (0..<n).map { k in filter.weight((Double(k - (n / 2 - 1)) - t) / f) }
            let total = w.reduce(0, +)
            w = w.map { $0 / total }
            float.append(contentsOf: w.map { Float($0) })
            FixedTaps.quantize(w[...], into: &q)
            for k in stride(from: 0, to: n, by: 2) {
                fixed.append(
                    UInt32(UInt16(bitPattern: Int16(q[k]))) | UInt32(UInt16(bitPattern: Int16(q[k + 1]))) << 16)
            }
        }
        return (fixed, float)
    }

    /// Source rows read by output rows `rows` of an output `width` wide, clamped to the picture.
    func sourceRows(forOutputRows rows: Range<Int>, width: Int, transform t: AffineTransform2D, sourceHeight: Int)
        -> Range<Int>
    {
        var lo = Double.infinity, hi = -Double.infinity
        for (x, y) in [
            (0.5, rows.lowerBound), (Double(width) - 0.5, rows.lowerBound),
            (0.5, rows.upperBound - 1), (Double(width) - 0.5, rows.upperBound - 1),
        ] {
            let v = t.apply(to: Point(x: x, y: Double(y) + 0.5)).y - 0.5
            lo = Swift.min(lo, v)
            hi = Swift.max(hi, v)
        }
        // One row of margin on each side covers the phase rounding.
        let first = Int(lo.rounded(.down)) - (ny / 2 - 1) - 1
        let last = Int(hi.rounded(.down)) + ny / 2 + 2
        return Swift.max(0, Swift.min(first, sourceHeight - 1))..<Swift.min(sourceHeight, Swift.max(last, 1))
    }

    /// Renders output rows `rows` into `out` (its row 0 is output row `rows.lowerBound`) from `strips`: each output
    /// pixel whose base column (the source column of its sample position, rounded down) falls in a strip's owned
    /// columns reads that strip's rows, which hold the picture rows and columns those pixels read (one strip owning
    /// every column may hold whole rows). The owned ranges must partition the integers, in order. `portable` forces
    /// the standard-library SIMD kernel where an SSE2 one exists (for tests).
    func render(
        _ strips: [AffineRenderer.ColumnStrip], sourceWidth: Int, sourceHeight: Int, transform t: AffineTransform2D,
        outputRows rows: Range<Int>, into out: inout PixelBuffer, threads: Int, portable: Bool = false
    ) {
        let format = out.format
        let outWidth = out.width
        // One table of every strip's row pointers, so that each strip's window reads through a raw pointer.
        let tableCount = strips.reduce(0) { $0 + $1.rows.count }
        let table = UnsafeMutablePointer<UnsafeRawPointer>.allocate(capacity: Swift.max(tableCount, 1))
        defer { table.deallocate() }
        var windows: [SourceWindow] = []
        var offset = 0
        for strip in strips {
            (table + offset).initialize(from: strip.rows.pointers, count: strip.rows.count)
            windows.append(
                SourceWindow(
                    rowTable: table + offset, top: strip.rows.firstRow, rows: strip.rows.count, width: sourceWidth,
                    pictureHeight: sourceHeight))
            offset += strip.rows.count
        }
        let owned = strips.map(\.owned)
        out.withUnsafeMutableRows { dst in
            let chunks = Parallel.chunks(rows, parts: rows.count >= 8 ? threads * 4 : 1)
            Parallel.forEach(chunks.count, threads: threads) { i in
                for y in chunks[i] {
                    let row = Self.rowStart(y, t)
                    let d = dst.row(y - rows.lowerBound)
                    for (s, window) in windows.enumerated() {
                        let columns = owned.count == 1 ? 0..<outWidth : row.columns(owning: owned[s], width: outWidth)
                        guard !columns.isEmpty else { continue }
                        renderRow(
                            format, row.advanced(by: columns.lowerBound), window,
                            d + columns.lowerBound * format.bytesPerPixel, columns.count, portable: portable)
                    }
                }
            }
        }
    }

    /// Renders `width` output pixels from `row`'s start into `d`.
    @inline(__always)
    private func renderRow(
        _ format: PixelFormat, _ row: RowStart, _ window: SourceWindow, _ d: UnsafeMutableRawPointer, _ width: Int,
        portable: Bool
    ) {
        switch (format.depth, format.channelCount) {
        case (.eight, 1): renderRow8(Gray8.self, row, window, d, width, portable: portable)
        case (.eight, 2): renderRow8(GrayAlpha8.self, row, window, d, width, portable: portable)
        case (.eight, 3): renderRow8(RGB8.self, row, window, d, width, portable: portable)
        case (.eight, _): renderRow8(RGBA8.self, row, window, d, width, portable: portable)
        default:
            renderRowFloat(channels: format.channelCount, alpha: format.hasAlpha, row, window, d, width)
        }
    }

    /// The source rows read by the pixels of output rows `rows` (`width` wide) whose base column falls in `owned`,
    /// clamped to the picture: exact, from the same fixed-point positions the render steps through. Empty when no
    /// such pixel exists.
    func sourceRows(
        forOutputRows rows: Range<Int>, owning owned: Range<Int>, width: Int, transform t: AffineTransform2D,
        sourceHeight: Int
    ) -> Range<Int> {
        var lo = Int.max, hi = Int.min
        for y in rows {
            let row = Self.rowStart(y, t)
            let columns = row.columns(owning: owned, width: width)
            guard let last = columns.last else { continue }
            for x in [columns.lowerBound, last] {
                let first = row.advanced(by: x).baseRow - (ny / 2 - 1)
                lo = Swift.min(lo, first)
                hi = Swift.max(hi, first + ny - 1)
            }
        }
        guard lo <= hi else { return 0..<0 }
        func clamp(_ v: Int) -> Int { Swift.min(Swift.max(v, 0), sourceHeight - 1) }
        return clamp(lo)..<(clamp(hi) + 1)
    }

    /// The source columns that pixels whose base column falls in `owned` read, within a picture `width` wide.
    func sourceColumns(owning owned: Range<Int>, width: Int) -> Range<Int> {
        let hx = nx / 2 - 1
        let first = owned.lowerBound == .min ? 0 : Swift.min(Swift.max(owned.lowerBound - hx, 0), width - 1)
        let end = owned.upperBound == .max ? width : Swift.max(Swift.min(owned.upperBound - hx + nx - 1, width), 1)
        return first..<Swift.max(end, first + 1)
    }

    /// Where output row `y` starts: the fixed-point source position of its first pixel's sample, and the step per
    /// pixel.
    @inline(__always)
    static func rowStart(_ y: Int, _ t: AffineTransform2D) -> RowStart {
        let start = t.apply(to: Point(x: 0.5, y: Double(y) + 0.5))
        let half = Int64(1) << (31 - phaseBits)
        return RowStart(
            u: fixed(start.x - 0.5) + half, v: fixed(start.y - 0.5) + half, du: fixed(t.a), dv: fixed(t.b))
    }

    @inline(__always)
    static func fixed(_ v: Double) -> Int64 { Int64((v * 4_294_967_296).rounded()) }

    /// A row's sample positions: `u`, `v` (32.32 fixed point) at its first pixel, plus `du`, `dv` per pixel; the
    /// kernels step by exact additions, so pixel `x` samples at `u + x·du`, `v + x·dv`.
    struct RowStart {
        let u: Int64, v: Int64, du: Int64, dv: Int64

        /// The row from pixel `x` on.
        @inline(__always)
        func advanced(by x: Int) -> RowStart {
            RowStart(u: u &+ Int64(x) &* du, v: v &+ Int64(x) &* dv, du: du, dv: dv)
        }

        /// The source row its first pixel's taps are centred on (`v` rounded down).
        var baseRow: Int { Int(truncatingIfNeeded: v >> 32) }

        /// The pixels of `0..<width` whose base column (`u` rounded down) falls in `owned`: a contiguous run, since
        /// `u` is linear in the pixel. `Int.min` and `Int.max` bounds are unbounded.
        func columns(owning owned: Range<Int>, width: Int) -> Range<Int> {
            if du == 0 {
                return owned.contains(Int(truncatingIfNeeded: u >> 32)) ? 0..<width : 0..<0
            }
            // f(x) = u + x·du; the run is where f(x) ≥ lower·2³² and f(x) < upper·2³².
            var first = 0, end = width
            func bound(_ column: Int) -> Int64 { Int64(column) << 32 &- u }
            if du > 0 {
                if owned.lowerBound != .min {
                    first = Swift.max(first, Self.clamped(ceilDiv(bound(owned.lowerBound), du)))
                }
                if owned.upperBound != .max { end = Swift.min(end, Self.clamped(ceilDiv(bound(owned.upperBound), du))) }
            } else {
                if owned.upperBound != .max {
                    first = Swift.max(first, Self.clamped(floorDiv(bound(owned.upperBound), du) + 1))
                }
                if owned.lowerBound != .min {
                    end = Swift.min(end, Self.clamped(floorDiv(bound(owned.lowerBound), du) + 1))
                }
            }
            return first < end ? first..<end : 0..<0
        }

        private static func clamped(_ v: Int64) -> Int { Int(Swift.min(Swift.max(v, -1), Int64(Int32.max))) }

        private func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
            let q = a / b
            return (a % b != 0) && ((a < 0) != (b < 0)) ? q - 1 : q
        }

        private func ceilDiv(_ a: Int64, _ b: Int64) -> Int64 { -floorDiv(-a, b) }
    }

    /// The rows of the source in memory: picture rows `top ..< top + rows` of a `width × pictureHeight` picture,
    /// each through its entry of `rowTable` (rows need not be evenly spaced).
    struct SourceWindow {
        let rowTable: UnsafePointer<UnsafeRawPointer>
        let top: Int
        let rows: Int
        let width: Int
        let pictureHeight: Int

        /// The first byte of picture row `y`, which must be in the window.
        @inline(__always)
        func row(_ y: Int) -> UnsafeRawPointer {
            rowTable[y - top]
        }

        /// The first byte of picture row `y`, clamped to the picture (and, defensively, to the window).
        @inline(__always)
        func row(clamping y: Int) -> UnsafeRawPointer {
            let r = Swift.min(Swift.max(y, 0), pictureHeight - 1) - top
            return rowTable[Swift.min(Swift.max(r, 0), rows - 1)]
        }
    }

    // MARK: 8-bit

    /// Loads pixel bytes into the low lanes (3 channels load a fourth byte that is ignored).
    @inline(__always)
    private static func loadPixel(_ p: UnsafeRawPointer, channels c: Int) -> SIMD4<UInt8> {
        switch c {
        case 1: return SIMD4(p.load(as: UInt8.self), 0, 0, 0)
        case 2: return SIMD4(p.load(as: UInt8.self), p.load(fromByteOffset: 1, as: UInt8.self), 0, 0)
        default: return unsafeBitCast(p.loadUnaligned(as: UInt32.self), to: SIMD4<UInt8>.self)
        }
    }

    /// Loads exactly `c` bytes (for taps clamped to the picture's edge).
    @inline(__always)
    private static func safePixel(_ p: UnsafeRawPointer, channels c: Int) -> SIMD4<UInt8> {
        var v = SIMD4<UInt8>()
        for ch in 0..<c { v[ch] = p.load(fromByteOffset: ch, as: UInt8.self) }
        return v
    }

    /// Two horizontally adjacent taps as `[c0 c0′ c1 c1′ c2 c2′ c3 c3′]`, premultiplied when `alpha`
    /// (as `colour · alpha / 2`, alpha itself as `255 · alpha / 2`).
    @inline(__always)
    private static func tapPair(_ a: SIMD4<UInt8>, _ b: SIMD4<UInt8>, channels c: Int, alpha: Bool) -> SIMD8<Int16> {
        let bytes = SIMD8<UInt8>(a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3])
        var v = SIMD8<UInt16>(truncatingIfNeeded: bytes)
        if alpha {
            let pairs = unsafeBitCast(v, to: SIMD4<UInt32>.self)
            let alphas = unsafeBitCast(SIMD4<UInt32>(repeating: pairs[c - 1]), to: SIMD8<UInt16>.self)
            var opaque = SIMD8<UInt16>(repeating: 0)
            opaque[2 * (c - 1)] = 255
            opaque[2 * (c - 1) + 1] = 255
            v = SIMD8<UInt16>(repeating: 0).replacing(with: v, where: opaque .== 0) | opaque
            v = (v &* alphas) &>> 1
        }
        return unsafeBitCast(v, to: SIMD8<Int16>.self)
    }

    /// Dispatches one 8-bit row to the SSE2 kernel (x86-64) or the portable one, specialised for 4×4 taps.
    private func renderRow8<Layout: Layout8>(
        _ layout: Layout.Type, _ row: RowStart, _ window: SourceWindow, _ dst: UnsafeMutableRawPointer, _ width: Int,
        portable: Bool
    ) {
        let four = nx == 4 && ny == 4
        #if arch(x86_64) && canImport(_Builtin_intrinsics.intel) && !CROPKIT_PORTABLE
            if !portable {
                if four {
                    renderRow8SSE2(layout, FourTaps.self, row, window, dst, width)
                } else {
                    renderRow8SSE2(layout, AnyTaps.self, row, window, dst, width)
                }
                return
            }
        #endif
        if four {
            renderRow8(layout, FourTaps.self, row, window, dst, width)
        } else {
            renderRow8(layout, AnyTaps.self, row, window, dst, width)
        }
    }

    /// One output row with the standard library's SIMD types. Generic over the layout and tap count so that each
    /// combination compiles to code with a constant channel count.
    private func renderRow8<Layout: Layout8, Taps: TapCount>(
        _: Layout.Type, _: Taps.Type, _ row: RowStart, _ window: SourceWindow, _ dst: UnsafeMutableRawPointer,
        _ width: Int
    ) {
        let c = Layout.channels
        let nx = Taps.count ?? self.nx, ny = Taps.count ?? self.ny
        let hx = nx / 2 - 1, hy = ny / 2 - 1
        let windowEnd = window.top + window.rows
        var u = row.u, v = row.v
        for x in 0..<width {
            let bx = Int(truncatingIfNeeded: u >> 32), by = Int(truncatingIfNeeded: v >> 32)
            let px = Int(truncatingIfNeeded: u >> (32 - Int64(Self.phaseBits))) & (Self.phases - 1)
            let py = Int(truncatingIfNeeded: v >> (32 - Int64(Self.phaseBits))) & (Self.phases - 1)
            u &+= row.du
            v &+= row.dv
            let x0 = bx - hx, y0 = by - hy
            // Three channels load four bytes: not at the very last pixel of the window.
            let inside =
                x0 >= 0 && x0 + nx <= window.width && y0 >= window.top && y0 + ny <= windowEnd
                && (c != 3 || x0 + nx < window.width || y0 + ny < windowEnd)
            if inside {
                filterPixel8(Layout.self, nx: nx, ny: ny, px: px, py: py, dst + x * c) { j, i in
                    Self.loadPixel(window.row(y0 + j) + (x0 + i) * c, channels: c)
                }
            } else {
                renderPixel8Clamped(Layout.self, bx: bx, by: by, px: px, py: py, window, dst + x * c)
            }
        }
    }

    /// One output pixel whose taps may fall outside the picture: they are clamped to its edge.
    func renderPixel8Clamped<Layout: Layout8>(
        _: Layout.Type, bx: Int, by: Int, px: Int, py: Int, _ window: SourceWindow, _ out: UnsafeMutableRawPointer
    ) {
        let c = Layout.channels
        let x0 = bx - (nx / 2 - 1), y0 = by - (ny / 2 - 1)
        filterPixel8(Layout.self, nx: nx, ny: ny, px: px, py: py, out) { j, i in
            let xi = Swift.min(Swift.max(x0 + i, 0), window.width - 1)
            return Self.safePixel(window.row(clamping: y0 + j) + xi * c, channels: c)
        }
    }

    /// Filters `nx × ny` taps, `tap(j, i)` giving the pixel of tap row `j`, column `i`, and stores the result.
    @inline(__always)
    private func filterPixel8<Layout: Layout8>(
        _: Layout.Type, nx: Int, ny: Int, px: Int, py: Int, _ out: UnsafeMutableRawPointer,
        tap: (Int, Int) -> SIMD4<UInt8>
    ) {
        let c = Layout.channels, alpha = Layout.alpha
        let rowShift: Int32 = alpha ? 15 : 8
        let finalShift: Int32 = alpha ? 14 : 20
        let wx = tables.fixedX + px * (nx / 2)
        let wy = tables.fixedY + py * (ny / 2)
        var acc = SIMD4<Int32>(repeating: 1 << (finalShift - 1))
        var j = 0
        while j < ny {
            var r0 = SIMD4<Int32>(repeating: 1 << (rowShift - 1)), r1 = r0
            var i = 0
            while i < nx {
                let k = broadcastPair(wx[i / 2])
                r0 &+= multiplyAddPairs(Self.tapPair(tap(j, i), tap(j, i + 1), channels: c, alpha: alpha), k)
                r1 &+= multiplyAddPairs(Self.tapPair(tap(j + 1, i), tap(j + 1, i + 1), channels: c, alpha: alpha), k)
                i += 2
            }
            r0 = r0 &>> rowShift
            r1 = r1 &>> rowShift
            let rows = SIMD8<Int16>(
                Int16(truncatingIfNeeded: r0[0]), Int16(truncatingIfNeeded: r1[0]),
                Int16(truncatingIfNeeded: r0[1]), Int16(truncatingIfNeeded: r1[1]),
                Int16(truncatingIfNeeded: r0[2]), Int16(truncatingIfNeeded: r1[2]),
                Int16(truncatingIfNeeded: r0[3]), Int16(truncatingIfNeeded: r1[3]))
            acc &+= multiplyAddPairs(rows, broadcastPair(wy[j / 2]))
            j += 2
        }
        acc = acc &>> finalShift
        if alpha {
            Self.storeUnpremultiplied(acc, channels: c, to: out)
        } else {
            let b = SIMD4<UInt8>(truncatingIfNeeded: acc.clamped(lowerBound: .zero, upperBound: SIMD4(repeating: 255)))
            for ch in 0..<c { out.storeBytes(of: b[ch], toByteOffset: ch, as: UInt8.self) }
        }
    }

    /// Divides premultiplied sums (units of `colour · alpha / 4`) by alpha and stores 8-bit straight alpha.
    @inline(__always)
    static func storeUnpremultiplied(_ acc: SIMD4<Int32>, channels c: Int, to out: UnsafeMutableRawPointer) {
        let a = acc[c - 1]
        if a <= 0 {
            for ch in 0..<c { out.storeBytes(of: 0, toByteOffset: ch, as: UInt8.self) }
            return
        }
        let alpha = Swift.min((a * 4 + 127) / 255, 255)
        let reciprocal = 255 / Float(a)
        for ch in 0..<(c - 1) {
            let v = Float(Swift.min(Swift.max(acc[ch], 0), a)) * reciprocal + 0.5
            out.storeBytes(of: UInt8(Swift.min(v, 255)), toByteOffset: ch, as: UInt8.self)
        }
        out.storeBytes(of: UInt8(alpha), toByteOffset: c - 1, as: UInt8.self)
    }

    // MARK: 16-bit

    private func renderRowFloat(
        channels c: Int, alpha: Bool, _ row: RowStart, _ window: SourceWindow, _ dst: UnsafeMutableRawPointer,
        _ width: Int
    ) {
        let hx = nx / 2 - 1, hy = ny / 2 - 1
        let out16 = dst.assumingMemoryBound(to: UInt16.self)
        let wxAll = tables.floatX, wyAll = tables.floatY
        var u = row.u, v = row.v
        for x in 0..<width {
            let bx = Int(truncatingIfNeeded: u >> 32), by = Int(truncatingIfNeeded: v >> 32)
            let px = Int(truncatingIfNeeded: u >> (32 - Int64(Self.phaseBits))) & (Self.phases - 1)
            let py = Int(truncatingIfNeeded: v >> (32 - Int64(Self.phaseBits))) & (Self.phases - 1)
            u &+= row.du
            v &+= row.dv
            let wx = wxAll + px * nx, wy = wyAll + py * ny
            var acc = SIMD4<Float>()
            for j in 0..<ny {
                let p = window.row(clamping: by - hy + j).assumingMemoryBound(to: UInt16.self)
                var r = SIMD4<Float>()
                for i in 0..<nx {
                    let xi = Swift.min(Swift.max(bx - hx + i, 0), window.width - 1) * c
                    var s = SIMD4<Float>()
                    for ch in 0..<c { s[ch] = Float(p[xi + ch]) }
                    if alpha {
                        let a = s[c - 1] * (1 / 65535)
                        for ch in 0..<(c - 1) { s[ch] *= a }
                    }
                    r += s * wx[i]
                }
                acc += r * wy[j]
            }
            let o = out16 + x * c
            var a: Float = 65535
            if alpha {
                a = Swift.min(Swift.max(acc[c - 1], 0), 65535)
                o[c - 1] = UInt16(a + 0.5)
            }
            for ch in 0..<(alpha ? c - 1 : c) {
                let value = a > 0 ? Swift.min(Swift.max(acc[ch], 0), a) * (65535 / a) : 0
                o[ch] = UInt16(Swift.min(value, 65535) + 0.5)
            }
        }
    }
}

/// An 8-bit layout, as types, so the row kernel is specialised for each.
protocol Layout8 {
    static var channels: Int { get }
    static var alpha: Bool { get }
}

enum Gray8: Layout8 {
    static var channels: Int { 1 }
    static var alpha: Bool { false }
}

enum GrayAlpha8: Layout8 {
    static var channels: Int { 2 }
    static var alpha: Bool { true }
}

enum RGB8: Layout8 {
    static var channels: Int { 3 }
    static var alpha: Bool { false }
}

enum RGBA8: Layout8 {
    static var channels: Int { 4 }
    static var alpha: Bool { true }
}

/// A tap count known at compile time (`nil`: the kernel's own).
protocol TapCount {
    static var count: Int? { get }
}

enum FourTaps: TapCount {
    static var count: Int? { 4 }
}

enum AnyTaps: TapCount {
    static var count: Int? { nil }
}
