// The floating-point passes, for 16-bit samples and for linear light.
//
// The batch layout is the fixed-point one without the pairing: for each channel and column, the 8 rows' samples as
// one `SIMD8<Float>`. Samples are normalised to 0…1 (decoded to linear light when asked) and premultiplied by
// alpha on the way in; the vertical pass divides alpha out, clamps colour to alpha and encodes.

extension ResampleEngine {
    func horizontalFloat(_ taps: FloatTaps, count: Int, firstRow: Int, worker w: Worker) {
        let plan = self.plan
        let c = plan.channels
        let columns = plan.windowColumns
        let packed = w.packed.typed(SIMD8<Float>.self)
        packFloat(worker: w)

        let tile = w.tile.typed(SIMD8<Float>.self)
        taps.start.withUnsafeBufferPointer { start in
            taps.count.withUnsafeBufferPointer { tapCount in
                taps.offset.withUnsafeBufferPointer { offset in
                    taps.coefficients.withUnsafeBufferPointer { coefficients in
                        for x in 0..<plan.outputWidth {
                            let x0 = Int(start[x]) - plan.windowStart, n = Int(tapCount[x])
                            let k = coefficients.baseAddress! + Int(offset[x])
                            for ch in 0..<c {
                                let src = packed + ch * columns + x0
                                var acc = SIMD8<Float>()
                                for i in 0..<n { acc += src[i] * k[i] }
                                tile[x * c + ch] = acc
                            }
                        }
                    }
                }
            }
        }
        let samples = plan.rowSamples
        for r in 0..<count {
            let dst = ringRow(firstRow + r).assumingMemoryBound(to: Float.self)
            for s in 0..<samples { dst[s] = tile[s][r] }
        }
    }

    /// Normalises, linearises and premultiplies the batch into `packed[channel · columns + column][row]`.
    ///
    /// The 8 rows' samples are transposed 16 bytes at a time (16 samples of 8 bits, 8 of 16 bits), so that each
    /// sample's 8 rows convert as one vector; the samples past the last whole group are gathered one by one. Colour is
    /// then multiplied by its pixel's alpha. Every value is the same float operation as a sample-by-sample loop
    /// would do.
    private func packFloat(worker w: Worker) {
        let plan = self.plan
        let c = plan.channels
        let columns = plan.windowColumns
        let packed = w.packed.typed(SIMD8<Float>.self)
        let colorChannels = plan.hasAlpha ? c - 1 : c
        let sixteen = plan.format.depth == .sixteen
        let table: [Float] = plan.linear ? (sixteen ? SRGB.decode16 : SRGB.decode8) : []
        let scale: Float = sixteen ? 1 / 65535 : 1 / 255
        let rows = w.rows
        let sampleCount = columns * c
        let first = plan.windowStart * c
        table.withUnsafeBufferPointer { decode in
            let linear = !decode.isEmpty
            // Sample j of the window (pixel j / c, channel j % c) for the 8 rows, as raw values.
            @inline(__always)
            func store(_ raw: SIMD8<Int32>, pixel xi: Int, channel ch: Int) {
                if linear && ch < colorChannels {
                    packed[ch * columns + xi] = SIMD8(
                        decode[Int(raw[0])], decode[Int(raw[1])], decode[Int(raw[2])], decode[Int(raw[3])],
                        decode[Int(raw[4])], decode[Int(raw[5])], decode[Int(raw[6])], decode[Int(raw[7])])
                } else {
                    packed[ch * columns + xi] = SIMD8<Float>(raw) * scale
                }
            }
            var j = 0, xi = 0, ch = 0
            withUnsafeTemporaryAllocation(of: SIMD8<UInt8>.self, capacity: 16) { group in
                let bytes = UnsafeMutableRawPointer(group.baseAddress!)
                if !sixteen {
                    while j + 16 <= sampleCount {
                        transposeRows8x16Bytes(rows, byteOffset: first + j, to: bytes)
                        for t in 0..<16 {
                            store(SIMD8<Int32>(truncatingIfNeeded: group[t]), pixel: xi, channel: ch)
                            ch += 1
                            if ch == c {
                                ch = 0
                                xi += 1
                            }
                        }
                        j += 16
                    }
                } else {
                    while j + 8 <= sampleCount {
                        transposeRows8x8(rows, byteOffset: (first + j) * 2) { t, v in
                            // Samples t of the group, rows 0…7 (unsigned).
                            let raw = SIMD8<Int32>(truncatingIfNeeded: unsafeBitCast(v, to: SIMD8<UInt16>.self))
                            store(raw, pixel: (j + t) / c, channel: (j + t) % c)
                        }
                        j += 8
                    }
                    xi = j / c
                    ch = j % c
                }
            }
            while j < sampleCount {
                var raw = SIMD8<Int32>()
                for r in 0..<8 {
                    raw[r] =
                        sixteen
                        ? Int32(rows[r].load(fromByteOffset: (first + j) * 2, as: UInt16.self))
                        : Int32(rows[r].load(fromByteOffset: first + j, as: UInt8.self))
                }
                store(raw, pixel: xi, channel: ch)
                ch += 1
                if ch == c {
                    ch = 0
                    xi += 1
                }
                j += 1
            }
        }
        if plan.hasAlpha {
            for xi in 0..<columns {
                let a = packed[(c - 1) * columns + xi]
                for ch in 0..<colorChannels { packed[ch * columns + xi] *= a }
            }
        }
    }

    func verticalFloat(_ taps: FloatTaps, outputRow y: Int, into destination: UnsafeMutableRawPointer, worker w: Worker)
    {
        let plan = self.plan
        let n = gatherRingRows(outputRow: y, evenCount: false, worker: w)
        let samples = plan.rowSamples
        let rows = w.rows
        let temp = w.temp.typed(SIMD8<Float>.self)
        taps.coefficients.withUnsafeBufferPointer { all in
            let k = all.baseAddress! + Int(taps.offset[y])
            var s = 0
            while s < samples {
                var acc = SIMD8<Float>()
                for i in 0..<n { acc += rows[i].load(fromByteOffset: s * 4, as: SIMD8<Float>.self) * k[i] }
                temp[s / 8] = acc
                s += 8
            }
        }
        encodeFloatRow(UnsafeRawPointer(temp).assumingMemoryBound(to: Float.self), into: destination)
    }

    /// Converts one row of premultiplied, normalised (and possibly linear) samples to the plan's format.
    private func encodeFloatRow(_ src: UnsafePointer<Float>, into destination: UnsafeMutableRawPointer) {
        let plan = self.plan
        let c = plan.channels
        let alpha = plan.hasAlpha
        let colorChannels = alpha ? c - 1 : c
        let sixteen = plan.format.depth == .sixteen
        let maxValue: Float = sixteen ? 65535 : 255
        SRGB.encode16.withUnsafeBufferPointer { encode in
            let table = encode.baseAddress!
            for x in 0..<plan.outputWidth {
                let p = src + x * c
                var a: Float = 1
                if alpha {
                    a = Swift.min(Swift.max(p[c - 1], 0), 1)
                    let stored = (a * maxValue + 0.5).rounded(.down)
                    if sixteen {
                        destination.storeBytes(of: UInt16(stored), toByteOffset: (x * c + c - 1) * 2, as: UInt16.self)
                    } else {
                        destination.storeBytes(of: UInt8(stored), toByteOffset: x * c + c - 1, as: UInt8.self)
                    }
                }
                for ch in 0..<colorChannels {
                    var v: Float = 0
                    if a > 0 { v = Swift.min(Swift.max(p[ch], 0), a) / a }
                    if plan.linear {
                        let e = SRGB.encode(v, table: table)
                        if sixteen {
                            destination.storeBytes(of: e, toByteOffset: (x * c + ch) * 2, as: UInt16.self)
                        } else {
                            destination.storeBytes(
                                of: UInt8((UInt32(e) * 255 + 32767) / 65535), toByteOffset: x * c + ch, as: UInt8.self)
                        }
                    } else {
                        let stored = (Swift.min(v, 1) * maxValue + 0.5).rounded(.down)
                        if sixteen {
                            destination.storeBytes(of: UInt16(stored), toByteOffset: (x * c + ch) * 2, as: UInt16.self)
                        } else {
                            destination.storeBytes(of: UInt8(stored), toByteOffset: x * c + ch, as: UInt8.self)
                        }
                    }
                }
            }
        }
    }
}
