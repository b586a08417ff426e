import CropGeometry

extension PixelBuffer {
    /// The displayed picture of an image whose pixels are stored with `orientation`: a lossless permutation of the
    /// pixels that agrees with `Orientation.transform(storedSize:)` (the stored pixel centred at `p` lands on the
    /// displayed pixel centred at `transform(p)`).
    ///
    /// Mirrors and half turns copy rows; the transposing orientations (5–8) go through a blocked transpose, 64×64
    /// pixels at a time, so that both the reads and the writes stay in cache.
    ///
    /// - Complexity: O(pixels), on all cores.
    public func applyingOrientation(_ orientation: Orientation, maxThreads: Int = 0) -> PixelBuffer {
        if orientation == .up { return self }
        let size = orientation.displayedSize(of: PixelSize(validWidth: width, height: height))
        var out = PixelBuffer(derivedWidth: size.width, height: size.height, format: format)
        let threads = Parallel.threads(maxThreads)
        withUnsafeRows { src in
            out.withUnsafeMutableRows { dst in
                let map = OrientationMap(orientation, width: width, height: height)
                let bands = Parallel.chunks(0..<((size.height + 63) / 64), parts: threads)
                Parallel.forEach(bands.count) { b in
                    let rows = (bands[b].lowerBound * 64)..<Swift.min(bands[b].upperBound * 64, size.height)
                    map.permute(src, originX: 0, originY: 0, into: dst, rows: rows, destinationFirstRow: 0)
                }
            }
        }
        return out
    }
}

/// The integer form of an orientation's inverse on pixel indices: displayed pixel `(X, Y)` shows stored pixel
/// `(ax·X + cx·Y + tx, bx·X + dy·Y + ty)` of a `width × height` region.
struct OrientationMap {
    let swaps: Bool
    let ax: Int, bx: Int, cx: Int, dy: Int, tx: Int, ty: Int

    init(_ orientation: Orientation, width: Int, height: Int) {
        let inverse = orientation.inverseTransform(storedSize: Size(width: width, height: height))
        swaps = orientation.swapsDimensions
        ax = Int(inverse.a.rounded())
        bx = Int(inverse.b.rounded())
        cx = Int(inverse.c.rounded())
        dy = Int(inverse.d.rounded())
        // The centre of displayed pixel (0, 0) maps to the centre of stored pixel (tx, ty).
        let origin = inverse.apply(to: Point(x: 0.5, y: 0.5))
        tx = Int((origin.x - 0.5).rounded())
        ty = Int((origin.y - 0.5).rounded())
    }

    /// Writes displayed rows `rows` of the region whose top-left stored pixel is `(originX, originY)` in `src` to
    /// `dst`, displayed row `Y` going to `dst` row `Y − destinationFirstRow`.
    func permute(
        _ src: UnsafePixelRows, originX: Int, originY: Int, into dst: UnsafePixelRows, rows: Range<Int>,
        destinationFirstRow: Int
    ) {
        switch src.format.bytesPerPixel {
        case 1: permute(UInt8.self, src, originX, originY, dst, rows, destinationFirstRow)
        case 2: permute(UInt16.self, src, originX, originY, dst, rows, destinationFirstRow)
        case 3: permute(Pixel3.self, src, originX, originY, dst, rows, destinationFirstRow)
        case 4: permute(UInt32.self, src, originX, originY, dst, rows, destinationFirstRow)
        case 6: permute(Pixel6.self, src, originX, originY, dst, rows, destinationFirstRow)
        default: permute(UInt64.self, src, originX, originY, dst, rows, destinationFirstRow)
        }
    }

    private struct Pixel3 { var a, b, c: UInt8 }
    private struct Pixel6 { var a, b, c: UInt16 }

    private func permute<T>(
        _: T.Type, _ src: UnsafePixelRows, _ originX: Int, _ originY: Int, _ dst: UnsafePixelRows,
        _ rows: Range<Int>, _ firstRow: Int
    ) {
        let width = dst.width
        let bpp = MemoryLayout<T>.size
        let source = { (x: Int, y: Int) -> UnsafeMutablePointer<T> in
            (src.row(originY + y) + (originX + x) * bpp).assumingMemoryBound(to: T.self)
        }
        if !swaps {
            // Row Y shows stored row dy·Y + ty, forwards (ax = 1) or backwards (ax = −1).
            for y in rows {
                let s = source(0, dy * y + ty)
                let d = dst.row(y - firstRow).assumingMemoryBound(to: T.self)
                if ax == 1 {
                    d.update(from: s + tx, count: width)
                } else {
                    for x in 0..<width { d[x] = s[tx - x] }
                }
            }
            return
        }
        // Row Y shows stored column cx·Y + tx, read down (bx = 1) or up (bx = −1): transpose in 64×64 tiles.
        let tile = 64
        withUnsafeTemporaryAllocation(of: UnsafeMutablePointer<T>.self, capacity: tile) { sourceRows in
            var y0 = rows.lowerBound
            while y0 < rows.upperBound {
                let y1 = Swift.min(y0 + tile, rows.upperBound)
                var x0 = 0
                while x0 < width {
                    let x1 = Swift.min(x0 + tile, width)
                    for x in x0..<x1 { sourceRows[x - x0] = source(0, bx * x + ty) }
                    for y in y0..<y1 {
                        let sx = cx * y + tx
                        let d = dst.row(y - firstRow).assumingMemoryBound(to: T.self)
                        for x in x0..<x1 { d[x] = sourceRows[x - x0][sx] }
                    }
                    x0 = x1
                }
                y0 = y1
            }
        }
    }
}
