import CropGeometry
import CropPixels

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Measures how far a picture's horizon or verticals are tilted, for an automatic straighten.
///
/// 1. **Lines.** The picture is resized to ``analysisSide`` pixels on its longer side and turned into log-luma
///    (`LumaPlane`), so contrast counts by ratio, not by level. `LineSegmentDetector` finds
///    its straight edges on block means of that plane at about 512 pixels and at half of that (where soft or broken
///    edges, like a blurred brick wall, join up). Each segment is then refitted to its edge's sub-pixel positions on
///    the 1024-pixel plane (`SubpixelEdgeFit`): the pixel region it was found as gives its direction only to a few
///    tenths of a degree, the edge itself to a few hundredths. Segments within ±15.5° of horizontal are kept, and
///    vertical ones within ±35° (verticals converging on a near vanishing point lean that far in a level picture).
///    Collinear ones are joined into lines (within 1° and 3 pixels at 512). Each line weighs its length, in multiples
///    of the picture's longer side, to the power 1.5, so a horizon across the frame outweighs a handful of short
///    edges that happen to agree; a vertical line weighs twice that. A line also counts less the more its edge
///    wanders from it (`straightness(medianResidual:)`): a horizon or a building's edge lies within a few tenths of
///    a pixel of its line, the edge of a waterfall or a cliff does not.
/// 2. **Consensus.** Every candidate angle `r` in ±``maximumAngle`` is scored by the weight of the lines it
///    explains, each through a Gaussian of σ = 0.3° on its residual. Horizontal lines must run at `r` (letting them
///    converge too lets hills and clouds explain any angle). Vertical ones may converge on a vanishing point in
///    direction `r` from the centre, at any distance down to 1.25 times the longer side (a building shot from
///    below): a camera's roll is the direction of the vertical vanishing point whatever its pitch. A vanishing point
///    takes two verticals apart to fix (the pieces of one edge fit one in any direction), so converging verticals
///    count in proportion to how far apart they cross the centre's horizontal, fully from a spread of 0.2 longer
///    sides, and one heavy edge counts at most twice the others together. Parallel verticals count in full when they
///    are apart or near the centre: one edge at the side of the picture leans by the camera's pitch alone (a wall's
///    corner shot from below), so by itself it counts less the farther out it is. The best angle is refined from its
///    inliers' residuals.
/// 3. **Confidence** grows with the agreeing weight (``StraightenEstimate/confidence``). A flat lay, a close-up of a
///    face or a blurred background has few long lines, so its estimate is not applied.
/// 4. **Structures that are not edges.** When the lines give a confidence below 0.42, the projection profile is
///    asked (`ProjectionTilt`): the direction along which the strongest gradients project most sharply, with a
///    confidence from how far that peak stands above the other directions. A chain hanging in front of a wall has no
///    straight edge (its links zig-zag) yet levels to a tenth of a degree this way; a flat lay or a reef has no
///    such peak and stays unsure. It is not asked otherwise, because it follows the dominant direction whatever it
///    is: on a building shot from below it would follow the converging façade.
///
/// The result is deterministic. What it cannot know: lines that are tilted in the world (a roof, a car's bonnet in
/// perspective) count like true ones, so a picture dominated by them is levelled to them.
public enum StraightenDetector {
    /// The longer side of the analysis copy, in pixels.
    public static let analysisSide = 1024
    /// The largest tilt searched, in degrees either way.
    public static let maximumAngle = 15.0

    /// The tilt of `image` (its pixels as shown: apply the EXIF orientation first).
    ///
    /// - Throws: `PixelError` only if the analysis copy cannot be made (it cannot for a valid buffer).
    public static func estimate(_ image: PixelBuffer) throws(PixelError) -> StraightenEstimate {
        // Exactly analysisSide on the longer side: shrunk with a box filter, or enlarged (Catmull-Rom) so that a
        // small picture is measured on the same 512- and 256-pixel block means as a large one.
        let f = Double(analysisSide) / Double(Swift.max(image.width, image.height))
        let w = Swift.max(1, Int((Double(image.width) * f).rounded()))
        let h = Swift.max(1, Int((Double(image.height) * f).rounded()))
        let sized =
            (w, h) == (image.width, image.height)
            ? image
            : try image.resized(width: w, height: h, options: ResampleOptions(filter: f < 1 ? .box : .catmullRom))
        return estimate(LumaPlane(sized, logarithmic: true))
    }

    /// The tilt of a log-luma plane at most ``analysisSide`` pixels long.
    package static func estimate(_ plane: LumaPlane) -> StraightenEstimate {
        let detector = LineSegmentDetector()
        var lines: [AxisLine] = []
        let side = Double(Swift.max(plane.width, plane.height))
        let centre = Point(x: Double(plane.width) / 2, y: Double(plane.height) / 2)
        // Lines are found at about 512 and 256 pixels: block means of the log plane, which smooth noise and
        // resampling ripple without moving edges.
        let base = Swift.max(1, Int((side / 512).rounded()))
        let fit = SubpixelEdgeFit(plane: plane)
        for factor in [base, 2 * base] {
            let scaled = plane.shrunk(by: factor)
            guard scaled.width >= 8, scaled.height >= 8 else { continue }
            for found in detector.segments(in: scaled) {
                // Each segment's direction is then measured on the full plane; one with no edge across most of
                // its length is dropped.
                guard let (segment, residual) = fit.refitEdge(found, factor: factor) else { continue }
                let (tilt, vertical) = segment.tiltFromAxis
                guard abs(tilt) <= (vertical ? steepestVertical : maximumAngle + 0.5) else { continue }
                let c = segment.center, k = Double(factor)
                lines.append(
                    AxisLine(
                        tilt: tilt, isVertical: vertical, length: segment.length * k / side,
                        x: c.x * k - centre.x, y: c.y * k - centre.y,
                        straightness: Self.straightness(medianResidual: residual)))
            }
        }
        let fromLines = TiltConsensus(lines: AxisLine.joined(lines, within: 3 * Double(base)), side: side).best()
        guard fromLines.confidence < projectionBelow, let projection = ProjectionTilt.estimate(plane) else {
            return fromLines
        }
        let p = projection.prominence
        let confidence = (p - 1) / (p - 1 + halfConfidenceProminence - 1)
        // The lines' own (unsure) estimate stands unless the profile is surer.
        guard confidence > fromLines.confidence else { return fromLines }
        return StraightenEstimate(
            angle: projection.angle, confidence: confidence, support: p, lines: 0, measure: .projection)
    }

    /// The steepest vertical line kept, degrees from vertical: verticals converging on a near vanishing point (a
    /// building shot from below) lean by up to this much even when the camera is level.
    static let steepestVertical = 35.0

    /// How much a line counts by how far (median, plane pixels) its edge's points lie from it: fully up to
    /// ``straightResidual``, half at twice that, a tenth at four times that. A horizon, a building's edge or a door
    /// frame lies within a few tenths of a pixel of its line; the edge of a waterfall, a cliff or a cloud wanders.
    static func straightness(medianResidual m: Double) -> Double {
        let excess = Swift.max(0, m - straightResidual) / straightResidual
        return 1 / (1 + excess * excess)
    }

    /// The median residual up to which a line counts in full, plane pixels.
    static let straightResidual = 0.5

    /// Below this confidence from lines, the projection profile is asked (``ProjectionTilt``).
    static let projectionBelow = 0.42
    /// The projection profile's peak over its median at which its confidence is one half.
    static let halfConfidenceProminence = 4.5
}

/// A near-horizontal or near-vertical line as the consensus reads it: its tilt from the axis (degrees, clockwise),
/// its length in multiples of the picture's longer side, and its midpoint relative to the picture's centre (analysis
/// pixels).
struct AxisLine {
    var tilt: Double
    var isVertical: Bool
    var length: Double
    var x: Double
    var y: Double
    var straightness: Double = 1

    /// The line's weight in the consensus: its length to the power 1.5, so one edge straight across the picture (a
    /// horizon) outweighs several short ones that happen to agree (cloud edges, texture); twice that for a vertical.
    var weight: Double {
        length * length.squareRoot() * straightness * (isVertical ? TiltConsensus.verticalWeight : 1)
    }

    /// `segments` with collinear pieces joined into lines, longest first: a segment within 1° of a line's tilt whose
    /// midpoint lies within `distance` pixels of it (a horizon broken by a tree, the same edge found at both scales)
    /// adds its length to the line, and the line's tilt and midpoint become the length-weighted means.
    static func joined(_ segments: [AxisLine], within distance: Double) -> [AxisLine] {
        var lines: [AxisLine] = []
        for segment in segments.sorted(by: { $0.length > $1.length }) {
            let match = lines.firstIndex { line in
                guard line.isVertical == segment.isVertical, abs(line.tilt - segment.tilt) <= 1 else { return false }
                let t = line.tilt * .pi / 180, dx = segment.x - line.x, dy = segment.y - line.y
                let offset = line.isVertical ? dx * cos(t) + dy * sin(t) : -dx * sin(t) + dy * cos(t)
                return abs(offset) <= distance
            }
            guard let i = match else {
                lines.append(segment)
                continue
            }
            let a = lines[i].length, b = segment.length, total = a + b
            lines[i].tilt = (lines[i].tilt * a + segment.tilt * b) / total
            lines[i].x = (lines[i].x * a + segment.x * b) / total
            lines[i].y = (lines[i].y * a + segment.y * b) / total
            lines[i].straightness = (lines[i].straightness * a + segment.straightness * b) / total
            lines[i].length = total
        }
        return lines
    }
}

/// The angle (and vertical vanishing point) that explains the most line weight.
struct TiltConsensus {
    let lines: [AxisLine]
    let side: Double
    /// The residual kernel's width, degrees.
    static let sigma = 0.3
    /// The support at which the confidence is one half.
    static let halfConfidenceSupport = 0.95
    /// How much more a vertical line counts than a horizontal one as long: the vertical vanishing point gives the
    /// camera's roll whatever its pitch and yaw, while a horizontal edge not square to the camera (a wall or a car
    /// seen at an angle) is tilted by perspective.
    static let verticalWeight = 2.0
    /// The spread (standard deviation, in longer sides) of where converging verticals cross the centre's
    /// horizontal at which they count in full.
    static let vanishingSpread = 0.2
    /// The inverse distances (in longer sides) of the vertical vanishing points tried; 0 is parallel verticals.
    static let convergences: [Double] = (-16...16).map { Double($0) / 20 }

    /// The tilt a line would show if the picture were turned clockwise by `r` degrees with its vertical vanishing
    /// point at distance `side / convergence` from the centre, in direction `r` from straight up. Horizontal lines are
    /// taken as parallel: letting them converge too (on the horizon) lets hills and clouds explain any angle.
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
        // The vertical inliers: kernel weight and where each crosses the centre's horizontal.
        var verticals: [(weight: Double, crossing: Double)] = []
        for line in lines {
            let residual = line.tilt - predicted(line, r: r, convergence: convergence)
            guard abs(residual) < 4 * Self.sigma else { continue }
            let k = line.weight * exp(-0.5 * (residual / Self.sigma) * (residual / Self.sigma))
            guard line.isVertical else {
                total += k
                continue
            }
            verticals.append((k, line.x + line.y * tan(line.tilt * .pi / 180)))
        }
        return total + verticalSupport(verticals, converging: convergence != 0)
    }

    /// How much vertical inliers support a roll. Where they cross the centre's horizontal decides it:
    /// - A vanishing point is fixed by two verticals or more, apart: edges of one line alone fit a vanishing point in
    ///   any direction, so converging verticals count in proportion to how far apart they cross, and the heaviest
    ///   edge (its pieces within ``sameEdge`` of each other) counts at most twice the others together.
    /// - Parallel verticals count in full when they are apart, or when they cross near the centre. One edge off the
    ///   centre (a wall's corner at the side of the picture) leans by the camera's pitch with no roll at all, so
    ///   alone it counts less the farther out it is, nothing from ``vanishingSpread`` out.
    func verticalSupport(_ inliers: [(weight: Double, crossing: Double)], converging: Bool) -> Double {
        let vertical = inliers.reduce(0) { $0 + $1.weight }
        guard vertical > 0 else { return 0 }
        let mean = inliers.reduce(0) { $0 + $1.weight * $1.crossing } / vertical
        let squares = inliers.reduce(0) { $0 + $1.weight * $1.crossing * $1.crossing } / vertical
        let apart = Swift.min(1, (Swift.max(0, squares - mean * mean)).squareRoot() / (Self.vanishingSpread * side))
        guard converging else {
            let central = Swift.max(0, 1 - abs(mean) / (Self.vanishingSpread * side))
            return vertical * Swift.max(apart, central)
        }
        guard let heaviest = inliers.max(by: { $0.weight < $1.weight })?.crossing else { return 0 }
        let edge = inliers.filter { abs($0.crossing - heaviest) < Self.sameEdge * side }.reduce(0) { $0 + $1.weight }
        return Swift.min(vertical * apart, 3 * (vertical - edge))
    }

    /// How close (in longer sides) two verticals cross the centre's horizontal to be taken as pieces of one edge.
    static let sameEdge = 0.03

    func best() -> StraightenEstimate {
        guard !lines.isEmpty else { return .none }
        let limit = StraightenDetector.maximumAngle, all = Self.convergences
        // Coarse: every 0.25° and every convergence; then every 0.02° within 0.3° and every 0.01 of convergence
        // within 0.05 of the coarse best.
        var best = (r: 0.0, c: 0.0, score: -1.0)
        for step in -60...60 {
            let r = Double(step) / 4
            for c in all {
                let s = score(r: r, convergence: c)
                if s > best.score { best = (r, c, s) }
            }
        }
        let coarse = best
        for step in -15...15 {
            let r = coarse.r + Double(step) / 50
            guard abs(r) <= limit else { continue }
            for dc in -5...5 {
                let c = coarse.c + Double(dc) / 100
                guard abs(c) <= all.last! else { continue }
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
            angle: r, confidence: support / (support + Self.halfConfidenceSupport), support: support, lines: agreeing)
    }
}
