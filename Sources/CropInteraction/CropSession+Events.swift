import CropEngine
import CropGeometry

/// The events: how each `CropEvent` changes the session.
extension CropSession {
    // MARK: Events

    /// Applies one event and returns the new view state. Throws (changing nothing) on invalid input.
    @discardableResult
    public mutating func handle(_ event: CropEvent) throws(GeometryError) -> CropViewState {
        var copy = self
        try copy.apply(event)
        self = copy
        return viewState
    }

    /// Sets the crop to `rect` of the oriented picture (`CropState.setCrop(orientedRect:)`: the picture as shown,
    /// before the session's turns and flips) as one undo step, ending any gesture first: how a server applies a crop
    /// CropKit proposed for the picture. Throws (changing nothing) for a rectangle outside the picture.
    @discardableResult
    public mutating func setCrop(orientedRect rect: Rect) throws(GeometryError) -> CropViewState {
        var copy = self
        copy.commit()
        let before = copy.state
        try copy.state.setCrop(orientedRect: rect)
        copy.record(before)
        self = copy
        return viewState
    }

    mutating func apply(_ event: CropEvent) throws(GeometryError) {
        switch event {
        case .pointerDown(let id, let p, let intent):
            try requireFinite(p, "location")
            try pointerDown(id: id, at: p, intent: intent)
        case .pointerMove(let id, let p):
            try requireFinite(p, "location")
            guard pointers[id] != nil else { return }
            pointers[id] = p
            try update()
        case .pointerUp(let id, let p):
            try requireFinite(p, "location")
            guard pointers[id] != nil else { return }
            pointers[id] = p
            try pointerUp(id: id)
        case .pointerCancel(let id):
            guard pointers.removeValue(forKey: id) != nil else { return }
            if gesture.pointerIDs.contains(id) {
                state = gestureStart
                gesture = .none
            }
        case .zoom(let factor, let anchor):
            try requirePositive(factor, "factor")
            try requireFinite(anchor, "anchor")
            try continueRun(.zooming)
            let frame = layout.framePoint(fromView: anchor)
            try state.zoom(by: factor, anchor: frame)
        case .straighten(let angle, let isFinal):
            try continueRun(.straightening(slider: !isFinal))
            try state.setStraightenAngle(snapped(angle))
            if isFinal { commit() } else { gesture = .straightening(slider: true) }
        case .straightenBy(let delta):
            try requireFinite(delta, "delta")
            let slider = gesture == .straightening(slider: true)
            try continueRun(.straightening(slider: slider))
            // Steps land on multiples of 0.1° so that +0.1 then −0.1 returns to exactly 0.
            let target = ((state.straightenAngle + delta) * 1000).rounded() / 1000
            try state.setStraightenAngle(
                target.clamped(
                    -CropState.maximumStraightenAngle,
                    CropState.maximumStraightenAngle))
        case .nudge(let dx, let dy):
            let delta = Point(x: dx, y: dy)
            try requireFinite(delta, "nudge")
            try continueRun(.nudging)
            try state.moveCrop(by: delta)
        case .resizeBy(let handle, let dx, let dy):
            var delta = Point(x: dx, y: dy)
            try requireFinite(delta, "resize")
            if handle.isCorner, let ratio = state.aspectRatio, (dx == 0) != (dy == 0) {
                // A locked corner follows the larger of its two sides, so a step along one axis alone would often
                // change nothing: it moves along the lock's diagonal instead.
                let slope =
                    Double(ratio.height) / Double(ratio.width)
                    * Double(handle.verticalDirection) / Double(handle.horizontalDirection)
                if dy == 0 { delta.y = dx * slope } else { delta.x = dy / slope }
            }
            try continueRun(.keyResizing(handle))
            try state.resizeCrop(handle, to: handle.position(in: state.crop) + delta)
        case .rotate(let direction, let policy):
            let kept = configuration.fixedAspect == nil ? policy : .keepOutputRatio
            discrete { $0.rotate(direction, aspectPolicy: kept) }
        case .flip(let axis):
            discrete { $0.flip(axis) }
        case .aspect(let lock):
            guard configuration.fixedAspect == nil else { return }
            // A preset keeps the person's framing: the largest crop of the new aspect inside the current one.
            discrete { $0.fitAspectLock(lock) }
        case .swapAspect:
            guard configuration.fixedAspect == nil else { return }
            discrete { $0.swapAspect() }
        case .resetCrop:
            discrete { $0.resetCrop() }
        case .reset:
            let fixed = configuration.fixedAspect
            discrete {
                $0.reset()
                if let fixed { $0.setAspectLock(.ratio(fixed)) }
            }
        case .undo:
            commit()
            guard let previous = undoStack.popLast() else { return }
            redoStack.append(state)
            state = previous
        case .redo:
            commit()
            guard let next = redoStack.popLast() else { return }
            undoStack.append(state)
            state = next
        case .viewport(let size, let newInsets):
            _ = try state.displayLayout(  // validates
                viewportSize: size, insets: newInsets, maximumBoxFraction: configuration.maximumBoxFraction)
            commit()
            viewportSize = size
            insets = newInsets
        case .mode(let newMode):
            commit()
            mode = newMode
        }
    }
}
