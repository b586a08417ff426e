// Small SIMD building blocks for the pixel loops. They are written with the standard library's SIMD types only;
// LLVM lowers them to single instructions on x86-64's SSE2 baseline (pmaddwd, punpck*, packs*) and to their NEON
// counterparts on arm64, so no intrinsics or target flags are needed.

/// Multiplies 16-bit lanes and adds adjacent pairs: `r[i] = a[2i]·b[2i] + a[2i+1]·b[2i+1]` (SSE2 `pmaddwd`).
@inline(__always)
func multiplyAddPairs(_ a: SIMD8<Int16>, _ b: SIMD8<Int16>) -> SIMD4<Int32> {
    // Written as widen-multiply-then-add-halves: this is the shape LLVM matches to one pmaddwd even when the
    // operands come straight from memory (the even/odd-first shape gets split into lane inserts there).
    let p = SIMD8<Int32>(truncatingIfNeeded: a) &* SIMD8<Int32>(truncatingIfNeeded: b)
    return p.evenHalf &+ p.oddHalf
}

/// A coefficient pair (low half: even tap, high half: odd tap) repeated in all four 32-bit lanes.
@inline(__always)
func broadcastPair(_ pair: UInt32) -> SIMD8<Int16> {
    unsafeBitCast(SIMD4<UInt32>(repeating: pair), to: SIMD8<Int16>.self)
}

/// `a0 b0 a1 b1 a2 b2 a3 b3` (SSE2 `punpcklwd`).
@inline(__always)
func interleaveLow(_ a: SIMD8<Int16>, _ b: SIMD8<Int16>) -> SIMD8<Int16> {
    SIMD8(a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3])
}

/// `a4 b4 a5 b5 a6 b6 a7 b7` (SSE2 `punpckhwd`).
@inline(__always)
func interleaveHigh(_ a: SIMD8<Int16>, _ b: SIMD8<Int16>) -> SIMD8<Int16> {
    SIMD8(a[4], b[4], a[5], b[5], a[6], b[6], a[7], b[7])
}

@inline(__always)
func interleaveLow(_ a: SIMD16<UInt8>, _ b: SIMD16<UInt8>) -> SIMD16<UInt8> {
    SIMD16(a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3], a[4], b[4], a[5], b[5], a[6], b[6], a[7], b[7])
}

@inline(__always)
func interleaveHigh(_ a: SIMD16<UInt8>, _ b: SIMD16<UInt8>) -> SIMD16<UInt8> {
    SIMD16(a[8], b[8], a[9], b[9], a[10], b[10], a[11], b[11], a[12], b[12], a[13], b[13], a[14], b[14], a[15], b[15])
}

@inline(__always)
func interleaveLow32(_ a: SIMD8<Int16>, _ b: SIMD8<Int16>) -> SIMD8<Int16> {
    let x = unsafeBitCast(a, to: SIMD4<Int32>.self), y = unsafeBitCast(b, to: SIMD4<Int32>.self)
    return unsafeBitCast(SIMD4(x[0], y[0], x[1], y[1]), to: SIMD8<Int16>.self)
}

@inline(__always)
func interleaveHigh32(_ a: SIMD8<Int16>, _ b: SIMD8<Int16>) -> SIMD8<Int16> {
    let x = unsafeBitCast(a, to: SIMD4<Int32>.self), y = unsafeBitCast(b, to: SIMD4<Int32>.self)
    return unsafeBitCast(SIMD4(x[2], y[2], x[3], y[3]), to: SIMD8<Int16>.self)
}

@inline(__always)
func interleaveLow64(_ a: SIMD8<Int16>, _ b: SIMD8<Int16>) -> SIMD8<Int16> {
    let x = unsafeBitCast(a, to: SIMD2<Int64>.self), y = unsafeBitCast(b, to: SIMD2<Int64>.self)
    return unsafeBitCast(SIMD2(x[0], y[0]), to: SIMD8<Int16>.self)
}

@inline(__always)
func interleaveHigh64(_ a: SIMD8<Int16>, _ b: SIMD8<Int16>) -> SIMD8<Int16> {
    let x = unsafeBitCast(a, to: SIMD2<Int64>.self), y = unsafeBitCast(b, to: SIMD2<Int64>.self)
    return unsafeBitCast(SIMD2(x[1], y[1]), to: SIMD8<Int16>.self)
}

@inline(__always)
func reinterpret16(_ v: SIMD16<UInt8>) -> SIMD8<Int16> { unsafeBitCast(v, to: SIMD8<Int16>.self) }

@inline(__always)
func reinterpret8(_ v: SIMD8<Int16>) -> SIMD16<UInt8> { unsafeBitCast(v, to: SIMD16<UInt8>.self) }

/// Transposes an 8×8 block of 16-bit values: `v[i][r]` becomes `out[r][i]`.
@inline(__always)
func transpose8x8(
    _ v0: SIMD8<Int16>, _ v1: SIMD8<Int16>, _ v2: SIMD8<Int16>, _ v3: SIMD8<Int16>,
    _ v4: SIMD8<Int16>, _ v5: SIMD8<Int16>, _ v6: SIMD8<Int16>, _ v7: SIMD8<Int16>,
    _ store: (Int, SIMD8<Int16>) -> Void
) {
    let a0 = interleaveLow(v0, v1), a1 = interleaveHigh(v0, v1)
    let a2 = interleaveLow(v2, v3), a3 = interleaveHigh(v2, v3)
    let a4 = interleaveLow(v4, v5), a5 = interleaveHigh(v4, v5)
    let a6 = interleaveLow(v6, v7), a7 = interleaveHigh(v6, v7)
    let b0 = interleaveLow32(a0, a2), b1 = interleaveHigh32(a0, a2)
    let b2 = interleaveLow32(a1, a3), b3 = interleaveHigh32(a1, a3)
    let b4 = interleaveLow32(a4, a6), b5 = interleaveHigh32(a4, a6)
    let b6 = interleaveLow32(a5, a7), b7 = interleaveHigh32(a5, a7)
    store(0, interleaveLow64(b0, b4))
    store(1, interleaveHigh64(b0, b4))
    store(2, interleaveLow64(b1, b5))
    store(3, interleaveHigh64(b1, b5))
    store(4, interleaveLow64(b2, b6))
    store(5, interleaveHigh64(b2, b6))
    store(6, interleaveLow64(b3, b7))
    store(7, interleaveHigh64(b3, b7))
}

/// Transposes 8 rows of 16 bytes into 16 columns of 8 bytes, written one after another to `dst` (128 bytes).
@inline(__always)
func transpose8x16Bytes(
    _ r0: SIMD16<UInt8>, _ r1: SIMD16<UInt8>, _ r2: SIMD16<UInt8>, _ r3: SIMD16<UInt8>,
    _ r4: SIMD16<UInt8>, _ r5: SIMD16<UInt8>, _ r6: SIMD16<UInt8>, _ r7: SIMD16<UInt8>,
    to dst: UnsafeMutableRawPointer
) {
    let a0 = reinterpret16(interleaveLow(r0, r1)), a1 = reinterpret16(interleaveHigh(r0, r1))
    let a2 = reinterpret16(interleaveLow(r2, r3)), a3 = reinterpret16(interleaveHigh(r2, r3))
    let a4 = reinterpret16(interleaveLow(r4, r5)), a5 = reinterpret16(interleaveHigh(r4, r5))
    let a6 = reinterpret16(interleaveLow(r6, r7)), a7 = reinterpret16(interleaveHigh(r6, r7))
    let b0 = interleaveLow(a0, a2), b1 = interleaveHigh(a0, a2)
    let b2 = interleaveLow(a1, a3), b3 = interleaveHigh(a1, a3)
    let b4 = interleaveLow(a4, a6), b5 = interleaveHigh(a4, a6)
    let b6 = interleaveLow(a5, a7), b7 = interleaveHigh(a5, a7)
    dst.storeBytes(of: interleaveLow32(b0, b4), toByteOffset: 0, as: SIMD8<Int16>.self)
    dst.storeBytes(of: interleaveHigh32(b0, b4), toByteOffset: 16, as: SIMD8<Int16>.self)
    dst.storeBytes(of: interleaveLow32(b1, b5), toByteOffset: 32, as: SIMD8<Int16>.self)
    dst.storeBytes(of: interleaveHigh32(b1, b5), toByteOffset: 48, as: SIMD8<Int16>.self)
    dst.storeBytes(of: interleaveLow32(b2, b6), toByteOffset: 64, as: SIMD8<Int16>.self)
    dst.storeBytes(of: interleaveHigh32(b2, b6), toByteOffset: 80, as: SIMD8<Int16>.self)
    dst.storeBytes(of: interleaveLow32(b3, b7), toByteOffset: 96, as: SIMD8<Int16>.self)
    dst.storeBytes(of: interleaveHigh32(b3, b7), toByteOffset: 112, as: SIMD8<Int16>.self)
}

/// Transposes bytes `byteOffset ..< byteOffset + 16` of the 8 rows `rows[0…7]` into 16 columns of 8 bytes at `dst`:
/// `dst[j · 8 + r]` is byte `byteOffset + j` of row `r`.
@inline(__always)
func transposeRows8x16Bytes(
    _ rows: UnsafeMutablePointer<UnsafeRawPointer>, byteOffset o: Int, to dst: UnsafeMutableRawPointer
) {
    transpose8x16Bytes(
        rows[0].loadUnaligned(fromByteOffset: o, as: SIMD16<UInt8>.self),
        rows[1].loadUnaligned(fromByteOffset: o, as: SIMD16<UInt8>.self),
        rows[2].loadUnaligned(fromByteOffset: o, as: SIMD16<UInt8>.self),
        rows[3].loadUnaligned(fromByteOffset: o, as: SIMD16<UInt8>.self),
        rows[4].loadUnaligned(fromByteOffset: o, as: SIMD16<UInt8>.self),
        rows[5].loadUnaligned(fromByteOffset: o, as: SIMD16<UInt8>.self),
        rows[6].loadUnaligned(fromByteOffset: o, as: SIMD16<UInt8>.self),
        rows[7].loadUnaligned(fromByteOffset: o, as: SIMD16<UInt8>.self),
        to: dst)
}

/// Transposes the 8 16-bit samples at `byteOffset` of the 8 rows `rows[0…7]`: `store(t, v)` gets sample `t`'s
/// values in rows 0…7.
@inline(__always)
func transposeRows8x8(
    _ rows: UnsafeMutablePointer<UnsafeRawPointer>, byteOffset o: Int, _ store: (Int, SIMD8<Int16>) -> Void
) {
    transpose8x8(
        rows[0].loadUnaligned(fromByteOffset: o, as: SIMD8<Int16>.self),
        rows[1].loadUnaligned(fromByteOffset: o, as: SIMD8<Int16>.self),
        rows[2].loadUnaligned(fromByteOffset: o, as: SIMD8<Int16>.self),
        rows[3].loadUnaligned(fromByteOffset: o, as: SIMD8<Int16>.self),
        rows[4].loadUnaligned(fromByteOffset: o, as: SIMD8<Int16>.self),
        rows[5].loadUnaligned(fromByteOffset: o, as: SIMD8<Int16>.self),
        rows[6].loadUnaligned(fromByteOffset: o, as: SIMD8<Int16>.self),
        rows[7].loadUnaligned(fromByteOffset: o, as: SIMD8<Int16>.self), store)
}
