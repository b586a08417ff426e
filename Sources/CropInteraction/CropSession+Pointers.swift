import CropEngine
import CropGeometry

/// Pointer gestures: a press decides the gesture; moves recompute it from its start.
extension CropSession {
    // MARK: Pointers

    mutating func pointerDown(id: Int, at p: Point, intent: PointerIntent) throws(GeometryError) {
        pointers[id] = p
        let active = gesture.pointerIDs
        if active.count == 1, active[0] != id, let first = pointers[active[0]] {
            // A second pointer: pinch, continuing the same undo step.
            beginPointerGesture(
                .pinching(first: active[0], second: id, firstStart: first, secondStart: p),
                keepStart: true)
            return
        }
        guard active.isEmpty else { return }  // a third pointer, or the same id again
        commit()
        let layout = self.layout
        if intent == .pan || mode == .pan {
            return beginPointerGesture(.panning(pointer: id, start: p))
        }
        if intent == .draw {
            return beginPointerGesture(.pressing(pointer: id, start: p, outside: false))
        }
        let box = layout.cropBox
        pressIsFinger = intent == .touch
        let reach = pressIsFinger ? max(configuration.touchRadius, Self.fingerReach) : configuration.touchRadius
        if let handle = CropHandle.hitTest(p, rect: box, radius: reach) {
            return beginPointerGesture(.resizing(pointer: id, handle: handle, start: p))
        }
        if box.contains(p) {
            if state.canMoveCrop() { return beginPointerGesture(.moving(pointer: id, start: p)) }
            return beginPointerGesture(.pressing(pointer: id, start: p, outside: false))
        }
        beginPointerGesture(.pressing(pointer: id, start: p, outside: true))
    }

    /// Starts a pointer gesture. Its view → frame mapping is the layout fitted to the current crop (a drag that
    /// turns into a pinch unfreezes the view). With `keepStart` the undo step continues the current gesture's.
    mutating func beginPointerGesture(_ g: Gesture, keepStart: Bool = false) {
        if !keepStart { gestureStart = state }
        pinchBase = state
        isDragging = false
        gestureLayout = fittedLayout ?? gestureLayout
        gesture = g
    }

    mutating func update() throws(GeometryError) {
        let k = gestureLayout.scale
        if !isDragging {
            // Until a single pointer leaves the tap slop nothing moves (a tap is not a tiny drag).
            if let id = gesture.pointerIDs.first, let start = gesture.startPoint {
                var slop = configuration.tapSlop
                if pressIsFinger, case .pressing(_, _, true) = gesture { slop = max(slop, Self.fingerDrawSlop) }
                guard let p = pointers[id], p.distance(to: start) >= slop else { return }
            }
            isDragging = true
        }
        /// The pointer's displacement since `start`, in frame pixels.
        func delta(_ id: Int, from start: Point) -> Point? {
            pointers[id].map { Point(x: ($0.x - start.x) / k, y: ($0.y - start.y) / k) }
        }
        if case .pressing(let id, let start, _) = gesture {
            gesture = .drawing(pointer: id, start: start)
        }
        // Always recomputed from the gesture's start state, never accumulated on the current one.
        var s = gestureStart
        switch gesture {
        case .drawing(let id, let start):
            guard let p = pointers[id] else { return }
            try s.drawCrop(from: gestureLayout.framePoint(fromView: start), to: gestureLayout.framePoint(fromView: p))
        case .moving(let id, let start):
            guard let d = delta(id, from: start) else { return }
            try s.moveCrop(by: d)
        case .resizing(let id, let handle, let start):
            guard let d = delta(id, from: start) else { return }
            try s.resizeCrop(handle, to: handle.position(in: s.crop) + d)
        case .panning(let id, let start):
            guard let d = delta(id, from: start) else { return }
            try s.panPicture(by: d)
        case .pinching(let a, let b, let a0, let b0):
            guard let pa = pointers[a], let pb = pointers[b], let base = pinchBase else { return }
            s = base
            let d0 = a0.distance(to: b0), d = pa.distance(to: pb)
            let factor = d0 > 0 && d > 0 ? d / d0 : 1
            let mid0 = Point(x: (a0.x + b0.x) / 2, y: (a0.y + b0.y) / 2)
            let mid = Point(x: (pa.x + pb.x) / 2, y: (pa.y + pb.y) / 2)
            // Turning the fingers (clockwise on screen is a positive turn) turns the picture with them, about the
            // box's centre; the zoom's anchor is then read in the turned frame, laid out as the box stays.
            var turned = gestureLayout
            if let angle = try pinchStraightenAngle(base: base.straightenAngle, from: b0 - a0, to: pb - pa) {
                try s.setStraightenAngle(angle)
                turned = s.displayLayout(
                    viewportSize: viewportSize, insets: insets, maximumBoxFraction: configuration.maximumBoxFraction,
                    scale: k, frameAnchor: s.crop.center, viewAnchor: gestureLayout.cropBox.center)
            }
            let before = s.crop.width
            try s.zoom(by: factor, anchor: turned.framePoint(fromView: mid0))
            // The picture follows the midpoint at the zoomed scale.
            let k1 = k * before / s.crop.width
            try s.panPicture(by: Point(x: (mid.x - mid0.x) / k1, y: (mid.y - mid0.y) / k1))
        default:
            return
        }
        state = s
    }

    /// The straighten angle a pinch sets when its fingers turned from `start` to `now` (view vectors from the first
    /// finger to the second), or nil while the turn is within the threshold.
    func pinchStraightenAngle(base: Double, from start: Point, to now: Point) throws(GeometryError)
        -> Double?
    {
        guard start != .zero, now != .zero else { return nil }
        var turn = (EngineMath.atan2(now.y, now.x) - EngineMath.atan2(start.y, start.x)) * 180 / .pi
        if turn > 180 { turn -= 360 } else if turn < -180 { turn += 360 }
        let threshold = configuration.rotationThreshold
        guard abs(turn) > threshold else { return nil }
        // The straighten angle is counter-clockwise on screen; a clockwise turn of the fingers lowers it.
        let angle = base - (turn - (turn > 0 ? threshold : -threshold))
        let limit = CropState.maximumStraightenAngle
        return snapped(angle.clamped(-limit, limit))
    }

    /// `angle`, or exactly 0 when it lies within the snap of 0°.
    func snapped(_ angle: Double) -> Double {
        abs(angle) < configuration.straightenSnap ? 0 : angle
    }

    mutating func pointerUp(id: Int) throws(GeometryError) {
        defer { pointers[id] = nil }
        guard gesture.pointerIDs.contains(id) else { return }
        try update()
        if case .pressing(_, _, let outside) = gesture, outside, !pressIsFinger {
            state.resetCrop()  // a tap outside the box (a finger's may be a stray touch: nothing happens)
        }
        commit()
    }
}
