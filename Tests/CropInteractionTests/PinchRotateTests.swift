import CropGeometry
import CropTestSupport
import Testing

@testable import CropEngine
@testable import CropInteraction

/// Two fingers that turn straighten the picture; the slider and the turn snap at 0°.
@Suite("Two-finger rotate and snapping")
struct PinchRotateTests {
    func session(_ state: CropState? = nil) throws -> CropSession {
        try CropSession(
            state: state ?? CropState(sourceSize: PixelSize(validWidth: 4000, height: 3000), minimumCropSize: 10),
            viewportSize: Size(width: 900, height: 700), insets: EdgeInsets(all: 50))
    }

    /// Puts two fingers `radius` apart about `centre`, turns them by `degrees` (clockwise on screen when positive)
    /// in `steps` moves, and lifts them.
    func twist(
        _ s: inout CropSession, by degrees: Double, about centre: Point = Point(x: 450, y: 350),
        radius: Double = 100, steps: Int = 8, lift: Bool = true
    ) throws {
        func finger(_ sign: Double, _ t: Double) -> Point {
            let a = t * .pi / 180
            return Point(x: centre.x + sign * radius * cos(a), y: centre.y + sign * radius * sin(a))
        }
        try s.handle(.pointerDown(id: 1, location: finger(-1, 0), intent: .auto))
        try s.handle(.pointerDown(id: 2, location: finger(1, 0), intent: .auto))
        for i in 1...steps {
            let t = degrees * Double(i) / Double(steps)
            try s.handle(.pointerMove(id: 1, location: finger(-1, t)))
            try s.handle(.pointerMove(id: 2, location: finger(1, t)))
        }
        if lift {
            try s.handle(.pointerUp(id: 2, location: finger(1, degrees)))
            try s.handle(.pointerUp(id: 1, location: finger(-1, degrees)))
        }
    }

    /// The on-screen rotation (clockwise positive, degrees) of the picture between two layouts.
    func screenTurn(from a: DisplayLayout, to b: DisplayLayout) -> Double {
        let t0 = a.storedToView, t1 = b.storedToView
        // Linear parts L = [a c; b d]; M = L1 · L0⁻¹ is a rotation times a scale (same mirroring).
        let det = t0.a * t0.d - t0.b * t0.c
        let i = (a: t0.d / det, b: -t0.b / det, c: -t0.c / det, d: t0.a / det)
        let ma = t1.a * i.a + t1.c * i.b, mb = t1.b * i.a + t1.d * i.b
        return atan2(mb, ma) * 180 / .pi
    }

    @Test("a turn within the 4° threshold only zooms; past it the picture turns with the fingers, as one undo step")
    func turnsWithTheFingers() throws {
        var s = try session()
        try twist(&s, by: 3.5)
        #expect(s.state.straightenAngle == 0 && !s.canUndo)
        for flipped in [false, true] {
            var s = try session()
            if flipped { try s.handle(.flip(.horizontal)) }
            let before = s.layout
            try twist(&s, by: 20, lift: false)
            // Clockwise fingers: the straighten angle (counter-clockwise positive) drops by 20 − 4.
            // (The angle is counter-clockwise on screen whatever the flips.)
            #expect(abs(s.state.straightenAngle + 16) < 1e-9, "angle \(s.state.straightenAngle)")
            let turn = screenTurn(from: before, to: s.layout)
            #expect(abs(turn - 16) < 1e-6, "the picture turned \(turn)° on screen (flipped: \(flipped))")
            #expect(s.viewState.cropBox.isApproximatelyEqual(to: before.cropBox, tolerance: 1e-6), "the box stays")
            #expect(Invariants.all(s.state) == nil)
            try s.handle(.pointerUp(id: 2, location: .zero))
            try s.handle(.pointerUp(id: 1, location: .zero))
            try s.handle(.undo)
            #expect(s.state.straightenAngle == 0 && s.state.crop == Rect(x: 0, y: 0, width: 4000, height: 3000))
        }
        var back = try session()
        try twist(&back, by: -30)  // counter-clockwise
        #expect(abs(back.state.straightenAngle - 26) < 1e-9)
    }

    @Test("a turn or a slider value near 0° snaps to exactly 0°; steps of 0.1° do not")
    func snapping() throws {
        var t = try session()
        try t.handle(.straighten(angle: 5, isFinal: true))
        try twist(&t, by: 8.7)  // 5 − (8.7 − 4) = 0.3: snapped
        #expect(t.state.straightenAngle == 0)
        try t.handle(.undo)
        try twist(&t, by: 8)  // 5 − (8 − 4) = 1: kept
        #expect(abs(t.state.straightenAngle - 1) < 1e-9)
        try t.handle(.straighten(angle: 0.4, isFinal: false))
        #expect(t.state.straightenAngle == 0)
        try t.handle(.straighten(angle: -0.6, isFinal: true))
        #expect(t.state.straightenAngle == -0.6)
        for _ in 0..<9 { try t.handle(.straightenBy(delta: 0.1)) }
        #expect(abs(t.state.straightenAngle - 0.3) < 1e-12)
        var off = try CropSession(
            state: CropState(sourceSize: PixelSize(validWidth: 400, height: 300)),
            viewportSize: Size(width: 900, height: 700),
            configuration: .init(straightenSnap: 0))
        try off.handle(.straighten(angle: 0.2, isFinal: true))
        #expect(off.state.straightenAngle == 0.2)
    }

    @Test("over 300 seeded pinches: the turn follows the fingers beyond the threshold and the crop stays valid")
    func seeded() throws {
        var rng = SplitMix64(seed: 2626)
        for i in 0..<300 {
            var s = try session(try Random.state(&rng))
            let base = s.state.straightenAngle
            let degrees = rng.double(-40...40)
            try twist(&s, by: degrees, radius: rng.double(30...200), steps: rng.int(1...6))
            var expected = abs(degrees) <= 4 ? base : base - (degrees - (degrees > 0 ? 4 : -4))
            expected = min(45, max(-45, expected))
            if abs(degrees) > 4, abs(expected) < 0.5 { expected = 0 }
            var failures: [String] = []
            if abs(s.state.straightenAngle - expected) > 1e-9 {
                failures.append("angle \(s.state.straightenAngle), expected \(expected)")
            }
            if let broken = Invariants.all(s.state) { failures.append(broken) }
            if !failures.isEmpty {
                Issue.record("case \(i), turn \(degrees)° from \(base)°: \(failures)")
                return
            }
        }
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
