import CropGeometry
import CropTestSupport
import Testing

@testable import CropEngine
@testable import CropInteraction

/// `resizeBy`: the arrow keys on a focused handle move that corner or edge by source pixels.
@Suite("Handle steps (resizeBy)")
struct HandleStepTests {
    func session(_ state: CropState) throws -> CropSession {
        try CropSession(state: state, viewportSize: Size(width: 900, height: 700), insets: EdgeInsets(all: 50))
    }

    @Test("steps of 1, 10 and 100 px move one handle exactly; a run on one handle is one undo step")
    func exactSteps() throws {
        let start = try CropState(sourceSize: PixelSize(validWidth: 4000, height: 3000), minimumCropSize: 10)
        var s = try session(start)
        for (dx, dy) in [(-100.0, 0.0), (-10, -1), (0, -100)] {
            try s.handle(.resizeBy(handle: .bottomRight, dx: dx, dy: dy))
        }
        #expect(s.state.crop == Rect(x: 0, y: 0, width: 3890, height: 2899))
        #expect(s.state.outputSize == PixelSize(validWidth: 3890, height: 2899))
        #expect(s.viewState.gesture == .keyResizing)
        try s.handle(.resizeBy(handle: .top, dx: 50, dy: 10))  // an edge handle ignores the other axis
        #expect(s.state.crop == Rect(x: 0, y: 10, width: 3890, height: 2889))
        try s.handle(.undo)  // the top edge's run
        #expect(s.state.crop == Rect(x: 0, y: 0, width: 3890, height: 2899))
        try s.handle(.undo)  // the bottom-right corner's run
        #expect(s.state == start && !s.canUndo)
    }

    @Test("the picture and the minimum size bound a step; an aspect lock keeps its ratio")
    func bounds() throws {
        var s = try session(try CropState(sourceSize: PixelSize(validWidth: 4000, height: 3000), minimumCropSize: 10))
        try s.handle(.resizeBy(handle: .right, dx: 100, dy: 0))  // already at the picture's edge
        #expect(s.state.crop == Rect(x: 0, y: 0, width: 4000, height: 3000))
        try s.handle(.resizeBy(handle: .left, dx: 5000, dy: 0))  // past the right edge: stops at the minimum
        #expect(s.state.crop == Rect(x: 3990, y: 0, width: 10, height: 3000))
        try s.handle(.reset)
        try s.handle(.aspect(.ratio(1, 1)))
        try s.handle(.resizeBy(handle: .bottomRight, dx: -100, dy: -100))
        #expect(s.state.outputSize == PixelSize(validWidth: 2900, height: 2900))
        // One axis at a time: the locked corner moves along the diagonal.
        try s.handle(.resizeBy(handle: .bottomRight, dx: -100, dy: 0))
        #expect(s.state.crop == Rect(x: 500, y: 0, width: 2800, height: 2800))
        try s.handle(.resizeBy(handle: .topLeft, dx: 0, dy: 10))
        #expect(s.state.crop == Rect(x: 510, y: 10, width: 2790, height: 2790))
        try s.handle(.aspect(.ratio(try AspectRatio(2, 1))))
        let wide = s.state.crop
        try s.handle(.resizeBy(handle: .topRight, dx: 0, dy: 10))  // 10 px lower: 20 px narrower
        let narrower = s.state.crop
        #expect(
            abs(narrower.height - (wide.height - 10)) < 1e-9 && abs(narrower.width - (wide.width - 20)) < 1e-9,
            "\(wide) → \(narrower)")
        #expect(narrower.minX == wide.minX && narrower.maxY == wide.maxY, "the bottom-left corner stays")
        #expect(throws: GeometryError.self) { try s.handle(.resizeBy(handle: .top, dx: 0, dy: .infinity)) }
    }

    @Test("over 1,000 seeded states and steps: the opposite corner stays, the crop stays valid, free steps are exact")
    func seeded() throws {
        var rng = SplitMix64(seed: 1414)
        var exact = 0
        for i in 0..<1_000 {
            var s = try session(try Random.state(&rng))
            let handle = rng.pick(CropHandle.allCases)
            let before = s.state.crop, locked = s.state.aspectRatio != nil
            let d = Point(x: rng.pick([-100, -10, -1, 1, 10, 100]), y: rng.pick([-100, -10, -1, 1, 10, 100]))
            try s.handle(.resizeBy(handle: handle, dx: d.x, dy: d.y))
            let after = s.state.crop
            var failures: [String] = []
            if let broken = Invariants.all(s.state) { failures.append(broken) }
            // (A random state may start below the minimum side, which the step then restores.)
            let startsValid = min(before.width, before.height) >= s.state.effectiveMinimumCropSize - 1e-9
            if handle.isCorner, startsValid {
                let opposite = CropHandle.allCases.first {
                    $0.isCorner && $0.horizontalDirection == -handle.horizontalDirection
                        && $0.verticalDirection == -handle.verticalDirection
                }!
                if opposite.position(in: after).distance(to: opposite.position(in: before)) > 1e-6 * before.width {
                    failures.append("the opposite corner moved: \(before) → \(after)")
                }
            }
            // An unlocked, unstraightened corner step whose target lies inside the picture, on its side of the
            // opposite corner and farther from it than the minimum side, lands exactly.
            let target = handle.position(in: before) + d
            let picture = Rect(size: s.state.uprightSize.size)
            let minimum = s.state.effectiveMinimumCropSize + 1
            if !locked, handle.isCorner, s.state.straightenAngle == 0, picture.contains(target) {
                let o = Point(
                    x: before.midX - Double(handle.horizontalDirection) * before.width / 2,
                    y: before.midY - Double(handle.verticalDirection) * before.height / 2)
                let w = (target.x - o.x) * Double(handle.horizontalDirection)
                let h = (target.y - o.y) * Double(handle.verticalDirection)
                if w > minimum, h > minimum {
                    exact += 1
                    if handle.position(in: after).distance(to: target) > 1e-6 * max(1, before.width) {
                        failures.append("the corner went to \(handle.position(in: after)), not \(target)")
                    }
                }
            }
            if !failures.isEmpty {
                Issue.record("case \(i), \(handle) by \(d): \(failures)")
                return
            }
        }
        #expect(exact > 100, "only \(exact) exact cases were checked")
    }
}
