import CropGeometry
import CropPixels

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Refits a segment found on a shrunk copy of a plane to the edge's sub-pixel positions on the plane itself, so its
/// direction is as exact as the edge allows rather than as the pixel region behind it (whose principal axis a ragged
/// or wedge-shaped region pulls by up to a few tenths of a degree).
///
/// Every pixel along the segment, the plane is sampled across it (bilinearly, every quarter pixel, out to 1.5 shrunk
/// pixels either side); the edge is the centroid of the lobe where the derivative across peaks with the segment's
/// polarity (out to a tenth of the peak), which, unlike a parabola through the top three samples, does not lock onto
/// pixel centres. A line is fitted through those positions by weighted least squares (each weighs its peak's strength),
/// dropping those more than `max(0.75 px, 3 × the median residual)` off it, four times over.
///
/// The fit fails (`nil`) when fewer than half the positions along the segment have a peak of at least
/// ``minimumPeak`` with the segment's polarity (nothing changes across it); positions whose profile would leave the
/// plane are skipped.
struct SubpixelEdgeFit {
    /// The plane the segment is refitted on.
    let plane: LumaPlane
    /// The weakest derivative peak taken, in the plane's units per pixel.
    static let minimumPeak = 2.0
    /// The smallest residual cut, pixels.
    static let minimumCut = 0.75
    /// Where the peak's lobe ends, as a share of the peak.
    static let lobe = 0.1
    /// How far across the segment the edge is searched, in shrunk pixels either side.
    static let reach = 1.5

    /// `segment`, found on this plane shrunk by `factor` (its coordinates), refitted; the result is in the same
    /// shrunk coordinates.
    func refit(_ segment: LineSegment, factor: Int) -> LineSegment? { refitEdge(segment, factor: factor)?.segment }

    /// `segment` refitted as ``refit(_:factor:)`` does, with the median distance of the edge's positions from the
    /// fitted line, in plane pixels: a few hundredths for a straight edge, more the more the edge wanders.
    func refitEdge(_ segment: LineSegment, factor: Int) -> (segment: LineSegment, residual: Double)? {
        let k = Double(factor)
        let p0 = Point(x: segment.start.x * k, y: segment.start.y * k)
        let p1 = Point(x: segment.end.x * k, y: segment.end.y * k)
        let length = hypot(p1.x - p0.x, p1.y - p0.y)
        guard length > 4 else { return nil }
        let ux = (p1.x - p0.x) / length, uy = (p1.y - p0.y) / length
        let nx = -uy, ny = ux
        let step = 0.25
        let half = Int((Self.reach * k + 1) / step)
        // The derivative across the segment, every quarter pixel, at each whole pixel along it.
        var profiles: [(t: Double, slopes: [Double])] = []
        var polarity = 0.0
        var t = -0.5
        along: while t + 1 < length - 0.5 {
            t += 1
            let cx = p0.x + ux * t, cy = p0.y + uy * t
            var slopes: [Double] = []
            slopes.reserveCapacity(2 * half + 1)
            for j in -half...half {
                let s = Double(j) * step
                // A position whose profile leaves the plane is skipped.
                guard let ahead = sample(x: cx + nx * (s + 0.5), y: cy + ny * (s + 0.5)),
                    let behind = sample(x: cx + nx * (s - 0.5), y: cy + ny * (s - 0.5))
                else { continue along }
                slopes.append(ahead - behind)
            }
            polarity += slopes[half]
            profiles.append((t, slopes))
        }
        guard profiles.count >= 4 else { return nil }
        let sign = polarity >= 0 ? 1.0 : -1.0
        var points: [(t: Double, s: Double, weight: Double)] = []
        for (t, slopes) in profiles {
            var best = 1, peak = -Double.infinity
            for j in 1..<(slopes.count - 1) where sign * slopes[j] > peak {
                peak = sign * slopes[j]
                best = j
            }
            guard peak >= Self.minimumPeak, best > 1, best < slopes.count - 2 else { continue }
            // The centroid of the peak's lobe (out to where the slope falls to a tenth of the peak): for an edge
            // sampled by pixel areas and read bilinearly it moves exactly with the edge, where a parabola through
            // the top three samples locks onto pixel centres.
            var lo = best, hi = best
            while lo > 0, sign * slopes[lo - 1] > Self.lobe * peak { lo -= 1 }
            while hi < slopes.count - 1, sign * slopes[hi + 1] > Self.lobe * peak { hi += 1 }
            var moment = 0.0, mass = 0.0
            for j in lo...hi {
                let m = sign * slopes[j]
                moment += m * Double(j - half)
                mass += m
            }
            points.append((t, moment / mass * step, peak))
        }
        guard points.count >= Swift.max(4, profiles.count / 2), let fit = Self.robustLine(points) else { return nil }
        // s = a + b·t across the segment: move its ends by a and a + b·length along the normal.
        let e0 = fit.a / k, e1 = (fit.a + fit.b * length) / k
        let residuals = points.map { abs($0.s - fit.a - fit.b * $0.t) }.sorted()
        return (
            LineSegment(
                start: Point(x: segment.start.x + nx * e0, y: segment.start.y + ny * e0),
                end: Point(x: segment.end.x + nx * e1, y: segment.end.y + ny * e1),
                width: segment.width), residuals[residuals.count / 2]
        )
    }

    /// The weighted least-squares line `s = a + b·t` through `points`, refitted four times without those farther off
    /// than the cut.
    static func robustLine(_ points: [(t: Double, s: Double, weight: Double)]) -> (a: Double, b: Double)? {
        var keep = [Bool](repeating: true, count: points.count)
        var a = 0.0, b = 0.0
        for _ in 0..<4 {
            var sw = 0.0, st = 0.0, ss = 0.0, stt = 0.0, sts = 0.0
            for (i, p) in points.enumerated() where keep[i] {
                sw += p.weight
                st += p.weight * p.t
                ss += p.weight * p.s
                stt += p.weight * p.t * p.t
                sts += p.weight * p.t * p.s
            }
            let determinant = sw * stt - st * st
            guard sw > 0, abs(determinant) > 1e-9 else { return nil }
            b = (sw * sts - st * ss) / determinant
            a = (ss - b * st) / sw
            let residuals = points.map { abs($0.s - a - b * $0.t) }
            let kept = residuals.indices.filter { keep[$0] }.map { residuals[$0] }.sorted()
            let cut = Swift.max(minimumCut, 3 * kept[kept.count / 2])
            for i in points.indices { keep[i] = residuals[i] <= cut }
        }
        return (a, b)
    }

    /// The plane's value at (`x`, `y`), bilinear between pixel centres (at half-integers); `nil` outside them.
    func sample(x: Double, y: Double) -> Double? {
        let fx = x - 0.5, fy = y - 0.5
        let x0 = Int(floor(fx)), y0 = Int(floor(fy))
        guard x0 >= 0, y0 >= 0, x0 + 1 < plane.width, y0 + 1 < plane.height else { return nil }
        let ax = fx - Double(x0), ay = fy - Double(y0)
        let top = Double(plane[x: x0, y: y0]) * (1 - ax) + Double(plane[x: x0 + 1, y: y0]) * ax
        let bottom = Double(plane[x: x0, y: y0 + 1]) * (1 - ax) + Double(plane[x: x0 + 1, y: y0 + 1]) * ax
        return top * (1 - ay) + bottom * ay
    }
}
