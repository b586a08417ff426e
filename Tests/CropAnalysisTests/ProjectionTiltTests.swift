import CropGeometry
import CropPixels
import CropTestSupport
import Foundation
import Testing

@testable import CropAnalysis

/// The projection-profile measure that auto-straighten asks when the lines are too few: long straight structures
/// that are not edges, like a string of beads or a hanging chain.
@Suite("Projection tilt")
struct ProjectionTiltTests {
    /// A 1024×768 log-luma plane (a pale wall with a little noise) with a string of dark beads through the centre,
    /// turned clockwise by `degrees` from vertical (or from horizontal): round beads have no straight edge, so only
    /// their alignment says which way is up.
    static func beads(degrees: Double, vertical: Bool = true, seed: UInt64) -> LumaPlane {
        let width = 1024, height = 768
        var rng = SplitMix64(seed: seed)
        var values = (0..<(width * height)).map { _ in Float(760 + Double(rng.next() % 7) - 3) }
        let t = degrees * .pi / 180
        // Clockwise on screen (y down): up (0, −1) turns to (sin t, −cos t); right (1, 0) to (cos t, sin t).
        let (dx, dy) = vertical ? (sin(t), -cos(t)) : (cos(t), sin(t))
        let radius = 3.5
        for step in stride(from: -330.0, through: 330.0, by: 9) {
            let cx = 512 + step * dx, cy = 384 + step * dy
            for y in Int(cy - radius - 1)...Int(cy + radius + 1) {
                for x in Int(cx - radius - 1)...Int(cx + radius + 1) {
                    let d =
                        ((Double(x) + 0.5 - cx) * (Double(x) + 0.5 - cx) + (Double(y) + 0.5 - cy)
                            * (Double(y) + 0.5 - cy))
                        .squareRoot()
                    let cover = Swift.max(0, Swift.min(1, radius + 0.5 - d))
                    values[y * width + x] = Float(Double(values[y * width + x]) * (1 - cover) + 520 * cover)
                }
            }
        }
        return LumaPlane(width: width, height: height, values: values)
    }

    @Test(
        "a string of beads turned by a seeded angle in −12…12° is levelled by the projection within 0.15°, confidently (12 cases, upright and level)"
    )
    func beadsLevelled() throws {
        var rng = SplitMix64(seed: 15)
        var wrong: [String] = []
        for index in 0..<12 {
            let degrees = rng.double(-12...12)
            let estimate = StraightenDetector.estimate(
                Self.beads(degrees: degrees, vertical: index % 2 == 0, seed: rng.next()))
            if estimate.measure != .projection || !estimate.isConfident() || abs(estimate.angle - degrees) > 0.15 {
                wrong.append("\(index): \((degrees * 100).rounded() / 100)° → \(estimate)")
            }
        }
        #expect(wrong.isEmpty, "\(wrong)")
    }

    @Test("the projection's prominence: a string of beads stands far above the median, scattered beads do not")
    func prominence() throws {
        let string = try #require(ProjectionTilt.estimate(Self.beads(degrees: 4, seed: 1)))
        #expect(string.isVertical)
        #expect(abs(string.angle - 4) < 0.15)
        #expect(string.prominence > 8)
        // The same beads scattered at random: no direction lines them up.
        var rng = SplitMix64(seed: 2)
        var values = Self.beads(degrees: 0, seed: 1).values.map { _ in Float(760 + Double(rng.next() % 7) - 3) }
        for _ in 0..<74 {
            let cx = 40 + Int(rng.next() % 944), cy = 40 + Int(rng.next() % 688)
            for y in (cy - 3)...(cy + 3) {
                for x in (cx - 3)...(cx + 3) where (x - cx) * (x - cx) + (y - cy) * (y - cy) <= 10 {
                    values[y * 1024 + x] = 520
                }
            }
        }
        let scattered = try #require(ProjectionTilt.estimate(LumaPlane(width: 1024, height: 768, values: values)))
        #expect(scattered.prominence < 2.5, "\(scattered)")
        let estimate = StraightenDetector.estimate(LumaPlane(width: 1024, height: 768, values: values))
        #expect(!estimate.isConfident(), "\(estimate)")
    }

    @Test("a picture with clear lines keeps the line measure, even where a projection would agree")
    func linesFirst() throws {
        let plane = StraightenDetectorTests.edgePlane(
            width: 1024, height: 768, from: Point(x: -100, y: 380), to: Point(x: 1124, y: 400))
        let estimate = StraightenDetector.estimate(plane)
        #expect(estimate.measure == .lines)
        #expect(estimate.lines > 0)
    }

    @Test("an estimate saved before the measure existed decodes as lines; evidence reads for people")
    func codable() throws {
        let old = #"{"angle":1.5,"confidence":0.7,"support":3.1,"lines":4}"#
        let decoded = try JSONDecoder().decode(StraightenEstimate.self, from: Data(old.utf8))
        #expect(decoded == StraightenEstimate(angle: 1.5, confidence: 0.7, support: 3.1, lines: 4, measure: .lines))
        #expect(decoded.evidence == "4 lines")
        let projection = StraightenEstimate(angle: 2, confidence: 0.6, support: 6.14, lines: 0, measure: .projection)
        let again = try JSONDecoder().decode(StraightenEstimate.self, from: JSONEncoder().encode(projection))
        #expect(again == projection)
        #expect(projection.evidence == "long straight structures (profile peak 6.1×)")
    }
}
