import CropGeometry
import CropPixels
import CropTestSupport
import Foundation
import Testing

@testable import CropAnalysis

@Suite("Line segments and the straighten estimate")
struct StraightenDetectorTests {
    /// A `width × height` gray plane, dark on one side of the segment from `a` to `b` (the strip beside it, out to the
    /// frame), supersampled 4×4.
    static func edgePlane(width: Int, height: Int, from a: Point, to b: Point) -> LumaPlane {
        let dx = b.x - a.x, dy = b.y - a.y, length = (dx * dx + dy * dy).squareRoot()
        var values = [Float](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                var dark = 0.0
                for j in 0..<4 {
                    for i in 0..<4 {
                        let px = Double(x) + (Double(i) + 0.5) / 4 - a.x, py = Double(y) + (Double(j) + 0.5) / 4 - a.y
                        let along = (px * dx + py * dy) / length, across = (-px * dy + py * dx) / length
                        if along >= 0, along <= length, across > 0 { dark += 1 }
                    }
                }
                values[y * width + x] = Float(200 - 150 * dark / 16)
            }
        }
        return LumaPlane(width: width, height: height, values: values)
    }

    @Test("a drawn edge comes back as one segment with its direction (±0.3°) and ends (±2 px)")
    func segmentOfAnEdge() {
        let a = Point(x: 20, y: 30), b = Point(x: 220, y: 62)
        let plane = Self.edgePlane(width: 260, height: 140, from: a, to: b)
        let segments = LineSegmentDetector().segments(in: plane)
        let long = segments.filter {
            $0.length > 100 && abs($0.tiltFromAxis.degrees) < 45 && !$0.tiltFromAxis.isVertical
        }
        #expect(long.count == 1, "\(segments)")
        guard let s = long.first else { return }
        let expected = atan2(b.y - a.y, b.x - a.x) * 180 / .pi
        #expect(abs(s.direction - expected) < 0.3, "direction \(s.direction), expected \(expected)")
        let ends = [s.start, s.end].sorted { $0.x < $1.x }
        #expect(abs(ends[0].x - a.x) < 2 && abs(ends[0].y - a.y) < 2, "\(ends[0])")
        #expect(abs(ends[1].x - b.x) < 2 && abs(ends[1].y - b.y) < 2, "\(ends[1])")
        #expect(s.tiltFromAxis.isVertical == false && abs(s.tiltFromAxis.degrees - expected) < 0.3)
    }

    @Test("tilt from the axis: a vertical turned clockwise by t reads +t, as a horizontal does")
    func tiltConvention() {
        let t = 5.0 * Double.pi / 180
        let vertical = LineSegment(
            start: Point(x: 100, y: 0), end: Point(x: 100 - 200 * sin(t), y: 200 * cos(t)), width: 1)
        #expect(vertical.tiltFromAxis.isVertical)
        #expect(abs(vertical.tiltFromAxis.degrees - 5) < 1e-9, "\(vertical.tiltFromAxis)")
        let horizontal = LineSegment(start: Point(x: 0, y: 0), end: Point(x: 200 * cos(t), y: 200 * sin(t)), width: 1)
        #expect(!horizontal.tiltFromAxis.isVertical && abs(horizontal.tiltFromAxis.degrees - 5) < 1e-9)
    }

    @Test("a facade turned by a random angle in −12…12° is levelled within 0.2° and confidently (24 seeded scenes)")
    func levelsTurnedFacades() throws {
        var rng = SplitMix64(seed: 1215)
        var failures: [String] = []
        for case_ in 0..<24 {
            let degrees = rng.double(-12...12)
            let scene = try tiltedScene(width: 384, height: 256, degrees: degrees, seed: rng.next())
            let estimate = try StraightenDetector.estimate(scene)
            if abs(estimate.angle - degrees) > 0.2 || !estimate.isConfident() {
                failures.append("case \(case_): turned \(degrees)°, estimate \(estimate)")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of 24: \(failures)")
    }

    @Test("a mirrored picture gives the opposite angle")
    func mirrorSymmetry() throws {
        let scene = try tiltedScene(width: 400, height: 300, degrees: 6.5, seed: 7)
        let mirrored = scene.applyingOrientation(.topRight)
        let a = try StraightenDetector.estimate(scene), b = try StraightenDetector.estimate(mirrored)
        #expect(abs(a.angle + b.angle) < 0.1, "\(a) vs \(b)")
    }

    @Test(
        "pictures without straight lines are not confident and apply 0° (16 seeded blotch scenes, noise, a flat field)")
    func unsureWithoutLines() throws {
        var rng = SplitMix64(seed: 77)
        var confident: [String] = []
        for case_ in 0..<16 {
            let scene = try tiltedScene(
                width: 384, height: 256, degrees: rng.double(-12...12), seed: rng.next(), lines: false)
            let estimate = try StraightenDetector.estimate(scene)
            if estimate.isConfident() || estimate.appliedAngle() != 0 { confident.append("case \(case_): \(estimate)") }
        }
        #expect(confident.isEmpty, "\(confident)")
        let noise = try randomBuffer(width: 320, height: 240, format: PixelFormat(.rgb, .eight), seed: 3)
        #expect(!(try StraightenDetector.estimate(noise)).isConfident())
        let flat = try makeBuffer(width: 64, height: 48, format: PixelFormat(.gray, .eight)) { _, _, _ in 90 }
        #expect(try StraightenDetector.estimate(flat) == .none)
    }

    @Test("converging verticals count only when they are apart: the pieces of one edge fix no vanishing point")
    func vanishingPointNeedsSpread() {
        // Two pieces of one near-vertical edge and a long horizontal at −3.5°. With the vanishing point free, the
        // pieces fit one below the picture in direction −3.5° as well as upright ones: only their spread across the
        // picture tells the two apart, and they have none.
        let side = 1024.0
        let pieces = [
            AxisLine(tilt: 1.0, isVertical: true, length: 1.1, x: 182, y: 105),
            AxisLine(tilt: 0.8, isVertical: true, length: 0.9, x: 173, y: 146),
        ]
        let horizon = AxisLine(tilt: -3.5, isVertical: false, length: 1.3, x: -13, y: -361)
        let consensus = TiltConsensus(lines: pieces + [horizon], side: side)
        // The vanishing point below, in direction −3.5°, that the pieces point at: 4 px apart where they cross the
        // centre's horizontal, they add 2% of their weight to the horizon's (their full weight before the rule).
        let added = consensus.score(r: -3.5, convergence: -0.43) - horizon.weight
        #expect(added >= 0 && added < 0.03 * (pieces[0].weight + pieces[1].weight), "\(added)")
        // Parallel, the pieces are one edge 0.17 longer sides right of the centre, which leans by the camera's pitch
        // as much as by its roll: it counts 13% (1 − 0.17 / 0.2), and the long horizon decides.
        let estimate = consensus.best()
        #expect(abs(estimate.angle + 3.5) < 0.2, "\(estimate)")
        // Verticals far apart that meet above the picture (a building shot from below) do fix it: upright at +3°.
        let building = [-400.0, -150, 150, 400].map { x -> AxisLine in
            let vp = (x: 1400 * sin(3 * Double.pi / 180), y: -1400 * cos(3 * Double.pi / 180))
            return AxisLine(tilt: -atan2(x - vp.x, 0 - vp.y) * 180 / .pi, isVertical: true, length: 0.6, x: x, y: 0)
        }
        let levelled = TiltConsensus(lines: building + [horizon], side: side).best()
        #expect(abs(levelled.angle - 3) < 0.1, "\(levelled)")
    }

    @Test("one vertical edge at the side of the picture is no roll: it counts by how near the centre it crosses")
    func loneEdgeAtTheSide() {
        // The pug photo's case: the two sides of one wall corner, 0.37 longer sides left of the centre, leaning +7°
        // because the camera looks up, and a few short level lines.
        let side = 1024.0
        let corner = [
            AxisLine(tilt: 7.2, isVertical: true, length: 1.15, x: -374, y: 3),
            AxisLine(tilt: 6.9, isVertical: true, length: 1.12, x: -383, y: 10),
        ]
        let level = [-200.0, 100, 300].map { AxisLine(tilt: 0, isVertical: false, length: 0.12, x: $0, y: 250) }
        let alone = TiltConsensus(lines: corner + level, side: side)
        // 9 px apart where they cross the centre's horizontal, they add 2% of their weight (all of it before the rule).
        let added = alone.score(r: 7.05, convergence: 0)
        #expect(added < 0.03 * (corner[0].weight + corner[1].weight), "\(added)")
        #expect(!alone.best().isConfident(), "\(alone.best())")
        // The same edge through the middle of the picture is the camera's roll whatever its pitch: it counts (by 1 −
        // crossing / 0.2 sides), and the estimate follows it.
        let middle = corner.map { line -> AxisLine in
            var moved = line
            moved.x += 384
            return moved
        }
        let central = TiltConsensus(lines: middle + level, side: side).best()
        #expect(central.isConfident() && abs(central.angle - 7.05) < 0.2, "\(central)")
        // Two parallel edges apart, one on each side, count in full wherever their mean lies.
        let pair = [
            AxisLine(tilt: 2, isVertical: true, length: 0.5, x: -450, y: 0),
            AxisLine(tilt: 2, isVertical: true, length: 0.5, x: 10, y: 0),
        ]
        let weight = pair[0].weight + pair[1].weight
        #expect(abs(TiltConsensus(lines: pair, side: side).score(r: 2, convergence: 0) - weight) < 1e-9)
    }

    @Test(
        "a heavy edge and a faint one far off fix no vanishing point: the heaviest edge counts at most twice the rest")
    func heaviestEdgeIsCapped() {
        let side = 1024.0
        let consensus = TiltConsensus(lines: [], side: side)
        // The wall corner (its two sides, 9 px apart) and a faint vertical on the far side.
        let inliers: [(weight: Double, crossing: Double)] = [(2.4, -374), (2.4, -383), (0.08, 441)]
        let support = consensus.verticalSupport(inliers, converging: true)
        #expect(abs(support - 3 * 0.08) < 1e-9, "\(support)")
        // Four edges of a building, about equal: the spread rule alone decides (they count in full).
        let building: [(weight: Double, crossing: Double)] = [(0.5, -400), (0.6, -150), (0.5, 150), (0.4, 400)]
        #expect(abs(consensus.verticalSupport(building, converging: true) - 2.0) < 1e-9)
    }

    @Test("a line counts fully up to a median residual of 0.5 px, half at 1 px, a tenth at 2 px")
    func straightness() {
        #expect(StraightenDetector.straightness(medianResidual: 0) == 1)
        #expect(StraightenDetector.straightness(medianResidual: 0.5) == 1)
        #expect(abs(StraightenDetector.straightness(medianResidual: 1) - 0.5) < 1e-12)
        #expect(abs(StraightenDetector.straightness(medianResidual: 2) - 0.1) < 1e-12)
        let line = AxisLine(tilt: 0, isVertical: false, length: 1, x: 0, y: 0, straightness: 0.25)
        #expect(abs(line.weight - 0.25) < 1e-12)
    }

    @Test("log luma: equal ratios give equal steps; shrinking averages blocks")
    func lumaPlane() throws {
        let image = try makeBuffer(width: 4, height: 2, format: PixelFormat(.gray, .eight)) { x, _, _ in
            [8, 24, 56, 120][x]
        }
        let plane = LumaPlane(image, logarithmic: true)
        // log2(v + 8): 4, 5, 6, 7 → ×100.
        #expect(plane.values.prefix(4).map { ($0 * 10).rounded() / 10 } == [400, 500, 600, 700])
        let shrunk = plane.shrunk(by: 2)
        #expect(shrunk.width == 2 && shrunk.height == 1)
        #expect(abs(shrunk[x: 0, y: 0] - 450) < 0.01 && abs(shrunk[x: 1, y: 0] - 650) < 0.01)
    }
}
