import CropGeometry
import CropTestSupport
import Foundation
import Testing

@testable import CropEngine
@testable import CropInteraction

/// The display layout's context margin (`maximumBoxFraction`) and what the editor's view state gives a page.
@Suite("Context margin and editor view state")
struct ContextMarginTests {
    /// The signed distance (view points) of `p` inside the convex quadrilateral `corners` (clockwise on screen):
    /// positive inside, negative outside.
    func depth(of p: Point, in corners: [Point]) -> Double {
        var depth = Double.infinity
        for i in 0..<corners.count {
            let a = corners[i], b = corners[(i + 1) % corners.count]
            let e = b - a, v = p - a
            depth = min(depth, (e.x * v.y - e.y * v.x) / (e.x * e.x + e.y * e.y).squareRoot())
        }
        return depth
    }

    @Test(
        "the box fits the inset area, never exceeds the fraction of the viewport, is centred and maximal (10,000 cases)"
    )
    func layoutProperties() throws {
        var rng = SplitMix64(seed: 51)
        for i in 0..<10_000 {
            let s = try Random.state(&rng)
            let viewport = Size(width: rng.double(50...2000), height: rng.double(50...2000))
            let insets = EdgeInsets(
                top: rng.double(0...20), left: rng.double(0...20), bottom: rng.double(0...20),
                right: rng.double(0...20))
            let f = rng.pick([1, 0.8, rng.double(0.05...1)])
            let layout = try s.displayLayout(viewportSize: viewport, insets: insets, maximumBoxFraction: f)
            let box = layout.cropBox, available = insets.inset(Rect(size: viewport))
            let limit = Size(
                width: min(available.width, f * viewport.width),
                height: min(available.height, f * viewport.height))
            let e = 1e-9 * max(viewport.width, viewport.height)
            var failures: [String] = []
            if box.width > limit.width + e || box.height > limit.height + e { failures.append("box exceeds \(limit)") }
            if box.width < limit.width - e && box.height < limit.height - e { failures.append("box not maximal") }
            if !available.contains(box, tolerance: e) { failures.append("box outside the inset area") }
            if box.center.distance(to: available.center) > e { failures.append("box not centred") }
            let crop = s.crop
            if abs(box.width * crop.height - box.height * crop.width) > 1e-9 * box.width * crop.height {
                failures.append("box proportions differ from the crop's")
            }
            // The crop's content point lands on the box's centre.
            let stored = s.orientation.inverseTransform(storedSize: s.sourceSize.size).apply(to: s.cropContentCenter)
            if layout.storedToView.apply(to: stored).distance(to: box.center) > 1e-6 {
                failures.append("content point not at the box centre")
            }
            // A fraction of 1 is the plain fit.
            if f == 1, try s.displayLayout(viewportSize: viewport, insets: insets) != layout {
                failures.append("fraction 1 differs from the default layout")
            }
            // (That the display transform and the render plan still differ only by a scale, with any fraction, is
            // RenderPlanTests.displayMatchesRenderPlan.)
            if !failures.isEmpty {
                Issue.record("case \(i), fraction \(f), viewport \(viewport): \(failures) — box \(box)")
                return
            }
        }
    }

    @Test("the fraction must be in (0, 1]; the session checks it when created")
    func invalidFraction() throws {
        let s = try CropState(sourceSize: PixelSize(validWidth: 400, height: 300))
        for bad in [0, -0.5, 1.0001, .nan, .infinity] {
            do {
                _ = try s.displayLayout(viewportSize: Size(width: 100, height: 100), maximumBoxFraction: bad)
                Issue.record("fraction \(bad) was accepted")
            } catch {
                guard case .invalidValue(let name, _, _) = error else {
                    Issue.record("\(error)")
                    continue
                }
                #expect(name == "maximumBoxFraction")
            }
            #expect(throws: GeometryError.self) {
                _ = try CropSession(
                    state: s, viewportSize: Size(width: 100, height: 100),
                    configuration: .init(maximumBoxFraction: bad))
            }
        }
    }

    @Test("the session's configuration decodes with defaults (0.8 context margin) and round-trips")
    func configurationJSON() throws {
        let decoder = JSONDecoder()
        let empty = try decoder.decode(CropSession.Configuration.self, from: Data("{}".utf8))
        #expect(empty == CropSession.Configuration())
        #expect(empty.maximumBoxFraction == 0.8)
        let custom = CropSession.Configuration(
            touchRadius: 30, previewSize: PixelSize(validWidth: 100, height: 75),
            maximumBoxFraction: 0.6)
        #expect(try decoder.decode(CropSession.Configuration.self, from: JSONEncoder().encode(custom)) == custom)
    }

    /// 4000×3000 in a 900×700 viewport with 50-point insets and the default 0.8 margin: the box may take at most
    /// 720×560, so the whole picture shows at scale 0.18 in (90, 80, 720, 540).
    func session(preview: PixelSize? = nil) throws -> CropSession {
        try CropSession(
            state: CropState(sourceSize: PixelSize(validWidth: 4000, height: 3000), minimumCropSize: 10),
            viewportSize: Size(width: 900, height: 700), insets: EdgeInsets(all: 50),
            configuration: .init(touchRadius: 20, handleSize: 16, tapSlop: 4, previewSize: preview))
    }

    func drag(_ s: inout CropSession, _ points: [Point]) throws {
        try s.handle(.pointerDown(id: 1, location: points[0], intent: .auto))
        for p in points.dropFirst() { try s.handle(.pointerMove(id: 1, location: p)) }
        try s.handle(.pointerUp(id: 1, location: points.last!))
    }

    @Test("with the default margin a band of picture stays around the box to draw a new box in and to tap on")
    func bandAroundTheBox() throws {
        var s = try session()
        #expect(s.viewState.cropBox.isApproximatelyEqual(to: Rect(x: 90, y: 80, width: 720, height: 540)))
        // Draw a 1000×1000 crop inside the untouched box (it cannot move, so a drag draws).
        try drag(&s, [Point(x: 270, y: 170), Point(x: 450, y: 350)])
        #expect(
            s.state.crop.isApproximatelyEqual(to: Rect(x: 1000, y: 500, width: 1000, height: 1000), tolerance: 1e-6))
        // Re-fitted at 0.56 (560 = 0.8 · 700), not 0.6: 70 points of picture remain above and below, 120 beside.
        let box = s.viewState.cropBox
        #expect(box.isApproximatelyEqual(to: Rect(x: 170, y: 70, width: 560, height: 560), tolerance: 1e-9))
        // The band shows picture: view (120, 100) is frame (910.7, 553.6), inside the picture.
        let inBand = s.layout.framePoint(fromView: Point(x: 120, y: 100))
        #expect(inBand.x > 0 && inBand.y > 0 && !s.state.crop.contains(inBand))
        // Drawing from the band makes a new box there.
        try drag(&s, [Point(x: 120, y: 100), Point(x: 100, y: 300)])
        #expect(
            s.state.crop.isApproximatelyEqual(
                to: Rect(x: 1000 - 70 / 0.56, y: 500 + 30 / 0.56, width: 20 / 0.56, height: 200 / 0.56), tolerance: 1e-6
            ))
        // A tap in the band clears the crop back to the whole picture.
        let band = s.viewState.cropBox
        try drag(&s, [Point(x: band.minX - 25, y: band.midY), Point(x: band.minX - 24, y: band.midY + 1)])
        #expect(s.state.crop == Rect(x: 0, y: 0, width: 4000, height: 3000))
    }

    @Test("while the slider moves, the box stays put and the picture turns about its centre")
    func straightenTurnsAboutTheBox() throws {
        var s = try session(preview: PixelSize(validWidth: 1000, height: 750))
        try drag(&s, [Point(x: 600, y: 150), Point(x: 760, y: 270)])  // an off-centre crop, upper right
        let box = s.viewState.cropBox, q = s.state.cropContentCenter
        let start = s.state
        #expect(q.distance(to: Point(x: 2000, y: 1500)) > 1000)
        for angle in [2.0, 5, 10, 17.5, -7, -30] {
            let v = try s.handle(.straighten(angle: angle, isFinal: false))
            #expect(v.cropBox.isApproximatelyEqual(to: box, tolerance: 1e-9), "at \(angle)°: \(v.cropBox) vs \(box)")
            // The content under the box's centre is the same picture point.
            #expect(s.state.uprightPicture.toPicture(s.state.crop.center).isApproximatelyEqual(to: q, tolerance: 1e-9))
            // …and the image transform draws that point (preview pixels, a quarter of the source) at the box centre.
            let preview = Point(x: q.x / 4, y: q.y / 4)
            #expect(v.imageTransform.apply(to: preview).isApproximatelyEqual(to: box.center, tolerance: 1e-9))
            #expect(Invariants.all(s.state) == nil)
        }
        try s.handle(.straighten(angle: 0, isFinal: true))
        #expect(s.state == start)  // there and back
        // The run changed nothing overall, so it left no undo step: undo goes back past the drawn box.
        try s.handle(.undo)
        #expect(s.state.crop == Rect(x: 0, y: 0, width: 4000, height: 3000))
    }

    @Test(
        "random sessions: the view state's recipe round-trips, the box lies inside the picture outline (5,000 states)")
    func viewStateFuzz() throws {
        var rng = SplitMix64(seed: 52)
        var checked = 0
        for run in 0..<500 {
            let size = Random.sourceSize(&rng), orientation = rng.pick(Orientation.allCases)
            let minimum = rng.pick([1.0, 8.0, 32.0])
            let viewport = Size(width: rng.double(200...1500), height: rng.double(200...1500))
            let fraction = rng.pick([0.8, 1, rng.double(0.3...1)])
            var s = try CropSession(
                state: CropState(sourceSize: size, orientation: orientation, minimumCropSize: minimum),
                viewportSize: viewport, insets: EdgeInsets(all: rng.double(0...30)),
                configuration: .init(maximumBoxFraction: fraction))
            func viewPoint() -> Point {
                Point(x: rng.double(-0.1...1.1) * viewport.width, y: rng.double(-0.1...1.1) * viewport.height)
            }
            for step in 0..<10 {
                switch rng.int(0...9) {
                case 0, 1, 2:
                    try s.handle(
                        .pointerDown(
                            id: 1, location: viewPoint(), intent: rng.pick([PointerIntent.auto, .auto, .pan, .draw])))
                    for _ in 0..<rng.int(0...3) { try s.handle(.pointerMove(id: 1, location: viewPoint())) }
                    try s.handle(.pointerUp(id: 1, location: viewPoint()))
                case 3: try s.handle(.straighten(angle: rng.double(-45...45), isFinal: rng.bool()))
                case 4:
                    try s.handle(
                        .rotate(
                            rng.pick(QuarterTurn.allCases),
                            aspectPolicy: rng.pick(RotationAspectPolicy.allCases)))
                case 5: try s.handle(.flip(rng.pick(FlipAxis.allCases)))
                case 6: try s.handle(.aspect(rng.pick(Random.locks)))
                case 7: try s.handle(.zoom(factor: rng.double(0.5...2), anchor: viewPoint()))
                case 8: try s.handle(.nudge(dx: rng.double(-50...50), dy: rng.double(-50...50)))
                default: try s.handle(rng.bool() ? .undo : .redo)
                }
                let v = s.viewState, state = s.state
                var failures: [String] = []
                let back = try CropState(
                    recipe: v.recipe, sourceSize: state.sourceSize,
                    orientation: state.sourceOrientation, minimumCropSize: state.minimumCropSize)
                if back.outputSize != v.outputSize { failures.append("recipe renders \(back.outputSize)") }
                if !back.crop.isApproximatelyEqual(to: state.crop, tolerance: 1e-6) {
                    failures.append("recipe crop \(back.crop) vs \(state.crop)")
                }
                if v.outputSize != state.renderPlan().outputSize {
                    failures.append("output size differs from the plan")
                }
                let tolerance = 1e-6 * max(1, v.cropBox.width, v.cropBox.height)
                if let corner = v.cropBox.corners.first(where: { depth(of: $0, in: v.pictureCorners) < -tolerance }) {
                    failures.append("box corner \(corner) outside the picture \(v.pictureCorners)")
                }
                if v.gesture == .none || v.gesture == .straightening || v.gesture == .zooming || v.gesture == .nudging {
                    let e = 1e-9 * max(viewport.width, viewport.height)
                    if v.cropBox.width > fraction * viewport.width + e
                        || v.cropBox.height > fraction * viewport.height + e
                    {
                        failures.append("box \(v.cropBox) takes more than \(fraction) of \(viewport)")
                    }
                }
                if !failures.isEmpty {
                    Issue.record("run \(run) step \(step): \(failures)")
                    return
                }
                checked += 1
            }
        }
        #expect(checked == 5_000)
    }
}
