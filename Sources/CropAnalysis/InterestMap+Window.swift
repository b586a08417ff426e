import CropGeometry
import CropPixels

extension InterestMap {
    /// The window of `size` (in the analysed picture's pixels, clamped to it) placed where it holds the most
    /// interest, and the share of the picture's interest it holds (0…1).
    ///
    /// Positions are tried every map cell on each free axis (and flush with the far edge); the interest inside a
    /// window is exact for the map, cells cut by its edges counting by the part inside. Ties, and a picture with no
    /// interest at all, go to the position nearest the centre, so a flat picture is cropped like `.center`.
    public func bestWindow(_ size: Size) -> (rect: Rect, share: Double) {
        let w = Swift.min(Swift.max(size.width, 0), sourceSize.width)
        let h = Swift.min(Swift.max(size.height, 0), sourceSize.height)
        let table = SummedArea(self)
        let total = table.total
        let sx = sourceSize.width / Double(width), sy = sourceSize.height / Double(height)
        func positions(free: Double, step: Double) -> [Double] {
            guard free > 1e-9 else { return [0] }
            var list = stride(from: 0.0, to: free, by: step).map { $0 }
            list.append(free)
            return list
        }
        let xs = positions(free: sourceSize.width - w, step: sx)
        let ys = positions(free: sourceSize.height - h, step: sy)
        let centre = ((sourceSize.width - w) / 2, (sourceSize.height - h) / 2)
        var best = (score: -1.0, distance: Double.infinity, x: 0.0, y: 0.0)
        for y in ys {
            for x in xs {
                let score = table.integral(x0: x / sx, y0: y / sy, x1: (x + w) / sx, y1: (y + h) / sy)
                let distance = (x - centre.0) * (x - centre.0) + (y - centre.1) * (y - centre.1)
                let tolerance = 1e-9 * Swift.max(total, 1)
                if score > best.score + tolerance || (abs(score - best.score) <= tolerance && distance < best.distance)
                {
                    best = (score, distance, x, y)
                }
            }
        }
        let share = total > 0 ? Swift.min(1, Swift.max(0, best.score / total)) : 0
        return (Rect(x: best.x, y: best.y, width: w, height: h), share)
    }
}

/// A summed-area table of an interest map, read as a piecewise-constant density over cells: `integral` is exact for
/// any rectangle in cell coordinates (cells cut by its edges count by the part inside).
struct SummedArea {
    let width: Int, height: Int
    /// (width + 1) × (height + 1) cumulative sums; entry (i, j) is the sum of cells x < i, y < j.
    let sums: [Double]

    init(_ map: InterestMap) {
        width = map.width
        height = map.height
        var sums = [Double](repeating: 0, count: (width + 1) * (height + 1))
        for y in 0..<height {
            var row = 0.0
            for x in 0..<width {
                row += Double(map[x: x, y: y])
                sums[(y + 1) * (width + 1) + x + 1] = sums[y * (width + 1) + x + 1] + row
            }
        }
        self.sums = sums
    }

    var total: Double { sums[(width + 1) * (height + 1) - 1] }

    /// The cumulative interest left of `u` and above `v` (cell units): bilinear between the table's corners, which
    /// is exact for a density constant in each cell.
    func cumulative(_ u: Double, _ v: Double) -> Double {
        let u = Swift.min(Swift.max(u, 0), Double(width)), v = Swift.min(Swift.max(v, 0), Double(height))
        let i = Swift.min(Int(u), width - 1), j = Swift.min(Int(v), height - 1)
        let fu = u - Double(i), fv = v - Double(j)
        let row = width + 1
        let s00 = sums[j * row + i], s10 = sums[j * row + i + 1]
        let s01 = sums[(j + 1) * row + i], s11 = sums[(j + 1) * row + i + 1]
        return s00 * (1 - fu) * (1 - fv) + s10 * fu * (1 - fv) + s01 * (1 - fu) * fv + s11 * fu * fv
    }

    /// The interest inside [x0, x1) × [y0, y1), in cell units.
    func integral(x0: Double, y0: Double, x1: Double, y1: Double) -> Double {
        cumulative(x1, y1) - cumulative(x0, y1) - cumulative(x1, y0) + cumulative(x0, y0)
    }
}
