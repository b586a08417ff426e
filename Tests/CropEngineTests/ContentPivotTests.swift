import CropGeometry
import CropTestSupport
import Testing

@testable import CropEngine

/// Straightening turns the picture about the crop's centre: the content under the crop's centre stays under it.
@Suite("Straighten pivots about the crop's content")
struct ContentPivotTests {
    static let cases = 10_000

    /// The upright-picture point under the crop's centre, measured from what is shown (the frame rectangle turned
    /// back into the picture), not read from the stored content point.
    func contentUnderCentre(_ s: CropState) -> Point {
        s.uprightPicture.toPicture(s.crop.center)
    }

    /// Whether the minimum crop size forced the allowed crop off the wanted content point (the one documented case
    /// where the content under the centre may move).
    func isForcedOffCentre(_ s: CropState) -> Bool {
        s.cropContentCenter != s.wantedContentCenter
    }

    /// Tolerance for a content point of a picture up to `size` pixels after one trip through the frame.
    func tolerance(_ s: CropState) -> Double {
        1e-9 * max(1, Double(max(s.uprightSize.width, s.uprightSize.height)) / 1000)
    }

    @Test("the content point under the crop's centre is invariant under straighten changes (10,000 cases, 1e-9 px)")
    func contentInvariantUnderStraighten() throws {
        var rng = SplitMix64(seed: 41)
        var checked = 0
        for i in 0..<Self.cases {
            var s = try Random.state(&rng)
            let wanted = s.wantedContentCenter
            let before = contentUnderCentre(s), beforeForced = isForcedOffCentre(s)
            for hop in 0..<3 {
                try s.setStraightenAngle(rng.pick([rng.double(-45...45), rng.double(-2...2), 0, 45, -45]))
                // The wanted content point never moves, bit for bit.
                if s.wantedContentCenter != wanted {
                    Issue.record("case \(i) hop \(hop): wanted content point \(wanted) → \(s.wantedContentCenter)")
                    return
                }
                guard !beforeForced, !isForcedOffCentre(s) else { continue }
                let after = contentUnderCentre(s)
                // 1e-9 px for pictures up to 1000 px, scaled with the size (about 1e-12 relative).
                if after.distance(to: before) > tolerance(s) {
                    Issue.record("case \(i) hop \(hop) at \(s.straightenAngle)°: content \(before) → \(after)")
                    return
                }
                checked += 1
            }
        }
        // Only the minimum-size corner case may skip the check; it must stay rare.
        #expect(checked >= 3 * Self.cases * 9 / 10, "only \(checked) hops checked")
    }

    @Test("straighten there and back, through any number of angles, gives an == state (10,000 cases)")
    func straightenThereAndBack() throws {
        var rng = SplitMix64(seed: 42)
        for i in 0..<Self.cases {
            let s = try Random.state(&rng)
            var t = s
            for _ in 0..<rng.int(1...4) { try t.setStraightenAngle(rng.double(-45...45)) }
            try t.setStraightenAngle(s.straightenAngle)
            if t != s {
                Issue.record("case \(i): \(t.crop) at \(t.straightenAngle)° != \(s.crop)")
                return
            }
        }
    }

    @Test("moving then straightening keeps the moved content under the crop's centre (10,000 cases)")
    func moveThenStraighten() throws {
        var rng = SplitMix64(seed: 43)
        var unclamped = 0
        for i in 0..<Self.cases {
            var s = try Random.state(&rng)
            try s.setStraightenAngle(rng.double(-45...45))
            try s.zoom(by: rng.double(1.5...4), anchor: s.crop.center)  // room to move
            let u = s.uprightSize.size
            let before = contentUnderCentre(s)
            let d = Point(x: rng.double(-0.05...0.05) * u.width, y: rng.double(-0.05...0.05) * u.height)
            // Where the content point goes unclamped: d turned back by the straighten, R(−θ)·d.
            let expected = before + s.uprightPicture.vectorToPicture(d)
            let fits = s.uprightPicture.contains(ContentCrop(center: expected, size: s.crop.size), tolerance: -1e-6)
            try s.moveCrop(by: d)
            let moved = contentUnderCentre(s)
            if fits {
                if moved.distance(to: expected) > tolerance(s) {
                    Issue.record(
                        "case \(i): moving by \(d) at \(s.straightenAngle)° took \(before) to \(moved), not \(expected)"
                    )
                    return
                }
                unclamped += 1
            }
            guard !isForcedOffCentre(s) else { continue }
            for _ in 0..<2 {
                try s.setStraightenAngle(rng.double(-45...45))
                if isForcedOffCentre(s) { break }
                let after = contentUnderCentre(s)
                if after.distance(to: moved) > tolerance(s) {
                    Issue.record("case \(i): moved content \(moved) drifted to \(after) at \(s.straightenAngle)°")
                    return
                }
            }
        }
        #expect(unclamped > Self.cases / 2, "only \(unclamped) unclamped moves")
    }

    @Test("a move by a screen delta moves the content point by that delta turned back by the straighten")
    func moveTurnsDeltaBack() throws {
        var s = try CropState(sourceSize: PixelSize(validWidth: 6000, height: 4000))
        try s.setCrop(Rect(center: Point(x: 3000, y: 2000), size: Size(width: 1000, height: 800)))
        try s.setStraightenAngle(30)
        let q = s.cropContentCenter
        #expect(q == Point(x: 3000, y: 2000))
        try s.moveCrop(by: Point(x: 100, y: 0))
        // Screen right at 30° counter-clockwise is picture direction (cos 30°, sin 30°) (y down).
        let expected = Point(x: 3000 + 100 * cos(Double.pi / 6), y: 2000 + 100 * sin(Double.pi / 6))
        #expect(s.cropContentCenter.isApproximatelyEqual(to: expected, tolerance: 1e-9))
        // On screen (in the frame) the box moved exactly 100 px right.
        #expect(s.crop.center.isApproximatelyEqual(to: Point(x: 3100, y: 2000), tolerance: 1e-9))
    }

    @Test("the render plan maps the output centre to the stored pixel of the crop's content centre (10,000 cases)")
    func renderPlanCentre() throws {
        var rng = SplitMix64(seed: 44)
        for i in 0..<Self.cases {
            var s = try Random.state(&rng)
            if rng.bool() { try s.setStraightenAngle(rng.double(-45...45)) }
            let bound = rng.bool() ? nil : PixelSize(validWidth: rng.int(1...3000), height: rng.int(1...3000))
            let plan = s.renderPlan(maximumOutputSize: bound)
            let out = plan.outputSize
            let mapped = plan.transform.apply(to: Point(x: Double(out.width) / 2, y: Double(out.height) / 2))
            let toStored = s.orientation.inverseTransform(storedSize: s.sourceSize.size)
            let stored = toStored.apply(to: contentUnderCentre(s))
            let dx = abs(mapped.x - stored.x), dy = abs(mapped.y - stored.y)
            let ok: Bool
            if plan.isAxisAligned && plan.scale == 1 {
                // Snapped to the source pixel grid: at most half a pixel on each axis.
                ok = dx <= 0.5 + 1e-9 && dy <= 0.5 + 1e-9
            } else {
                ok = max(dx, dy) <= tolerance(s)
            }
            if !ok {
                Issue.record(
                    "case \(i): output centre → \(mapped), content centre at \(stored) (plan \(plan.straightenAngle)°)")
                return
            }
        }
    }

    @Test("a straightened plan pins the output centre on the content point exactly where the crop is off-centre")
    func renderPlanOffCentre() throws {
        let s = try CropState(
            sourceSize: PixelSize(validWidth: 4000, height: 6000), orientation: .rightTop,
            crop: Rect(x: 4000, y: 1000, width: 1500, height: 1000), straighten: 12)
        let plan = s.renderPlan()
        let centre = plan.outputToUpright.apply(
            to: Point(
                x: Double(plan.outputSize.width) / 2,
                y: Double(plan.outputSize.height) / 2))
        #expect(centre.isApproximatelyEqual(to: Point(x: 4750, y: 1500), tolerance: 1e-9))
        #expect(Invariants.all(s) == nil)
    }
}

@Suite("Regressions: straighten pivot")
struct StraightenPivotRegressionTests {
    @Test("straightening an off-centre crop slides the framed subject away")
    func offCentreCropKeepsItsSubject() throws {
        // A crop 2000 px right of the centre of a 6000×4000 picture, straightened 5°: with the old pivot (the
        // picture centre) the content under the crop's centre slid by 2·2000·sin(2.5°) ≈ 174.5 px.
        var s = try CropState(sourceSize: PixelSize(validWidth: 6000, height: 4000))
        try s.setCrop(Rect(center: Point(x: 5000, y: 2000), size: Size(width: 1000, height: 1000)))
        try s.setStraightenAngle(5)
        let underCentre = s.uprightPicture.toPicture(s.crop.center)
        #expect(underCentre.isApproximatelyEqual(to: Point(x: 5000, y: 2000), tolerance: 1e-9))
        #expect(s.crop.size == Size(width: 1000, height: 1000))  // it fits: no zoom needed
        // The box itself sits where the turned picture puts that content: 2000 px from the centre along 5°.
        let c = s.crop.center
        #expect(
            c.isApproximatelyEqual(
                to: Point(x: 3000 + 2000 * cos(5 * Double.pi / 180), y: 2000 - 2000 * sin(5 * Double.pi / 180)),
                tolerance: 1e-9))
        // And the rendered output is centred on it.
        let plan = s.renderPlan()
        let centre = plan.transform.apply(to: Point(x: 500, y: 500))
        #expect(centre.isApproximatelyEqual(to: Point(x: 5000, y: 2000), tolerance: 1e-9))
        try s.setStraightenAngle(0)
        #expect(s.crop == Rect(x: 4500, y: 1500, width: 1000, height: 1000))
    }

    @Test("a crop that must shrink while straightening shrinks about its content centre")
    func shrinkAboutContent() throws {
        var s = try CropState(sourceSize: PixelSize(validWidth: 6000, height: 4000))
        try s.setCrop(Rect(x: 3500, y: 500, width: 2500, height: 3000))
        try s.setStraightenAngle(-20)
        #expect(s.crop.width < 2500 && abs(s.crop.width / s.crop.height - 2500.0 / 3000) < 1e-12)
        #expect(s.cropContentCenter == Point(x: 4750, y: 2000))
        #expect(Invariants.all(s) == nil)
    }

    @Test("when the centre cannot host the minimum crop it moves the shortest way in content coordinates")
    func minimumMovesContentPoint() throws {
        var s = try CropState(sourceSize: PixelSize(validWidth: 400, height: 300), minimumCropSize: 100)
        try s.setCrop(Rect(x: 0, y: 0, width: 100, height: 100))  // content point (50, 50)
        try s.setStraightenAngle(30)
        // Half-extents of a turned 100×100 square: 50(cos 30° + sin 30°) ≈ 68.3 on both axes.
        let e = 50 * (cos(Double.pi / 6) + sin(Double.pi / 6))
        #expect(s.wantedContentCenter == Point(x: 50, y: 50))
        #expect(s.cropContentCenter.isApproximatelyEqual(to: Point(x: e, y: e), tolerance: 1e-9))
        #expect(abs(s.crop.width - 100) < 1e-9 && abs(s.crop.height - 100) < 1e-9)
        #expect(Invariants.all(s) == nil)
        try s.setStraightenAngle(0)
        #expect(s.crop == Rect(x: 0, y: 0, width: 100, height: 100))
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
