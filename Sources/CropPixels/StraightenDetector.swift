import CropGeometry

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Measures how far a picture's horizon or verticals are tilted, for an automatic straighten.
///
/// 1. **Lines.** The picture is box-shrunk to at most ``analysisSide`` pixels and turned into log-luma
///    (``LumaPlane/init(_:logarithmic:)``), so contrast counts by ratio, not by level. ``LineSegmentDetector`` finds
///    its straight edges at that size and at half of it (where soft or broken edges, like a blurred brick wall,
///    join up). Segments within ±15.5° of horizontal or vertical are kept; each weighs its length divided by the
///    picture's longer side.
/// 2. **Consensus.** Every candidate angle `r` in ±``maximumAngle`` is scored by the weight of the segments it
///    explains, each through a Gaussian of σ = 0.3° on its residual. Horizontal segments must run at `r`. Vertical
///    ones may converge on a vanishing point in direction `r` from the centre, at any distance down to 1.25 times the
///    longer side (a building shot from below): a camera's roll is the direction of the vertical vanishing point
///    whatever its pitch. The best angle is refined from its inliers' residuals.
/// 3. **Confidence** grows with the agreeing length (``StraightenEstimate/confidence``). A flat lay, a close-up of a
///    face or a blurred background has few long lines, so its estimate is not applied.
///
/// The result is deterministic. What it cannot know: lines that are tilted in the world (a roof, a car's bonnet in
/// perspective) count like true ones, so a picture dominated by them is levelled to them.
public enum StraightenDetector {
    /// The longer side of the analysis copy, in pixels.
    public static let analysisSide = 512
    /// The largest tilt searched, in degrees either way.
    public static let maximumAngle = 15.0

    /// The tilt of `image` (its pixels as shown: apply the EXIF orientation first).
    ///
    /// - Throws: ``PixelError`` only if the analysis copy cannot be made (it cannot for a valid buffer).
    public static func estimate(_ image: PixelBuffer) throws(PixelError) -> StraightenEstimate {
        let f = Swift.min(1, Double(analysisSide) / Double(Swift.max(image.width, image.height)))
        let w = Swift.max(1, Int((Double(image.width) * f).rounded()))
        let h = Swift.max(1, Int((Double(image.height) * f).rounded()))
        let small = (w, h) == (image.width, image.height)
            ? image : try image.resized(width: w, height: h, options: ResampleOptions(filter: .box))
        return estimate(LumaPlane(small, logarithmic: true))
    }

    /// The tilt of a log-luma plane already at analysis size.
    public static func estimate(_ plane: LumaPlane) -> StraightenEstimate {
        let detector = LineSegmentDetector()
        var lines: [AxisLine] = []
        let side = Double(Swift.max(plane.width, plane.height))
        let centre = Point(x: Double(plane.width) / 2, y: Double(plane.height) / 2)
        for factor in [1, 2] {
            let scaled = plane.shrunk(by: factor)
            guard scaled.width >= 8, scaled.height >= 8 else { continue }
            for segment in detector.segments(in: scaled) {
                let (tilt, vertical) = segment.tiltFromAxis
                guard abs(tilt) <= maximumAngle + 0.5 else { continue }
                let c = segment.center, k = Double(factor)
                lines.append(AxisLine(
                    tilt: tilt, isVertical: vertical,
                    weight: segment.length * k / side * (vertical ? TiltConsensus.verticalWeight : 1),
                    x: c.x * k - centre.x, y: c.y * k - centre.y))
            }
        }
        return TiltConsensus(lines: lines, side: side).best()
    }
}

/// A near-horizontal or near-vertical segment as the consensus reads it: its tilt from the axis (degrees,
/// clockwise), its weight, and its midpoint relative to the picture's centre.
struct AxisLine {
    var tilt: Double
    var isVertical: Bool
    var weight: Double
    var x: Double
    var y: Double
}

/// The angle (and vertical vanishing point) that explains the most line weight.
struct TiltConsensus {
    let lines: [AxisLine]
    let side: Double
    /// The residual kernel's width, degrees.
    static let sigma = 0.3
    /// How much more a vertical line counts than a horizontal one of the same length: the vertical vanishing point
    /// gives the camera's roll whatever its pitch and yaw, while a horizontal line not square to the camera (a wall
    /// seen at an angle) is tilted by perspective.
    static let verticalWeight = 1.0
    /// The inverse distances (in longer sides) of the vertical vanishing points tried; 0 is parallel verticals.
    static let convergences: [Double] = (-16...16).map { Double($0) / 20 }

    /// The tilt a line would show if the picture were turned clockwise by `r` degrees with its vertical vanishing
    /// point at distance `side / convergence` from the centre, in direction `r` from straight up.
    func predicted(_ line: AxisLine, r: Double, convergence: Double) -> Double {
        guard line.isVertical, convergence != 0 else { return r }
        let d = side / convergence, radians = r * .pi / 180
        var dx = d * sin(radians) - line.x, dy = -d * cos(radians) - line.y
        if dy < 0 { (dx, dy) = (-dx, -dy) }
        return -atan2(dx, dy) * 180 / .pi
    }

    /// The kernel-weighted support of (`r`, `convergence`).
    func score(r: Double, convergence: Double) -> Double {
        var total = 0.0
        for line in lines {
            let residual = line.tilt - predicted(line, r: r, convergence: convergence)
            guard abs(residual) < 4 * Self.sigma else { continue }
            total += line.weight * exp(-0.5 * (residual / Self.sigma) * (residual / Self.sigma))
        }
        return total
    }

    func best() -> StraightenEstimate {
        guard !lines.isEmpty else { return .none }
        let limit = StraightenDetector.maximumAngle
        // Coarse: every 0.25° and every convergence; then 0.02° around the best, at its convergence and neighbours.
        var best = (r: 0.0, c: 0.0, score: -1.0)
        for step in -60...60 {
            let r = Double(step) / 4
            for c in Self.convergences {
                let s = score(r: r, convergence: c)
                if s > best.score { best = (r, c, s) }
            }
        }
        // Fine: every 0.02° within 0.3° and every 0.01 of convergence within 0.05 of the coarse best.
        let coarse = best
        for step in -15...15 {
            let r = coarse.r + Double(step) / 50
            guard abs(r) <= limit else { continue }
            for dc in -5...5 {
                let c = coarse.c + Double(dc) / 100
                guard abs(c) <= Self.convergences.last! else { continue }
                let s = score(r: r, convergence: c)
                if s > best.score { best = (r, c, s) }
            }
        }
        // Refine: the kernel-weighted mean residual of the inliers moves every prediction by about as much.
        let c = best.c
        var r = best.r
        for _ in 0..<3 {
            var sum = 0.0, weight = 0.0
            for line in lines {
                let residual = line.tilt - predicted(line, r: r, convergence: c)
                guard abs(residual) < 2 * Self.sigma else { continue }
                let k = line.weight * exp(-0.5 * (residual / Self.sigma) * (residual / Self.sigma))
                sum += k * residual
                weight += k
            }
            guard weight > 0 else { break }
            r = Swift.min(limit, Swift.max(-limit, r + sum / weight))
        }
        let support = score(r: r, convergence: c)
        let agreeing = lines.filter { abs($0.tilt - predicted($0, r: r, convergence: c)) < 2 * Self.sigma }.count
        return StraightenEstimate(
            angle: r, confidence: support / (support + 1.5), support: support, lines: agreeing)
    }
}
