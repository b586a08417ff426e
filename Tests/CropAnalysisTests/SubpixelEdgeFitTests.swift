import CropGeometry
import CropPixels
import CropTestSupport
import Foundation
import Testing

@testable import CropAnalysis

@Suite("Sub-pixel refit of line segments")
struct SubpixelEdgeFitTests {
    /// A `side × side` plane split by the straight line through its centre at `degrees` (clockwise from horizontal,
    /// or from vertical), dark on one side (``StraightenDetectorTests/edgePlane(width:height:from:to:)`` with the
    /// ends beyond the frame), with seeded noise of ±`noise` levels.
    static func splitPlane(side: Int, degrees: Double, vertical: Bool, noise: Float, seed: UInt64) -> LumaPlane {
        let t = degrees * .pi / 180
        // The line's direction (y down): a horizontal turned clockwise descends to the right.
        let (dx, dy) = vertical ? (-sin(t), cos(t)) : (cos(t), sin(t))
        let c = Double(side) / 2, reach = Double(side)
        let plane = StraightenDetectorTests.edgePlane(
            width: side, height: side, from: Point(x: c - reach * dx, y: c - reach * dy),
            to: Point(x: c + reach * dx, y: c + reach * dy))
        var rng = SplitMix64(seed: seed)
        return LumaPlane(width: side, height: side, values: plane.values.map { $0 + noise * Float(rng.double(-1...1)) })
    }

    @Test("an edge found at half size is refitted to within 0.03° of its direction (24 seeded edges, noisy)")
    func refitsToTheEdge() {
        var rng = SplitMix64(seed: 2026)
        var failures: [String] = []
        for case_ in 0..<24 {
            let degrees = rng.double(-12...12), vertical = case_ % 2 == 1
            let plane = Self.splitPlane(side: 256, degrees: degrees, vertical: vertical, noise: 6, seed: rng.next())
            let found = LineSegmentDetector().segments(in: plane.shrunk(by: 2)).filter {
                $0.length > 60 && $0.tiltFromAxis.isVertical == vertical
            }
            guard let segment = found.max(by: { $0.length < $1.length }) else {
                failures.append("case \(case_): no segment")
                continue
            }
            guard let refitted = SubpixelEdgeFit(plane: plane).refit(segment, factor: 2) else {
                failures.append("case \(case_): no fit")
                continue
            }
            let error = refitted.tiltFromAxis.degrees - degrees
            // The refitted segment also lies on the edge: its midpoint is within 0.1 px (half size) of the line.
            let t = degrees * .pi / 180, m = refitted.center, c = 64.0
            let offset = vertical ? (m.x - c) * cos(t) + (m.y - c) * sin(t) : -(m.x - c) * sin(t) + (m.y - c) * cos(t)
            if abs(error) > 0.03 || abs(offset) > 0.1 || refitted.tiltFromAxis.isVertical != vertical {
                failures.append(
                    "case \(case_): \(degrees)° \(vertical ? "V" : "H"): found \(segment.tiltFromAxis.degrees), refitted \(refitted.tiltFromAxis.degrees), offset \(offset)"
                )
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of 24: \(failures)")
    }

    @Test(
        "the refit measures how far the edge wanders from its line: < 0.1 px when straight, > 1 px when it waves ±2 px")
    func residual() throws {
        // A horizontal edge at y = 128 + amplitude · sin(2πx / 80) on a 256-pixel plane, dark below, supersampled; the
        // segment lies on it at half size (y = 64).
        func plane(amplitude: Double) -> LumaPlane {
            var values = [Float](repeating: 0, count: 256 * 256)
            for y in 0..<256 {
                for x in 0..<256 {
                    var dark = 0
                    for j in 0..<4 {
                        for i in 0..<4 {
                            let px = Double(x) + (Double(i) + 0.5) / 4, py = Double(y) + (Double(j) + 0.5) / 4
                            if py > 128 + amplitude * sin(2 * .pi * px / 80) { dark += 1 }
                        }
                    }
                    values[y * 256 + x] = Float(200 - 150 * Double(dark) / 16)
                }
            }
            return LumaPlane(width: 256, height: 256, values: values)
        }
        let segment = LineSegment(start: Point(x: 4, y: 64), end: Point(x: 124, y: 64), width: 2)
        let straight = try #require(SubpixelEdgeFit(plane: plane(amplitude: 0)).refitEdge(segment, factor: 2))
        let wavy = try #require(SubpixelEdgeFit(plane: plane(amplitude: 2)).refitEdge(segment, factor: 2))
        #expect(straight.residual < 0.1, "\(straight)")
        // |2 sin| has a median of 2 · sin 45° ≈ 1.41 px.
        #expect(wavy.residual > 1 && wavy.residual < 1.8, "\(wavy)")
        #expect(abs(wavy.segment.tiltFromAxis.degrees) < 0.5, "\(wavy)")
    }

    @Test("no fit without an edge across the segment: a ramp along it, or a segment off the plane")
    func noEdgeNoFit() {
        // Brightness rises along x only: nothing changes across a horizontal segment.
        let values = (0..<(128 * 128)).map { Float(400 + 2 * ($0 % 128)) }
        let fit = SubpixelEdgeFit(plane: LumaPlane(width: 128, height: 128, values: values))
        #expect(
            fit.refit(LineSegment(start: Point(x: 10, y: 32), end: Point(x: 54, y: 32), width: 2), factor: 2) == nil)
        #expect(
            fit.refit(LineSegment(start: Point(x: 70, y: 10), end: Point(x: 120, y: 10), width: 2), factor: 2) == nil)
    }

    @Test("the robust line ignores outliers: 40 points on s = 0.5 + 0.02 t with 8 far off")
    func robustLine() throws {
        var points = (0..<40).map { (t: Double($0), s: 0.5 + 0.02 * Double($0), weight: 1.0) }
        for i in stride(from: 3, to: 40, by: 5) { points[i].s += 3 }
        let fit = try #require(SubpixelEdgeFit.robustLine(points))
        #expect(abs(fit.a - 0.5) < 1e-9 && abs(fit.b - 0.02) < 1e-9, "\(fit)")
    }
}
