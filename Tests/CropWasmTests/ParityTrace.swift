import CropEngine
import CropGeometry
import CropInteraction
import CropTestSupport
import Foundation

@testable import CropEditor
@testable import CropWasm

/// A seeded trace of sessions and events with the native engine's view state after each, in the form
/// `Tests/Wasm/replay.mjs` replays through the WebAssembly module.
///
/// `trace.bin` (little-endian doubles): the format version (1) and the session count; then per session its
/// ``SessionParameters`` numbers, its event count and, per event, the event's ``NumericEvent`` numbers, the status
/// (`NumericSession.Status`) and the ``NumericViewState`` numbers after it (the unchanged state when refused).
/// `views.json`: for every 97th event, `{session, event, view}` with the editor server's JSON of that state.
struct ParityTrace {
    var binary = Data()
    var viewsJSON = Data()
    var eventCount = 0
    var refused = 0
    var kinds: Set<Int> = []
    var orientations: Set<Int> = []
    var gestures: Set<CropGesture> = []
    var lockedStates = 0
    var straightenedStates = 0

    static func generate(seed: UInt64, sessions: Int, eventsPerSession: Int) throws -> ParityTrace {
        var rng = SplitMix64(seed: seed)
        var trace = ParityTrace()
        var doubles: [Double] = [1, Double(sessions)]
        var views: [[String: Any]] = []
        for sessionIndex in 0..<sessions {
            let (parameters, orientation) = makeParameters(&rng)
            var session = try parameters.withUnsafeBufferPointer { p throws(SessionParameters.Failure) in
                try NumericSession(parameters: p.baseAddress!)
            }
            trace.orientations.insert(orientation)
            var events: [[Double]] = []
            while events.count < eventsPerSession {
                let view = session.session.viewState
                for decoded in randomSequence(&rng, view: view) where events.count < eventsPerSession {
                    events.append(NumericEvent.encode(decoded))
                    // Apply now, so later events of the sequence aim at the state they will meet.
                    var state = [Double](repeating: 0, count: NumericViewState.count)
                    let status = events.last!.withUnsafeBufferPointer { e in
                        state.withUnsafeMutableBufferPointer { s in session.apply(e.baseAddress!, state: s.baseAddress!)
                        }
                    }
                    if status != .applied { state = NumericViewState.numbers(session.session.viewState) }
                    events[events.count - 1] += [Double(status.rawValue)] + state
                    trace.eventCount += 1
                    trace.kinds.insert(Int(events.last![0]))
                    if status == .refused { trace.refused += 1 }
                    let after = session.session.viewState
                    trace.gestures.insert(after.gesture)
                    if after.aspect != .free { trace.lockedStates += 1 }
                    if after.angle != 0 { trace.straightenedStates += 1 }
                    if trace.eventCount % 97 == 0 {
                        let json = try JSONEncoder().encode(ViewStateMessage(after))
                        views.append([
                            "session": sessionIndex, "event": events.count - 1,
                            "view": try JSONSerialization.jsonObject(with: json),
                        ])
                    }
                }
            }
            doubles += parameters + [Double(events.count)] + events.flatMap { $0 }
        }
        trace.binary = doubles.withUnsafeBufferPointer { Data(buffer: $0) }
        trace.viewsJSON = try JSONSerialization.data(withJSONObject: views)
        return trace
    }

    /// Parameters of a random session: any orientation, sizes from a pixel to a large photo, any configuration,
    /// sometimes a fixed aspect, sometimes a starting recipe.
    static func makeParameters(_ rng: inout SplitMix64) -> ([Double], Int) {
        while true {
            let orientation = rng.int(1...8)
            let source = try! PixelSize(
                width: rng.pick([1, 2, 3, 17, 640, 1000, 4032, 6000, rng.int(1...8000)]),
                height: rng.pick([1, 2, 5, 480, 750, 3024, 4000, rng.int(1...8000)]))
            let viewport = Size(width: rng.double(200...1600), height: rng.double(150...1200))
            let insets =
                rng.int(0...2) == 0
                ? EdgeInsets(
                    top: rng.double(0...40), left: rng.double(0...40), bottom: rng.double(0...80),
                    right: rng.double(0...40))
                : .zero
            var configuration = CropSession.Configuration(
                touchRadius: rng.double(8...40), handleSize: rng.double(10...30), tapSlop: rng.double(0...10),
                historyLimit: rng.pick([0, 1, 5, 100]), maximumBoxFraction: rng.double(0.5...1),
                straightenSnap: rng.pick([0, 0.5, 2]), rotationThreshold: rng.pick([0, 4, 10]))
            if rng.bool() {
                configuration.previewSize = try! PixelSize(
                    width: max(1, source.width / rng.int(1...8)), height: max(1, source.height / rng.int(1...8)))
            }
            if rng.int(0...5) == 0 { configuration.fixedAspect = try! AspectRatio(rng.int(1...21), rng.int(1...9)) }
            var recipe: Recipe?
            if rng.int(0...3) == 0 {
                recipe = try? Recipe(
                    cropCenter: Point(x: rng.double(0.3...0.7), y: rng.double(0.3...0.7)),
                    cropSize: Size(width: rng.double(0.1...0.6), height: rng.double(0.1...0.6)),
                    angle: rng.pick([0, rng.double(-10...10), rng.double(-45...45)]), quarterTurns: rng.int(0...3),
                    flipHorizontal: rng.bool(), aspect: rng.pick([.free, .original]))
            }
            let numbers = SessionParameters.numbers(
                source: source, orientation: Orientation(rawValue: orientation)!,
                minimumCropSize: rng.pick([1, 0.5, 10, 64]),
                viewport: viewport, insets: insets, configuration: configuration, recipe: recipe)
            let made = numbers.withUnsafeBufferPointer { p in
                Result { () throws(SessionParameters.Failure) in try NumericSession(parameters: p.baseAddress!) }
            }
            if case .success = made { return (numbers, orientation) }
        }
    }

    /// A point near one of the view's interesting places: a handle, inside the box, its edge, anywhere.
    static func target(_ rng: inout SplitMix64, _ view: CropViewState) -> Point {
        let box = view.cropBox
        switch rng.int(0...5) {
        case 0, 1:
            let handle = rng.pick(view.handles).rect
            return Point(x: handle.midX + rng.double(-12...12), y: handle.midY + rng.double(-12...12))
        case 2, 3:
            return Point(
                x: rng.double(box.minX...max(box.minX, box.maxX)), y: rng.double(box.minY...max(box.minY, box.maxY)))
        default:
            return Point(
                x: rng.double(-20...(view.viewportSize.width + 20)),
                y: rng.double(-20...(view.viewportSize.height + 20)))
        }
    }

    /// A step of a drag: mostly small, sometimes far past the picture's edge (and then back).
    static func step(_ rng: inout SplitMix64) -> Point {
        let reach = rng.pick([3.0, 30, 120, 600, 2000])
        return Point(x: rng.double(-reach...reach), y: rng.double(-reach...reach))
    }

    /// A gesture or a discrete change, as the events a UI sends for it.
    static func randomSequence(_ rng: inout SplitMix64, view: CropViewState) -> [NumericEvent.Decoded] {
        switch rng.int(0...9) {
        case 0...3:  // a one-pointer drag: draw, move, resize or pan, ended, cancelled or left open
            let id = rng.int(1...9)
            var p = target(&rng, view)
            let intent = rng.pick([PointerIntent.auto, .auto, .auto, .pan, .draw, .touch])
            var events: [NumericEvent.Decoded] = [.event(.pointerDown(id: id, location: p, intent: intent))]
            for _ in 0..<rng.int(0...8) {
                let d = step(&rng)
                p = Point(x: p.x + d.x, y: p.y + d.y)
                events.append(.event(.pointerMove(id: id, location: p)))
            }
            switch rng.int(0...9) {
            case 0: events.append(.event(.pointerCancel(id: id)))
            case 1: break
            default: events.append(.event(.pointerUp(id: id, location: p)))
            }
            return events
        case 4:  // a two-finger pinch: zoom, pan and turn
            var a = target(&rng, view), b = target(&rng, view)
            var events: [NumericEvent.Decoded] = [
                .event(.pointerDown(id: 1, location: a, intent: .touch)),
                .event(.pointerDown(id: 2, location: b, intent: .touch)),
            ]
            for _ in 0..<rng.int(1...6) {
                let angle = rng.double(-0.3...0.3), scale = rng.double(0.7...1.4)
                let mid = Point(x: (a.x + b.x) / 2 + rng.double(-20...20), y: (a.y + b.y) / 2 + rng.double(-20...20))
                func turned(_ p: Point) -> Point {
                    let (dx, dy) = ((p.x - mid.x) * scale, (p.y - mid.y) * scale)
                    return Point(
                        x: mid.x + dx * cos(angle) - dy * sin(angle), y: mid.y + dx * sin(angle) + dy * cos(angle))
                }
                (a, b) = (turned(a), turned(b))
                events.append(.event(.pointerMove(id: rng.pick([1, 2]), location: rng.bool() ? a : b)))
                events.append(.event(.pointerMove(id: 1, location: a)))
                events.append(.event(.pointerMove(id: 2, location: b)))
            }
            events.append(.event(.pointerUp(id: 2, location: b)))
            if rng.bool() { events.append(.event(.pointerUp(id: 1, location: a))) }
            return events
        default:
            return [randomEvent(&rng, view: view)]
        }
    }

    /// One event of any kind (pointer events included, for the round-trip test); `view` aims it when given.
    static func randomEvent(_ rng: inout SplitMix64, view: CropViewState?) -> NumericEvent.Decoded {
        let p = view.map { target(&rng, $0) } ?? Point(x: rng.double(-100...1000), y: rng.double(-100...1000))
        let lock: AspectLock = rng.pick([
            .free, .original, .ratio(try! AspectRatio(1, 1)), .ratio(try! AspectRatio(16, 9)),
            .ratio(try! AspectRatio(2, 3)), .ratio(try! AspectRatio(rng.int(1...50), rng.int(1...50))),
        ])
        let size = view?.outputSize.size ?? Size(width: 4000, height: 3000)
        let event: CropEvent
        switch rng.int(0...19) {
        case 0: event = .pointerDown(id: rng.int(1...3), location: p, intent: rng.pick(PointerIntent.allCases))
        case 1: event = .pointerMove(id: rng.int(1...3), location: p)
        case 2: event = .pointerUp(id: rng.int(1...3), location: p)
        case 3: event = .pointerCancel(id: rng.int(1...3))
        case 4: event = .zoom(factor: rng.pick([rng.double(0.5...2), rng.double(1...1.2), 1e-3, 1000]), anchor: p)
        case 5:
            event = .straighten(
                angle: rng.pick([rng.double(-45...45), rng.double(-0.6...0.6), 44.9, 60]), isFinal: rng.bool())
        case 6: event = .straightenBy(delta: rng.pick([0.1, -0.1, 1, -1, rng.double(-30...30)]))
        case 7: event = .rotate(rng.pick(QuarterTurn.allCases), aspectPolicy: rng.pick(RotationAspectPolicy.allCases))
        case 8: event = .flip(rng.pick(FlipAxis.allCases))
        case 9: event = .aspect(lock)
        case 10: event = .swapAspect
        case 11: event = .nudge(dx: rng.double(-80...80), dy: rng.double(-80...80))
        case 12:
            event = .resizeBy(handle: rng.pick(CropHandle.allCases), dx: rng.double(-80...80), dy: rng.double(-80...80))
        case 13: event = .resetCrop
        case 14: event = .reset
        case 15, 16: event = rng.bool() ? .undo : .redo
        case 17:
            let viewport =
                rng.int(0...15) == 0
                ? Size(width: 0, height: rng.double(100...900))
                : Size(width: rng.double(120...1800), height: rng.double(100...1300))
            event = .viewport(
                size: viewport,
                insets: rng.bool()
                    ? .zero
                    : EdgeInsets(
                        top: rng.double(0...30), left: 0,
                        bottom: rng.double(0...60), right: 0))
        case 18: event = .mode(rng.pick(InteractionMode.allCases))
        default:
            let side = max(size.width, size.height)
            let w = rng.double(1...max(1, side)), h = rng.double(1...max(1, side))
            return .setCrop(
                Rect(
                    x: rng.double(0...max(1, side - w)) * 0.9, y: rng.double(0...max(1, side - h)) * 0.9,
                    width: w * 0.8, height: h * 0.8))
        }
        return .event(event)
    }
}
