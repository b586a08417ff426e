// The 8-bit fixed-point passes.
//
// Horizontal: a batch of 8 source rows is transposed so that, for each channel and each pair of adjacent columns,
// the 8 rows' two samples sit side by side in 16 lanes of 16 bits: `[r0x0 r0x1 r1x0 r1x1 … r7x0 r7x1]`. A pair of
// 14-bit coefficients then filters all 8 rows at once with two multiply-add-pairs (SSE2 `pmaddwd`), exactly as a
// vertical filter would. Samples are scaled by 128 (7 fractional bits) and premultiplied by alpha on the way in.
// Results are clamped to 0…255·128 (as Pillow clamps to 0…255 between its passes) and transposed back into ring
// rows of 16-bit samples.
//
// Vertical: two ring rows at a time are interleaved and multiplied by a coefficient pair, 8 samples per step.
//
// On x86-64 processors with AVX2 both filters, and the packing of an opaque batch, run as `CPixelKernels`' AVX2
// kernels instead, which compute the same integers (`SIMDKernelsTests` compares them on seeded random resizes).

import CPixelKernels

extension ResampleEngine {
    /// The largest intermediate sample: 255 with 7 fractional bits.
    static let fixedMax: Int16 = 255 << 7

    func horizontalFixed(_ taps: FixedTaps, count: Int, firstRow: Int, worker w: Worker) {
        let plan = self.plan
        let c = plan.channels
        let pairs = plan.windowColumns / 2
        let packed = w.packed.typed(Int16.self)
        let plane = pairs * 16
        packColumns(worker: w)
        if plan.hasAlpha {
            packPremultiplied(pairs: pairs, worker: w)
        } else {
            packOpaque(pairs: pairs, worker: w)
        }

        // Filter: for each output sample, all 8 rows at once.
        let tile = w.tile.typed(SIMD8<Int16>.self)
        let maxValue = SIMD8<Int16>(repeating: Self.fixedMax)
        taps.start.withUnsafeBufferPointer { start in
            taps.pairs.withUnsafeBufferPointer { pairCount in
                taps.offset.withUnsafeBufferPointer { offset in
                    taps.coefficients.withUnsafeBufferPointer { coefficients in
                        if plan.kernels == .avx2 {
                            ck_resample_horizontal_fixed_avx2(
                                packed, plane, Int32(c), Int32(plan.outputWidth), start.baseAddress!,
                                pairCount.baseAddress!, offset.baseAddress!, coefficients.baseAddress!, Self.fixedMax,
                                w.tile.typed(Int16.self))
                            return
                        }
                        for x in 0..<plan.outputWidth {
                            let p0 = Int(start[x]), np = Int(pairCount[x])
                            let coefficient = coefficients.baseAddress! + Int(offset[x])
                            for ch in 0..<c {
                                var src = UnsafeRawPointer(packed + ch * plane + p0 * 16)
                                var a0 = SIMD4<Int32>(repeating: 1 << 13), a1 = a0
                                for q in 0..<np {
                                    let k = broadcastPair(coefficient[q])
                                    a0 &+= multiplyAddPairs(src.load(as: SIMD8<Int16>.self), k)
                                    a1 &+= multiplyAddPairs(src.load(fromByteOffset: 16, as: SIMD8<Int16>.self), k)
                                    src += 32
                                }
                                let v = SIMD8<Int32>(lowHalf: a0 &>> 14, highHalf: a1 &>> 14)
                                    .clamped(lowerBound: SIMD8(repeating: -32768), upperBound: SIMD8(repeating: 32767))
                                tile[x * c + ch] = SIMD8<Int16>(truncatingIfNeeded: v)
                                    .clamped(lowerBound: .zero, upperBound: maxValue)
                            }
                        }
                    }
                }
            }
        }

        // Transpose the tile back into ring rows.
        var rowPointers = (
            ringRow(firstRow), ringRow(firstRow + Swift.min(1, count - 1)),
            ringRow(firstRow + Swift.min(2, count - 1)), ringRow(firstRow + Swift.min(3, count - 1)),
            ringRow(firstRow + Swift.min(4, count - 1)), ringRow(firstRow + Swift.min(5, count - 1)),
            ringRow(firstRow + Swift.min(6, count - 1)), ringRow(firstRow + Swift.min(7, count - 1))
        )
        let samples = plan.rowSamples
        withUnsafeMutableBytes(of: &rowPointers) { raw in
            let dst = raw.baseAddress!.assumingMemoryBound(to: UnsafeMutableRawPointer.self)
            var s = 0
            while s + 8 <= samples {
                let t = tile + s
                transpose8x8(t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7]) { r, v in
                    if r < count { dst[r].storeBytes(of: v, toByteOffset: s * 2, as: SIMD8<Int16>.self) }
                }
                s += 8
            }
            while s < samples {
                let v = tile[s]
                for r in 0..<count { dst[r].storeBytes(of: v[r], toByteOffset: s * 2, as: Int16.self) }
                s += 1
            }
        }
    }

    /// Transposes the window's bytes of the batch's 8 rows so that `columnBytes[j·8 + r]` is byte `j` of row `r`.
    private func packColumns(worker w: Worker) {
        let plan = self.plan
        let c = plan.channels
        let validColumns = Swift.min(plan.windowStart + plan.windowColumns, plan.sourceWidth) - plan.windowStart
        let byteCount = validColumns * c
        let offset = plan.windowStart * c
        let dst = w.columnBytes.pointer
        let r = w.rows
        if plan.kernels == .avx2 {
            ck_resample_pack_columns_avx2(
                UnsafeRawPointer(r).assumingMemoryBound(to: UnsafePointer<UInt8>?.self), offset, Int32(byteCount),
                dst.assumingMemoryBound(to: UInt8.self))
            return
        }
        var j = 0
        while j + 16 <= byteCount {
            transposeRows8x16Bytes(r, byteOffset: offset + j, to: dst + j * 8)
            j += 16
        }
        while j < byteCount {
            for row in 0..<8 {
                dst.storeBytes(
                    of: r[row].load(fromByteOffset: offset + j, as: UInt8.self), toByteOffset: j * 8 + row,
                    as: UInt8.self)
            }
            j += 1
        }
    }

    /// Builds the pair-interleaved 16-bit layout from the column bytes, scaling by 128.
    private func packOpaque(pairs: Int, worker w: Worker) {
        let c = plan.channels
        let src = UnsafeRawPointer(w.columnBytes.pointer)
        let dst = w.packed.pointer
        if plan.kernels == .avx2 {
            ck_resample_pack_opaque_avx2(
                src.assumingMemoryBound(to: UInt8.self), Int32(c), Int32(pairs), dst.assumingMemoryBound(to: Int16.self)
            )
            return
        }
        for ch in 0..<c {
            var out = dst + ch * pairs * 32
            var s0 = ch
            for _ in 0..<pairs {
                let x = interleaveLow(
                    src.loadUnaligned(fromByteOffset: s0 * 8, as: SIMD16<UInt8>.self),
                    src.loadUnaligned(fromByteOffset: (s0 + c) * 8, as: SIMD16<UInt8>.self))
                out.storeBytes(of: SIMD8<Int16>(truncatingIfNeeded: x.lowHalf) &<< 7, as: SIMD8<Int16>.self)
                out.storeBytes(
                    of: SIMD8<Int16>(truncatingIfNeeded: x.highHalf) &<< 7, toByteOffset: 16, as: SIMD8<Int16>.self)
                out += 32
                s0 += 2 * c
            }
        }
    }

    /// Like ``packOpaque(pairs:worker:)``, with colour premultiplied by alpha: `round(colour · alpha · 128 / 255)`;
    /// alpha itself becomes `alpha · 128`.
    private func packPremultiplied(pairs: Int, worker w: Worker) {
        let c = plan.channels
        let src = UnsafeRawPointer(w.columnBytes.pointer)
        let dst = w.packed.pointer
        let scale = SIMD8<Float>(repeating: 128.0 / 255.0)
        for p in 0..<pairs {
            let base = 2 * p * c
            let ax = interleaveLow(
                src.loadUnaligned(fromByteOffset: (base + c - 1) * 8, as: SIMD16<UInt8>.self),
                src.loadUnaligned(fromByteOffset: (base + 2 * c - 1) * 8, as: SIMD16<UInt8>.self))
            let aLow = SIMD8<Int16>(truncatingIfNeeded: ax.lowHalf),
                aHigh = SIMD8<Int16>(truncatingIfNeeded: ax.highHalf)
            let fLow = SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: aLow)) * scale
            let fHigh = SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: aHigh)) * scale
            for ch in 0..<(c - 1) {
                let x = interleaveLow(
                    src.loadUnaligned(fromByteOffset: (base + ch) * 8, as: SIMD16<UInt8>.self),
                    src.loadUnaligned(fromByteOffset: (base + c + ch) * 8, as: SIMD16<UInt8>.self))
                let lo = SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: x.lowHalf)) * fLow
                let hi = SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: x.highHalf)) * fHigh
                let out = dst + (ch * pairs + p) * 32
                out.storeBytes(of: SIMD8<Int16>(truncatingIfNeeded: roundToInt32(lo)), as: SIMD8<Int16>.self)
                out.storeBytes(
                    of: SIMD8<Int16>(truncatingIfNeeded: roundToInt32(hi)), toByteOffset: 16, as: SIMD8<Int16>.self)
            }
            let out = dst + ((c - 1) * pairs + p) * 32
            out.storeBytes(of: aLow &<< 7, as: SIMD8<Int16>.self)
            out.storeBytes(of: aHigh &<< 7, toByteOffset: 16, as: SIMD8<Int16>.self)
        }
    }

    func verticalFixed(_ taps: FixedTaps, outputRow y: Int, into destination: UnsafeMutableRawPointer, worker w: Worker)
    {
        let plan = self.plan
        let np = Int(taps.pairs[y])
        _ = gatherRingRows(outputRow: y, evenCount: true, worker: w)
        let samples = plan.rowSamples
        let rows = w.rows
        taps.coefficients.withUnsafeBufferPointer { all in
            let coefficient = all.baseAddress! + Int(taps.offset[y])
            if plan.kernels == .avx2 {
                let rows = UnsafeRawPointer(rows).assumingMemoryBound(to: UnsafePointer<Int16>?.self)
                if !plan.hasAlpha {
                    ck_resample_vertical_fixed_avx2(
                        rows, coefficient, Int32(np), Int32(samples), 21, 1, 255, destination)
                } else {
                    ck_resample_vertical_fixed_avx2(
                        rows, coefficient, Int32(np), Int32(samples), 14, 0, Self.fixedMax, w.temp.pointer)
                    Self.unpremultiplyFixed(
                        UnsafeRawPointer(w.temp.pointer).assumingMemoryBound(to: Int16.self),
                        channels: plan.channels, width: plan.outputWidth,
                        into: destination.assumingMemoryBound(to: UInt8.self))
                }
            } else if !plan.hasAlpha {
                // Straight to 8-bit: 14 coefficient bits + 7 sample bits.
                var s = 0
                while s < samples {
                    let v = Self.verticalSum(rows, coefficient, pairs: np, sample: s, shift: 21)
                    let bytes = SIMD8<UInt8>(
                        truncatingIfNeeded: SIMD8<Int16>(truncatingIfNeeded: v)
                            .clamped(lowerBound: .zero, upperBound: SIMD8(repeating: 255)))
                    if s + 8 <= samples {
                        destination.storeBytes(of: bytes, toByteOffset: s, as: SIMD8<UInt8>.self)
                    } else {
                        for i in 0..<(samples - s) {
                            destination.storeBytes(of: bytes[i], toByteOffset: s + i, as: UInt8.self)
                        }
                    }
                    s += 8
                }
            } else {
                // Premultiplied intermediate with 7 fractional bits, then divide alpha out.
                let temp = w.temp.typed(SIMD8<Int16>.self)
                var s = 0
                while s < samples {
                    let v = Self.verticalSum(rows, coefficient, pairs: np, sample: s, shift: 14)
                    temp[s / 8] = SIMD8<Int16>(truncatingIfNeeded: v)
                        .clamped(lowerBound: .zero, upperBound: SIMD8(repeating: Self.fixedMax))
                    s += 8
                }
                Self.unpremultiplyFixed(
                    UnsafeRawPointer(temp).assumingMemoryBound(to: Int16.self), channels: plan.channels,
                    width: plan.outputWidth, into: destination.assumingMemoryBound(to: UInt8.self))
            }
        }
    }

    /// Eight samples of one output row: the sum over `pairs` pairs of 16-bit intermediate rows, weighted by the
    /// pair's coefficients, rounded, shifted right by `shift` bits and clamped to the Int16 range.
    @inline(__always)
    static func verticalSum(
        _ rows: UnsafeMutablePointer<UnsafeRawPointer>, _ coefficient: UnsafePointer<UInt32>, pairs: Int,
        sample s: Int, shift: Int32
    ) -> SIMD8<Int32> {
        var a0 = SIMD4<Int32>(repeating: 1 << (shift - 1)), a1 = a0
        for q in 0..<pairs {
            let k = broadcastPair(coefficient[q])
            let ra = rows[2 * q].load(fromByteOffset: s * 2, as: SIMD8<Int16>.self)
            let rb = rows[2 * q + 1].load(fromByteOffset: s * 2, as: SIMD8<Int16>.self)
            a0 &+= multiplyAddPairs(interleaveLow(ra, rb), k)
            a1 &+= multiplyAddPairs(interleaveHigh(ra, rb), k)
        }
        return SIMD8<Int32>(lowHalf: a0 &>> shift, highHalf: a1 &>> shift)
            .clamped(lowerBound: SIMD8(repeating: -32768), upperBound: SIMD8(repeating: 32767))
    }

    /// Divides premultiplied 7-fractional-bit samples by their alpha, clamping colour to alpha first, into 8-bit
    /// straight-alpha pixels. Fully transparent pixels become transparent black.
    static func unpremultiplyFixed(
        _ src: UnsafePointer<Int16>, channels c: Int, width: Int, into dst: UnsafeMutablePointer<UInt8>
    ) {
        for x in 0..<width {
            let p = src + x * c, d = dst + x * c
            let alpha = Int32(p[c - 1])
            if alpha <= 0 {
                for ch in 0..<c { d[ch] = 0 }
                continue
            }
            let reciprocal = 255 / Float(alpha)
            for ch in 0..<(c - 1) {
                let v = Float(Swift.min(Int32(p[ch]), alpha)) * reciprocal + 0.5
                d[ch] = UInt8(Swift.min(v, 255))
            }
            d[c - 1] = UInt8((alpha + 64) >> 7)
        }
    }
}

/// Rounds to the nearest integer (ties to even) for `|v| < 2²²`, with one add and one integer subtract.
@inline(__always)
func roundToInt32(_ v: SIMD8<Float>) -> SIMD8<Int32> {
    unsafeBitCast(v + 12_582_912.0, to: SIMD8<Int32>.self) &- 0x4B40_0000
}
