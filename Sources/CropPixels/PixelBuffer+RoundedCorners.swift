#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension PixelBuffer {
    /// The image clipped to a rounded rectangle, with anti-aliased edges.
    ///
    /// The rectangle is the image inset by `border` pixels on every side (the border becomes fully transparent);
    /// its corners are quarter circles of `radius` pixels, clamped to half the rectangle's shorter side, so a
    /// square with `radius ≥ side / 2` becomes a circle. Each pixel's alpha is multiplied by the exact fraction of
    /// its area inside the shape (computed analytically, not sampled). Alpha is added if the image has none; pixels
    /// that end up fully transparent become transparent black.
    ///
    /// - Throws: ``PixelError/invalidArgument(name:reason:)`` for a negative or non-number radius, or a border that
    ///   leaves no pixel.
    /// - Complexity: O(pixels).
    public func roundedCorners(radius: Double, border: Int = 0) throws(PixelError) -> PixelBuffer {
        guard radius >= 0, !radius.isNaN else {
            throw .invalidArgument(name: "radius", reason: "\(radius) must be a number ≥ 0")
        }
        guard border >= 0, 2 * border < Swift.min(width, height) else {
            throw .invalidArgument(name: "border", reason: "\(border) leaves no pixel of a \(width)×\(height) image")
        }
        var out = addingAlpha()
        let shape = RoundedRectCoverage(
            minX: Double(border), minY: Double(border), maxX: Double(width - border), maxY: Double(height - border),
            radius: radius)
        let c = out.channelCount
        let maxValue = out.format.depth.maxValue
        let w = width, h = height
        out.withUnsafeMutableRows { rows in
            for y in 0..<h {
                for x in 0..<w {
                    let coverage = shape.coverage(x: x, y: y)
                    if coverage >= 1 { continue }
                    let a = (Double(rows.sample(x: x, y: y, channel: c - 1)) * coverage).rounded()
                    if a <= 0 {
                        for ch in 0..<c { rows.setSample(0, x: x, y: y, channel: ch) }
                    } else {
                        rows.setSample(Swift.min(Int(a), maxValue), x: x, y: y, channel: c - 1)
                    }
                }
            }
        }
        return out
    }

    /// The largest centred square of the image, clipped to a circle (anti-aliased, alpha added if needed), inside a
    /// transparent border of `border` pixels.
    ///
    /// - Throws: ``PixelError/invalidArgument(name:reason:)`` when the border leaves no pixel.
    /// - Complexity: O(pixels of the square).
    public func circleCropped(border: Int = 0) throws(PixelError) -> PixelBuffer {
        let side = Swift.min(width, height)
        let square = try cropped(x: (width - side) / 2, y: (height - side) / 2, width: side, height: side)
        return try square.roundedCorners(radius: .infinity, border: border)
    }
}

/// The area of each pixel covered by a rounded rectangle.
struct RoundedRectCoverage {
    let minX: Double, minY: Double, maxX: Double, maxY: Double
    /// The corner radius, clamped to half the shorter side.
    let radius: Double

    init(minX: Double, minY: Double, maxX: Double, maxY: Double, radius: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
        self.radius = Swift.min(radius, (maxX - minX) / 2, (maxY - minY) / 2)
    }

    /// The fraction of pixel `[x, x+1] × [y, y+1]` inside the shape, 0…1.
    func coverage(x: Int, y: Int) -> Double {
        let x0 = Swift.max(Double(x), minX), x1 = Swift.min(Double(x + 1), maxX)
        let y0 = Swift.max(Double(y), minY), y1 = Swift.min(Double(y + 1), maxY)
        guard x1 > x0, y1 > y0 else { return 0 }
        let r = radius
        let inStraightPart = (x0 >= minX + r && x1 <= maxX - r) || (y0 >= minY + r && y1 <= maxY - r)
        guard r > 0, !inStraightPart else { return (x1 - x0) * (y1 - y0) }
        // Split the pixel at the lines where the corner arcs start: each piece is either in a corner zone (inside
        // the quarter disc there) or in the straight part (fully inside).
        let xs = SIMD4(x0, Swift.min(Swift.max(minX + r, x0), x1), Swift.min(Swift.max(maxX - r, x0), x1), x1)
        let ys = SIMD4(y0, Swift.min(Swift.max(minY + r, y0), y1), Swift.min(Swift.max(maxY - r, y0), y1), y1)
        var area = 0.0
        for i in 0..<3 where xs[i + 1] > xs[i] {
            for j in 0..<3 where ys[j + 1] > ys[j] {
                let cornerX: Double? = i == 0 ? minX + r : (i == 2 ? maxX - r : nil)
                let cornerY: Double? = j == 0 ? minY + r : (j == 2 ? maxY - r : nil)
                if let cx = cornerX, let cy = cornerY {
                    area += Self.discArea(
                        radius: r, u: (abs(xs[i] - cx), abs(xs[i + 1] - cx)), v: (abs(ys[j] - cy), abs(ys[j + 1] - cy)))
                } else {
                    area += (xs[i + 1] - xs[i]) * (ys[j + 1] - ys[j])
                }
            }
        }
        return Swift.min(area, 1)
    }

    /// The area of the disc of radius `r` centred at the origin inside `[u0, u1] × [v0, v1]`, a rectangle in one
    /// quadrant given by the distances of its edges from the centre lines (in either order).
    static func discArea(radius r: Double, u: (Double, Double), v: (Double, Double)) -> Double {
        let u0 = Swift.min(u.0, u.1), u1 = Swift.max(u.0, u.1)
        let v0 = Swift.min(v.0, v.1), v1 = Swift.max(v.0, v.1)
        // Along u, the disc's height above v0 is clamped to the rectangle: full up to ua, the arc up to ub, then 0.
        let ua = (Swift.max(0, r * r - v1 * v1)).squareRoot()
        let ub = (Swift.max(0, r * r - v0 * v0)).squareRoot()
        var area = (v1 - v0) * Swift.max(0, Swift.min(u1, ua) - u0)
        let a = Swift.max(u0, ua), b = Swift.min(u1, ub)
        if b > a {
            // ∫ √(r² − t²) dt = (t √(r² − t²) + r² asin(t / r)) / 2
            func g(_ t: Double) -> Double {
                let s = Swift.min(t / r, 1)
                return (t * Swift.max(0, r * r - t * t).squareRoot() + r * r * asin(s)) / 2
            }
            area += g(b) - g(a) - v0 * (b - a)
        }
        return area
    }
}
