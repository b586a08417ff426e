import CropEngine
import CropGeometry
import CropInteraction

/// A ``CropEvent`` as at most ``count`` numbers: the form the page's module (`cropkit-engine.js`) writes into the
/// WebAssembly module's memory for every event, so a pointer move costs no JSON and no string.
///
/// The first number is the kind, the rest its fields in the order below; unused slots are ignored.
///
/// | kind | event | fields |
/// |---|---|---|
/// | 0 | pointerDown | id, x, y, intent (0 auto, 1 pan, 2 draw, 3 touch) |
/// | 1 | pointerMove | id, x, y |
/// | 2 | pointerUp | id, x, y |
/// | 3 | pointerCancel | id |
/// | 4 | zoom | factor, anchor x, anchor y |
/// | 5 | straighten | angle, final (0/1) |
/// | 6 | straightenBy | delta |
/// | 7 | rotate | direction (0 clockwise, 1 counter-clockwise), policy (0 followPicture, 1 keepOutputRatio) |
/// | 8 | flip | axis (0 horizontal, 1 vertical) |
/// | 9 | aspect | lock (0 free, 1 original, 2 W:H), W, H |
/// | 10 | swapAspect | — |
/// | 11 | nudge | dx, dy |
/// | 12 | resizeBy | handle (`CropHandle.allCases` index), dx, dy |
/// | 13 | resetCrop | — |
/// | 14 | reset | — |
/// | 15 | undo | — |
/// | 16 | redo | — |
/// | 17 | viewport | width, height, inset top, left, bottom, right |
/// | 18 | mode | 0 crop, 1 pan |
/// | 19 | setCrop (not a `CropEvent`: `CropSession.setCrop(orientedRect:)`) | x, y, width, height |
///
/// The kinds are also written in `cropkit-engine.js`; `NumericWireTests` reads that file and fails if the two
/// tables differ.
package enum NumericEvent {
    /// The most numbers an event takes.
    package static let count = 7

    /// The kinds, by name, as the page's module names them.
    package static let kinds: [(name: String, code: Int)] = [
        ("pointerDown", 0), ("pointerMove", 1), ("pointerUp", 2), ("pointerCancel", 3), ("zoom", 4),
        ("straighten", 5), ("straightenBy", 6), ("rotate", 7), ("flip", 8), ("aspect", 9), ("swapAspect", 10),
        ("nudge", 11), ("resizeBy", 12), ("resetCrop", 13), ("reset", 14), ("undo", 15), ("redo", 16),
        ("viewport", 17), ("mode", 18), ("setCrop", 19),
    ]

    /// The kind of `setCrop`, which is applied with `CropSession.setCrop(orientedRect:)`.
    package static let setCropKind = 19.0

    /// What a row of numbers says: an event, or a crop to set.
    package enum Decoded: Equatable {
        case event(CropEvent)
        case setCrop(Rect)
    }

    /// Reads one event; `nil` for an unknown kind or a field out of its set (an index, a ratio that is not whole).
    package static func decode(_ n: UnsafePointer<Double>) -> Decoded? {
        func point(_ i: Int) -> Point { Point(x: n[i], y: n[i + 1]) }
        func index(_ i: Int, below limit: Int) -> Int? {
            let v = n[i]
            guard v >= 0, v < Double(limit), v == v.rounded(.towardZero) else { return nil }
            return Int(v)
        }
        func id(_ i: Int) -> Int? {
            let v = n[i]
            guard v.isFinite, abs(v) < 9.0e15, v == v.rounded(.towardZero) else { return nil }
            return Int(v)
        }
        guard let kind = index(0, below: kinds.count) else { return nil }
        switch kind {
        case 0:
            guard let id = id(1), let intent = index(4, below: 4) else { return nil }
            let intents: [PointerIntent] = [.auto, .pan, .draw, .touch]
            return .event(.pointerDown(id: id, location: point(2), intent: intents[intent]))
        case 1:
            guard let id = id(1) else { return nil }
            return .event(.pointerMove(id: id, location: point(2)))
        case 2:
            guard let id = id(1) else { return nil }
            return .event(.pointerUp(id: id, location: point(2)))
        case 3:
            guard let id = id(1) else { return nil }
            return .event(.pointerCancel(id: id))
        case 4: return .event(.zoom(factor: n[1], anchor: point(2)))
        case 5: return .event(.straighten(angle: n[1], isFinal: n[2] != 0))
        case 6: return .event(.straightenBy(delta: n[1]))
        case 7:
            guard let turn = index(1, below: 2), let policy = index(2, below: 2) else { return nil }
            return .event(
                .rotate(
                    turn == 0 ? .clockwise : .counterClockwise,
                    aspectPolicy: policy == 0 ? .followPicture : .keepOutputRatio))
        case 8:
            guard let axis = index(1, below: 2) else { return nil }
            return .event(.flip(axis == 0 ? .horizontal : .vertical))
        case 9:
            guard let lock = aspectLock(n + 1) else { return nil }
            return .event(.aspect(lock))
        case 10: return .event(.swapAspect)
        case 11: return .event(.nudge(dx: n[1], dy: n[2]))
        case 12:
            guard let handle = index(1, below: CropHandle.allCases.count) else { return nil }
            return .event(.resizeBy(handle: CropHandle.allCases[handle], dx: n[2], dy: n[3]))
        case 13: return .event(.resetCrop)
        case 14: return .event(.reset)
        case 15: return .event(.undo)
        case 16: return .event(.redo)
        case 17:
            return .event(
                .viewport(
                    size: Size(width: n[1], height: n[2]),
                    insets: EdgeInsets(top: n[3], left: n[4], bottom: n[5], right: n[6])))
        case 18:
            guard let mode = index(1, below: 2) else { return nil }
            return .event(.mode(mode == 0 ? .crop : .pan))
        default:
            return .setCrop(Rect(x: n[1], y: n[2], width: n[3], height: n[4]))
        }
    }

    /// An aspect lock from three numbers: kind (0 free, 1 original, 2 W:H), W, H.
    package static func aspectLock(_ n: UnsafePointer<Double>) -> AspectLock? {
        switch n[0] {
        case 0: return .free
        case 1: return .original
        case 2:
            guard n[1] >= 1, n[2] >= 1, n[1] <= 1e9, n[2] <= 1e9,
                n[1] == n[1].rounded(.towardZero), n[2] == n[2].rounded(.towardZero),
                let ratio = try? AspectRatio(Int(n[1]), Int(n[2]))
            else { return nil }
            return .ratio(ratio)
        default: return nil
        }
    }

    /// The three numbers of an aspect lock.
    package static func numbers(_ lock: AspectLock) -> [Double] {
        switch lock {
        case .free: [0, 0, 0]
        case .original: [1, 0, 0]
        case .ratio(let r): [2, Double(r.width), Double(r.height)]
        }
    }

    /// The numbers of `decoded`, padded to ``count``: what `decode` reads back as the same event.
    package static func encode(_ decoded: Decoded) -> [Double] {
        var row: [Double]
        switch decoded {
        case .setCrop(let r): row = [setCropKind, r.minX, r.minY, r.width, r.height]
        case .event(let event):
            switch event {
            case .pointerDown(let id, let p, let intent):
                let code: Double =
                    switch intent {
                    case .auto: 0
                    case .pan: 1
                    case .draw: 2
                    case .touch: 3
                    }
                row = [0, Double(id), p.x, p.y, code]
            case .pointerMove(let id, let p): row = [1, Double(id), p.x, p.y]
            case .pointerUp(let id, let p): row = [2, Double(id), p.x, p.y]
            case .pointerCancel(let id): row = [3, Double(id)]
            case .zoom(let factor, let p): row = [4, factor, p.x, p.y]
            case .straighten(let angle, let isFinal): row = [5, angle, isFinal ? 1 : 0]
            case .straightenBy(let delta): row = [6, delta]
            case .rotate(let turn, let policy):
                row = [7, turn == .clockwise ? 0 : 1, policy == .followPicture ? 0 : 1]
            case .flip(let axis): row = [8, axis == .horizontal ? 0 : 1]
            case .aspect(let lock): row = [9] + numbers(lock)
            case .swapAspect: row = [10]
            case .nudge(let dx, let dy): row = [11, dx, dy]
            case .resizeBy(let handle, let dx, let dy):
                row = [12, Double(CropHandle.allCases.firstIndex(of: handle) ?? 0), dx, dy]
            case .resetCrop: row = [13]
            case .reset: row = [14]
            case .undo: row = [15]
            case .redo: row = [16]
            case .viewport(let size, let i): row = [17, size.width, size.height, i.top, i.left, i.bottom, i.right]
            case .mode(let mode): row = [18, mode == .crop ? 0 : 1]
            }
        }
        return row + [Double](repeating: 0, count: count - row.count)
    }
}
