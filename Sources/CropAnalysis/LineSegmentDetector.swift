import CropGeometry
import CropPixels

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Finds the straight edges of a picture, after the LSD line segment detector (Grompone von Gioi et al., 2010):
/// pixels whose edge runs the same way are grown into regions, and each region long and dense enough becomes a
/// ``LineSegment``.
///
/// 1. The gradient of each 2×2 block gives an edge direction (the *level line*, perpendicular to the gradient) and a
///    strength; blocks weaker than ``gradientThreshold`` are ignored.
/// 2. From the strongest block down, a region grows over its 8 neighbours while their level lines stay within
///    ``angleTolerance`` of the region's mean direction.
/// 3. Each region is fitted with a rectangle along its principal axis (strength-weighted). It becomes a segment when
///    the rectangle is at least ``minimumLength`` long and the region fills at least ``minimumDensity`` of it, so a
///    curve, whose rectangle is wide and mostly empty, does not.
///
/// Unlike LSD it does not validate segments with an a-contrario test or refine their rectangles; the tilt estimate
/// that reads them weighs many segments against each other instead. Deterministic: ties in strength are broken by
/// position.
package struct LineSegmentDetector: Sendable {
    /// How far (degrees) a pixel's edge direction may differ from its region's to join it.
    package var angleTolerance: Double
    /// The weakest 2×2 gradient taken, in the plane's units per pixel (LSD's `2 / sin(τ)`: about 5.2 at 22.5°).
    package var gradientThreshold: Float
    /// The shortest segment kept, in pixels.
    package var minimumLength: Double
    /// The least share of its rectangle a region must fill.
    package var minimumDensity: Double

    /// Creates a detector with LSD's tolerance and threshold and the given length and density.
    package init(angleTolerance: Double = 22.5, minimumLength: Double = 15, minimumDensity: Double = 0.3) {
        self.angleTolerance = angleTolerance
        gradientThreshold = Float(2 / sin(angleTolerance * .pi / 180))
        self.minimumLength = minimumLength
        self.minimumDensity = minimumDensity
    }

    /// The segments of `plane`, in its coordinates (pixel centres at half-integers), strongest region first.
    ///
    /// - Complexity: O(pixels · log pixels) for the ordering, O(pixels) for the growing.
    package func segments(in plane: LumaPlane) -> [LineSegment] {
        let w = plane.width, h = plane.height
        guard w >= 2, h >= 2 else { return [] }
        var gradients = GradientField(plane, threshold: gradientThreshold)
        let tolerance = Float(angleTolerance * .pi / 180)
        var segments: [LineSegment] = []
        var region: [Int] = []
        region.reserveCapacity(4096)
        for seed in gradients.seeds() where !gradients.isUsed(seed) {
            region.removeAll(keepingCapacity: true)
            gradients.grow(from: seed, tolerance: tolerance, into: &region)
            if Double(region.count) < minimumLength / 2 { continue }
            if let segment = rectangle(of: region, in: gradients) { segments.append(segment) }
        }
        return segments
    }

    /// The segment along `region`'s principal axis, if it is long and dense enough.
    private func rectangle(of region: [Int], in field: GradientField) -> LineSegment? {
        let w = field.width
        var total = 0.0, sx = 0.0, sy = 0.0
        for i in region {
            let m = Double(field.magnitude[i])
            total += m
            sx += m * Double(i % w)
            sy += m * Double(i / w)
        }
        guard total > 0 else { return nil }
        let cx = sx / total, cy = sy / total
        var xx = 0.0, yy = 0.0, xy = 0.0
        for i in region {
            let m = Double(field.magnitude[i]), dx = Double(i % w) - cx, dy = Double(i / w) - cy
            xx += m * dx * dx
            yy += m * dy * dy
            xy += m * dx * dy
        }
        let theta = 0.5 * atan2(2 * xy, xx - yy)
        let ux = cos(theta), uy = sin(theta)
        var lo = Double.infinity, hi = -Double.infinity, near = Double.infinity, far = -Double.infinity
        for i in region {
            let dx = Double(i % w) - cx, dy = Double(i / w) - cy
            let along = dx * ux + dy * uy, across = -dx * uy + dy * ux
            lo = Swift.min(lo, along)
            hi = Swift.max(hi, along)
            near = Swift.min(near, across)
            far = Swift.max(far, across)
        }
        let length = hi - lo + 1, width = far - near + 1
        guard length >= minimumLength, Double(region.count) / (length * width) >= minimumDensity else { return nil }
        // A 2×2 block's gradient sits at the shared corner of its pixels: (x + 1, y + 1) with centres at +0.5.
        return LineSegment(
            start: Point(x: cx + lo * ux + 1, y: cy + lo * uy + 1),
            end: Point(x: cx + hi * ux + 1, y: cy + hi * uy + 1),
            width: width)
    }
}

/// The 2×2 gradients of a plane: strength and level-line direction per block, and which blocks are still free.
///
/// Invariant: the three arrays have `width * height` entries; a block below the threshold (and the last row and
/// column, which have no block) starts out used.
private struct GradientField {
    let width: Int, height: Int
    var magnitude: [Float]
    var angle: [Float]
    private var used: [Bool]

    init(_ plane: LumaPlane, threshold: Float) {
        width = plane.width
        height = plane.height
        let n = width * height
        magnitude = [Float](repeating: 0, count: n)
        angle = [Float](repeating: 0, count: n)
        used = [Bool](repeating: true, count: n)
        plane.values.withUnsafeBufferPointer { v in
            for y in 0..<(height - 1) {
                for x in 0..<(width - 1) {
                    let i = y * width + x
                    let a = v[i], b = v[i + 1], c = v[i + width], d = v[i + width + 1]
                    let gx = (b + d - a - c) / 2, gy = (c + d - a - b) / 2
                    let m = (gx * gx + gy * gy).squareRoot()
                    magnitude[i] = m
                    if m > threshold {
                        used[i] = false
                        angle[i] = atan2f(gx, -gy)
                    }
                }
            }
        }
    }

    func isUsed(_ i: Int) -> Bool { used[i] }

    /// The free blocks, strongest first (ties by position).
    func seeds() -> [Int] {
        var free: [Int] = []
        for i in 0..<used.count where !used[i] { free.append(i) }
        return free.sorted { magnitude[$0] != magnitude[$1] ? magnitude[$0] > magnitude[$1] : $0 < $1 }
    }

    /// Grows a region from `seed` over free 8-neighbours within `tolerance` radians of its mean direction.
    mutating func grow(from seed: Int, tolerance: Float, into region: inout [Int]) {
        region.append(seed)
        used[seed] = true
        var sx = cosf(angle[seed]), sy = sinf(angle[seed])
        var theta = angle[seed]
        var k = 0
        while k < region.count {
            let p = region[k]
            k += 1
            let px = p % width, py = p / width
            for ny in Swift.max(0, py - 1)...Swift.min(height - 1, py + 1) {
                for nx in Swift.max(0, px - 1)...Swift.min(width - 1, px + 1) {
                    let q = ny * width + nx
                    if used[q] { continue }
                    var d = abs(angle[q] - theta)
                    if d > .pi { d = 2 * .pi - d }
                    guard d < tolerance else { continue }
                    used[q] = true
                    region.append(q)
                    sx += cosf(angle[q])
                    sy += sinf(angle[q])
                    theta = atan2f(sy, sx)
                }
            }
        }
    }
}
