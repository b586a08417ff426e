import CropGeometry
import CropTestSupport
import Foundation
import Testing

@testable import CropEngine
@testable import CropInteraction

/// Seeded random property tests: ≥ 10,000 cases each, every invariant after every operation.
@Suite("Hostile input")
struct HostileInputTests {
    static let extremes: [Double] = [
        .nan, .infinity, -.infinity, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
        1e300, -1e300, 0, -0.0, .leastNonzeroMagnitude, -1,
    ]

    @Test("extreme values either throw GeometryError or leave a valid state, in every model (10,000 cases)")
    func extremeValues() throws {
        var rng = SplitMix64(seed: 31)
        func value() -> Double { rng.bool() ? rng.pick(Self.extremes) : rng.double(-1e4...1e4) }
        func point() -> Point { Point(x: value(), y: value()) }
        for i in 0..<10_000 {
            var s = try Random.state(&rng)
            let before = s
            let which = rng.int(0...7)
            do {
                switch which {
                case 0: try s.moveCrop(by: point())
                case 1: try s.zoom(by: value(), anchor: point())
                case 2: try s.resizeCrop(rng.pick(CropHandle.allCases), to: point())
                case 3: try s.drawCrop(from: point(), to: point())
                case 4: try s.setCrop(Rect(origin: point(), size: Size(width: value(), height: value())))
                case 5: try s.setStraightenAngle(value())
                case 6: try s.straighten(by: value())
                default: try s.panPicture(by: point())
                }
            } catch {
                if s != before { Issue.record("case \(i): a throwing operation changed the state") }
                continue
            }
            if let failure = Invariants.all(s) {
                Issue.record("case \(i), operation \(which) on \(before): \(failure)")
                return
            }
        }
        // The interaction models: events with extreme coordinates.
        var selection = try RectangleSelection(
            imageSize: PixelSize(validWidth: 400, height: 300),
            viewBounds: Rect(x: 0, y: 0, width: 200, height: 200))
        var viewport = try ZoomViewport(
            imageSize: PixelSize(validWidth: 400, height: 300), viewportSize: Size(width: 300, height: 300),
            cropFrame: Rect(x: 50, y: 50, width: 200, height: 200))
        var session = try CropSession(
            state: CropState(sourceSize: PixelSize(validWidth: 400, height: 300)),
            viewportSize: Size(width: 300, height: 300))
        for _ in 0..<3_000 {
            let events: [RectangleSelection.Event] = [.began(point()), .moved(point()), .ended(point())]
            for e in events { try? selection.handle(e) }
            if let r = selection.selection, !(r.isFinite && r.width > 0 && r.height > 0) {
                Issue.record("selection became \(r)")
                return
            }
            try? viewport.handle(.began(anchor: point()))
            try? viewport.handle(.changed(translation: point(), scale: value()))
            try? viewport.handle(.zoom(factor: value(), anchor: point()))
            try? viewport.pan(by: point())
            if !(viewport.imageOrigin.isFinite && viewport.zoomScale.isFinite && viewport.cropRect.isFinite) {
                Issue.record("viewport became \(viewport)")
                return
            }
            for e: CropEvent in [
                .pointerDown(id: 1, location: point(), intent: .auto),
                .pointerMove(id: 1, location: point()), .pointerUp(id: 1, location: point()),
                .zoom(factor: value(), anchor: point()), .nudge(dx: value(), dy: value()),
            ] {
                _ = try? session.handle(e)
            }
            if let failure = Invariants.all(session.state) {
                Issue.record("session: \(failure)")
                return
            }
        }
    }
}
