#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Felzenszwalb's HOG features of a picture as dlib's `extract_fhog_features` computes them: per cell of
/// `cellSize` pixels, 18 contrast-sensitive and 9 insensitive orientation energies and 4 texture measures, each
/// plane padded with zeros so a `filterRows × filterColumns` filter can be centred on every cell.
///
/// The arithmetic follows dlib's (its SIMD loop's order of operations included), so the features, and the
/// detections made from them, are dlib's.
package struct HOGFeatures {
    /// Rows and columns of each plane (cells plus the zero padding).
    package let rows: Int, columns: Int
    /// 31 planes, `rows × columns` each, plane after plane.
    package var values: [Float]

    /// The features of `image`.
    package init(_ image: RGBImage, cellSize: Int, filterRows: Int, filterColumns: Int) {
        let cellRows = Int(Float(image.height) / Float(cellSize) + 0.5)
        let cellColumns = Int(Float(image.width) / Float(cellSize) + 0.5)
        let hogRows = Swift.max(cellRows - 2, 0), hogColumns = Swift.max(cellColumns - 2, 0)
        guard cellRows > 0, cellColumns > 0, hogRows > 0, hogColumns > 0 else {
            rows = 0
            columns = 0
            values = []
            return
        }
        rows = hogRows + filterRows - 1
        columns = hogColumns + filterColumns - 1
        var values = [Float](repeating: 0, count: HOGFaceModel.planeCount * rows * columns)
        let histColumns = cellColumns + 2
        var hist = [Float](repeating: 0, count: (cellRows + 2) * histColumns * 18)
        var norm = [Float](repeating: 0, count: cellRows * cellColumns)
        let visibleRows = Swift.min(cellRows * cellSize, image.height) - 1
        let visibleColumns = Swift.min(cellColumns * cellSize, image.width) - 1
        let width = image.width, cell = Float(cellSize)

        // The picture as three planes, so eight neighbouring gradients load as vectors.
        let pixelCount = image.width * image.height
        var planes = [UInt8](repeating: 0, count: 3 * pixelCount)
        image.pixels.withUnsafeBufferPointer { img in
            planes.withUnsafeMutableBufferPointer { planes in
                for i in 0..<pixelCount {
                    planes[i] = img[3 * i]
                    planes[pixelCount + i] = img[3 * i + 1]
                    planes[2 * pixelCount + i] = img[3 * i + 2]
                }
            }
        }

        image.pixels.withUnsafeBufferPointer { img in
            planes.withUnsafeBufferPointer { planes in
                hist.withUnsafeMutableBufferPointer { hist in
                    let base = UnsafeRawPointer(planes.baseAddress!)
                    for y in 1..<Swift.max(visibleRows, 1) {
                        let yp = Float((Double(y) + 0.5) / Double(cellSize) - 0.5)
                        let iyp = Int(yp.rounded(.down))
                        let vy0 = yp - Float(iyp), vy1 = 1 - vy0
                        let up = (y - 1) * width * 3, here = y * width * 3, down = (y + 1) * width * 3
                        let histRow0 = (iyp + 1) * histColumns * 18, histRow1 = (iyp + 2) * histColumns * 18

                        // Eight samples of one channel plane from column `x` of row `row`.
                        @inline(__always) func load(_ plane: Int, _ row: Int, _ x: Int) -> SIMD8<Int32> {
                            SIMD8<Int32>(
                                truncatingIfNeeded: (base + (plane * pixelCount + row * width + x))
                                    .loadUnaligned(as: SIMD8<UInt8>.self))
                        }

                        var x = 1
                        // dlib's 8-wide loop: x from 1 while x < visibleColumns - 7, the channel with the strongest
                        // gradient chosen as its SIMD code does (ties go to the later channel).
                        while x < visibleColumns - 7 {
                            var gx = load(0, y, x + 1) &- load(0, y, x - 1), gy = load(0, y + 1, x) &- load(0, y - 1, x)
                            var len = gx &* gx &+ gy &* gy
                            for c in 1..<3 {
                                let cx = load(c, y, x + 1) &- load(c, y, x - 1),
                                    cy = load(c, y + 1, x) &- load(c, y - 1, x)
                                let clen = cx &* cx &+ cy &* cy
                                let keep = len .> clen
                                gx.replace(with: cx, where: .!keep)
                                gy.replace(with: cy, where: .!keep)
                                len.replace(with: clen, where: .!keep)
                            }
                            let fx = SIMD8<Float>(gx), fy = SIMD8<Float>(gy)
                            let bestO = orientations(fx, fy)
                            let magnitude = SIMD8<Float>(len).squareRoot()
                            for k in 0..<8 {
                                let o = Int(bestO[k]), v = magnitude[k]
                                let xp = (Float(x + k) + 0.5) / cell + 0.5
                                let ixp = Int(xp)
                                let vx0 = xp - Float(ixp), vx1 = 1 - vx0
                                let vx1v = vx1 * v, vx0v = vx0 * v
                                hist[histRow0 + ixp * 18 + o] += vy1 * vx1v
                                hist[histRow1 + ixp * 18 + o] += vy0 * vx1v
                                hist[histRow0 + (ixp + 1) * 18 + o] += vy1 * vx0v
                                hist[histRow1 + (ixp + 1) * 18 + o] += vy0 * vx0v
                            }
                            x += 8
                        }
                        // dlib's loop over the last columns: ties go to the earlier channel.
                        while x < visibleColumns {
                            var gxi = 0, gyi = 0, leni = -1
                            for c in 0..<3 {
                                let dx = Int(img[here + (x + 1) * 3 + c]) - Int(img[here + (x - 1) * 3 + c])
                                let dy = Int(img[down + x * 3 + c]) - Int(img[up + x * 3 + c])
                                let l = dx * dx + dy * dy
                                if l > leni { (gxi, gyi, leni) = (dx, dy, l) }
                            }
                            let o = orientation(Float(gxi), Float(gyi))
                            let v = Float(leni).squareRoot()
                            let xp = Float((Double(x) + 0.5) / Double(cellSize) - 0.5)
                            let ixp = Int(xp.rounded(.down))
                            let vx0 = xp - Float(ixp), vx1 = 1 - vx0
                            hist[histRow0 + (ixp + 1) * 18 + o] += vy1 * vx1 * v
                            hist[histRow1 + (ixp + 1) * 18 + o] += vy0 * vx1 * v
                            hist[histRow0 + (ixp + 2) * 18 + o] += vy1 * vx0 * v
                            hist[histRow1 + (ixp + 2) * 18 + o] += vy0 * vx0 * v
                            x += 1
                        }
                    }
                }
            }
        }

        // The energy of each cell, summed over orientations.
        hist.withUnsafeBufferPointer { hist in
            for r in 0..<cellRows {
                for c in 0..<cellColumns {
                    let h = ((r + 1) * histColumns + c + 1) * 18
                    var sum: Float = 0
                    for o in 0..<9 {
                        let e = hist[h + o] + hist[h + o + 9]
                        sum += e * e
                    }
                    norm[r * cellColumns + c] = sum
                }
            }
        }

        let rowOffset = (filterRows - 1) / 2, columnOffset = (filterColumns - 1) / 2
        let planeSize = rows * columns, stride = columns
        hist.withUnsafeBufferPointer { hist in
            norm.withUnsafeBufferPointer { n in
                values.withUnsafeMutableBufferPointer { out in
                    @inline(__always) func sum(_ v: SIMD4<Float>) -> Float { (v[0] + v[2]) + (v[1] + v[3]) }
                    for y in 0..<hogRows {
                        let yy = y + rowOffset
                        for x in 0..<hogColumns {
                            @inline(__always) func at(_ r: Int, _ c: Int) -> Float { n[r * cellColumns + c] }
                            let z1 = SIMD4<Float>(at(y + 1, x + 1), at(y, x + 1), at(y + 1, x), at(y, x))
                            let z2 = SIMD4<Float>(at(y + 1, x + 2), at(y, x + 2), at(y + 1, x + 1), at(y, x + 1))
                            let z3 = SIMD4<Float>(at(y + 2, x + 1), at(y + 1, x + 1), at(y + 2, x), at(y + 1, x))
                            let z4 = SIMD4<Float>(
                                at(y + 2, x + 2), at(y + 1, x + 2), at(y + 2, x + 1), at(y + 1, x + 1))
                            var s = z1 + z2
                            s += z3
                            s += z4
                            s += SIMD4(repeating: 0.0001)
                            let nn =
                                Float(0.2)
                                * SIMD4(s[0].squareRoot(), s[1].squareRoot(), s[2].squareRoot(), s[3].squareRoot())
                            let scale = Float(0.1) / nn
                            let h = ((y + 2) * histColumns + x + 2) * 18
                            let o = yy * stride + x + columnOffset
                            var t = SIMD4<Float>(repeating: 0)
                            for b in Swift.stride(from: 0, to: 18, by: 3) {
                                let h0 = pointwiseMin(SIMD4(repeating: hist[h + b]), nn) * scale
                                let h1 = pointwiseMin(SIMD4(repeating: hist[h + b + 1]), nn) * scale
                                let h2 = pointwiseMin(SIMD4(repeating: hist[h + b + 2]), nn) * scale
                                out[b * planeSize + o] = sum(h0)
                                out[(b + 1) * planeSize + o] = sum(h1)
                                out[(b + 2) * planeSize + o] = sum(h2)
                                t += h0 + h1 + h2
                            }
                            t *= Float(2 * 0.2357)
                            for b in 0..<9 {
                                let e = pointwiseMin(SIMD4(repeating: hist[h + b] + hist[h + b + 9]), nn) * scale
                                out[(18 + b) * planeSize + o] = sum(e)
                            }
                            for k in 0..<4 { out[(27 + k) * planeSize + o] = t[k] }
                        }
                    }
                }
            }
        }
        self.values = values
    }
}

/// The nearest of 18 orientations (20° apart, signed) to the gradient `(gx, gy)`, by dlib's comparisons and its unit
/// vectors (to four places as dlib writes them): the first of `dot₀, −dot₀, dot₁, −dot₁ …` to exceed all before it.
@inline(__always)
private func orientation(_ gx: Float, _ gy: Float) -> Int {
    Int(orientations(SIMD8(repeating: gx), SIMD8(repeating: gy))[0])
}

/// ``orientation(_:_:)`` of eight gradients at once, as dlib's 8-wide loop computes it.
@inline(__always)
private func orientations(_ fx: SIMD8<Float>, _ fy: SIMD8<Float>) -> SIMD8<Int32> {
    var best = SIMD8<Float>(repeating: 0), index = SIMD8<Int32>(repeating: 0)
    consider(0, 1.0000, 0.0000, fx, fy, &best, &index)
    consider(1, 0.9397, 0.3420, fx, fy, &best, &index)
    consider(2, 0.7660, 0.6428, fx, fy, &best, &index)
    consider(3, 0.500, 0.8660, fx, fy, &best, &index)
    consider(4, 0.1736, 0.9848, fx, fy, &best, &index)
    consider(5, -0.1736, 0.9848, fx, fy, &best, &index)
    consider(6, -0.5000, 0.8660, fx, fy, &best, &index)
    consider(7, -0.7660, 0.6428, fx, fy, &best, &index)
    consider(8, -0.9397, 0.3420, fx, fy, &best, &index)
    return index
}

/// One of dlib's nine directions, `(dx, dy)`, against the best so far, then its opposite.
@inline(__always)
private func consider(
    _ o: Int32, _ dx: Float, _ dy: Float, _ fx: SIMD8<Float>, _ fy: SIMD8<Float>, _ best: inout SIMD8<Float>,
    _ index: inout SIMD8<Int32>
) {
    var dot = fx * dx + fy * dy
    var better = dot .> best
    best.replace(with: dot, where: better)
    index.replace(with: o, where: better)
    dot = -dot
    // swift-format-ignore: NoAssignmentInExpressions
    better = dot .> best
    best.replace(with: dot, where: better)
    index.replace(with: o + 9, where: better)
}
