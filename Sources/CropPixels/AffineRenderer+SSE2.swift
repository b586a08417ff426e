// The x86-64 (SSE2 baseline) form of the 8-bit rotating kernel.
//
// The portable kernel in AffineRenderer+Kernels.swift computes the same thing with the standard library's SIMD
// types, but LLVM lowers its byte interleaves of freshly loaded pixels to long insert/mask sequences; written with
// the SSE2 intrinsics (plain functions from the compiler's own headers, no target flags), each pair of taps is
// two loads, two byte interleaves and one pmaddwd, and a 4×4 Catmull-Rom pixel is about a hundred instructions.
// Both kernels give identical results; the tests run both. Building with `-DCROPKIT_PORTABLE` (CROPKIT_PORTABLE=1 in
// the environment of `swift build`, see Package.swift) leaves this file out, as on arm64: `.ci/portable-test` builds and
// tests the pixels, codecs and pipeline that way.

#if arch(x86_64) && canImport(_Builtin_intrinsics.intel) && !CROPKIT_PORTABLE
    import _Builtin_intrinsics.intel

    extension AffineKernel {
        static let hasSSE2Kernel = true

        /// Two adjacent taps whose bytes start `shift` bits into `lo:hi` (16 little-endian bytes) as 16-bit lanes
        /// `[c0 c0′ c1 c1′ c2 c2′ c3 c3′]`.
        @inline(__always)
        private static func tapPair(_ a: UInt64, _ b: UInt64, zero: __m128i) -> __m128i {
            _mm_unpacklo_epi8(
                _mm_unpacklo_epi8(_mm_cvtsi64_si128(Int64(bitPattern: a)), _mm_cvtsi64_si128(Int64(bitPattern: b))),
                zero)
        }

        /// The 8 bytes starting `bytes` into the 16 bytes `lo:hi`.
        @inline(__always)
        private static func bytes(_ lo: UInt64, _ hi: UInt64, from bytes: Int) -> UInt64 {
            if bytes == 0 { return lo }
            if bytes >= 8 { return hi >> UInt64(8 * (bytes - 8)) }
            return (lo >> UInt64(8 * bytes)) | (hi << UInt64(64 - 8 * bytes))
        }

        /// Premultiplies a tap pair: colour lanes become `colour · alpha / 2`, alpha lanes `255 · alpha / 2`.
        @inline(__always)
        private static func premultiply(_ v: __m128i, channels c: Int, keep: __m128i, opaque: __m128i) -> __m128i {
            // Broadcast the 32-bit lane holding the two alphas (lane c − 1).
            let alphas =
                c == 4
                ? _mm_unpackhi_epi64(_mm_unpackhi_epi32(v, v), _mm_unpackhi_epi32(v, v))
                : _mm_unpackhi_epi64(_mm_unpacklo_epi32(v, v), _mm_unpacklo_epi32(v, v))
            let colour = _mm_or_si128(_mm_and_si128(v, keep), opaque)
            return _mm_srli_epi16(_mm_mullo_epi16(colour, alphas), 1)
        }

        /// One output row through the SSE2 kernel. Same contract as the portable `renderRow8`.
        func renderRow8SSE2<Layout: Layout8, Taps: TapCount>(
            _: Layout.Type, _: Taps.Type, _ row: RowStart, _ window: SourceWindow, _ dst: UnsafeMutableRawPointer,
            _ width: Int
        ) {
            let c = Layout.channels, alpha = Layout.alpha
            let nx = Taps.count ?? self.nx, ny = Taps.count ?? self.ny
            let rowShift: Int32 = alpha ? 15 : 8
            let finalShift: Int32 = alpha ? 14 : 20
            let hx = nx / 2 - 1, hy = ny / 2 - 1
            let windowEnd = window.top + window.rows
            let rowBytes = window.width * c
            let zero = _mm_setzero_si128()
            let rowRound = _mm_set1_epi32(1 << (rowShift - 1))
            let finalRound = _mm_set1_epi32(1 << (finalShift - 1))
            // Alpha lanes of a tap pair: 2(c − 1) and 2(c − 1) + 1.
            let alphaMask: __m128i =
                c == 4 ? _mm_set_epi16(-1, -1, 0, 0, 0, 0, 0, 0) : _mm_set_epi16(0, 0, 0, 0, -1, -1, 0, 0)
            let keep = _mm_andnot_si128(alphaMask, _mm_set1_epi16(-1))
            let opaque = _mm_and_si128(alphaMask, _mm_set1_epi16(255))
            let wxAll = UnsafeRawPointer(tables.fixedX), wyAll = UnsafeRawPointer(tables.fixedY)
            // The bytes a row of taps reads from its first pixel: 16 for the unrolled 4-tap form, else pairs of
            // 8-byte loads.
            let readBytes = nx == 4 ? 16 : (nx - 2) * c + 8
            var u = row.u, v = row.v
            for x in 0..<width {
                let bx = Int(truncatingIfNeeded: u >> 32), by = Int(truncatingIfNeeded: v >> 32)
                let px = Int(truncatingIfNeeded: u >> (32 - Int64(Self.phaseBits))) & (Self.phases - 1)
                let py = Int(truncatingIfNeeded: v >> (32 - Int64(Self.phaseBits))) & (Self.phases - 1)
                u &+= row.du
                v &+= row.dv
                let x0 = bx - hx, y0 = by - hy
                let inside =
                    x0 >= 0 && x0 + nx <= window.width && y0 >= window.top && y0 + ny <= windowEnd
                    && (y0 + ny < windowEnd || x0 * c + readBytes <= rowBytes)
                guard inside else {
                    renderPixel8Clamped(Layout.self, bx: bx, by: by, px: px, py: py, window, dst + x * c)
                    continue
                }
                let wx = wxAll + px * (nx / 2) * 4, wy = wyAll + py * (ny / 2) * 4
                var acc = finalRound
                var j = 0
                while j < ny {
                    var sums = (rowRound, rowRound)
                    for r in 0..<2 {
                        let q = window.row(y0 + j + r) + x0 * c
                        var s = rowRound
                        if nx == 4 {
                            let lo = q.loadUnaligned(as: UInt64.self),
                                hi = q.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                            var a = Self.tapPair(lo, Self.bytes(lo, hi, from: c), zero: zero)
                            var b = Self.tapPair(
                                Self.bytes(lo, hi, from: 2 * c), Self.bytes(lo, hi, from: 3 * c), zero: zero)
                            if alpha {
                                a = Self.premultiply(a, channels: c, keep: keep, opaque: opaque)
                                b = Self.premultiply(b, channels: c, keep: keep, opaque: opaque)
                            }
                            s = _mm_add_epi32(s, _mm_madd_epi16(a, _mm_set1_epi32(wx.load(as: Int32.self))))
                            s = _mm_add_epi32(
                                s, _mm_madd_epi16(b, _mm_set1_epi32(wx.load(fromByteOffset: 4, as: Int32.self))))
                        } else {
                            var i = 0
                            while i < nx {
                                let w8 = q.loadUnaligned(fromByteOffset: i * c, as: UInt64.self)
                                var t = Self.tapPair(w8, w8 >> UInt64(8 * c), zero: zero)
                                if alpha { t = Self.premultiply(t, channels: c, keep: keep, opaque: opaque) }
                                s = _mm_add_epi32(
                                    s, _mm_madd_epi16(t, _mm_set1_epi32(wx.load(fromByteOffset: i * 2, as: Int32.self)))
                                )
                                i += 2
                            }
                        }
                        if r == 0 { sums.0 = s } else { sums.1 = s }
                    }
                    let packed = _mm_packs_epi32(_mm_srai_epi32(sums.0, rowShift), _mm_srai_epi32(sums.1, rowShift))
                    let rows = _mm_unpacklo_epi16(packed, _mm_unpackhi_epi64(packed, packed))
                    acc = _mm_add_epi32(
                        acc, _mm_madd_epi16(rows, _mm_set1_epi32(wy.load(fromByteOffset: j * 2, as: Int32.self))))
                    j += 2
                }
                acc = _mm_srai_epi32(acc, finalShift)
                let out = dst + x * c
                if alpha {
                    Self.storeUnpremultiplied(unsafeBitCast(acc, to: SIMD4<Int32>.self), channels: c, to: out)
                } else {
                    let bytes = UInt32(bitPattern: _mm_cvtsi128_si32(_mm_packus_epi16(_mm_packs_epi32(acc, acc), zero)))
                    switch c {
                    case 1: out.storeBytes(of: UInt8(truncatingIfNeeded: bytes), as: UInt8.self)
                    case 3 where x + 1 < width: out.storeBytes(of: bytes, as: UInt32.self)
                    default:
                        for ch in 0..<c {
                            out.storeBytes(
                                of: UInt8(truncatingIfNeeded: bytes >> UInt32(8 * ch)), toByteOffset: ch, as: UInt8.self
                            )
                        }
                    }
                }
            }
        }
    }
#else
    extension AffineKernel {
        static let hasSSE2Kernel = false
    }
#endif
