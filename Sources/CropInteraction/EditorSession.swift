import CropEngine
import CropGeometry

/// The rotate-and-crop editor as a state machine: a `CropState` driven by ``EditorEvent``s, with undo/redo,
/// emitting an ``EditorViewState``. It knows nothing of any UI beyond view coordinates, so a browser page over a
/// WebSocket and a native view drive it alike.
///
/// **Display.** The crop box is shown as large as possible in the viewport less its insets, but no larger than
/// ``Configuration/maximumBoxFraction`` of the viewport on either axis
/// (`CropState.displayLayout(viewportSize:insets:maximumBoxFraction:)`), so a band of the surrounding picture
/// always shows around it for the UI to dim and for the user to draw a new box in or tap on. While the box itself is
/// being drawn, moved or resized, the view is *frozen* (the box moves on screen); when that gesture ends the view
/// re-fits to the new crop (a UI may animate the change). Picture gestures (pan, pinch, wheel zoom), straightening
/// and nudges re-fit continuously, so the box stays put and the picture moves under it: while the straighten
/// slider moves, the picture turns about the box's centre (the content under it stays under it) and zooms just
/// enough to keep the box free of fill.
///
/// **Pointers** (`pointerDown`/`Move`/`Up` with ids), in ``InteractionMode/crop``:
/// - on a handle (within ``Configuration/touchRadius``): resize, the opposite corner or edge fixed;
/// - inside the box: move it — or, if the box cannot move (it fills the picture), draw a new one;
/// - outside the box: a drag draws a new box from the press point (clamped into the picture), in any direction; a
///   tap (less than ``Configuration/tapSlop`` of movement) resets the crop to the whole picture (a tap anywhere else
///   changes nothing: moves, resizes and pans also wait for the slop, then count from the press);
/// - `intent: "pan"` or ``InteractionMode/pan``: pan the picture under the box; `intent: "draw"`: always draw;
///   `intent: "touch"` (a finger): as auto, with handles grabbed within ``fingerReach``, no reset on a tap outside,
///   and a new box drawn only after ``fingerDrawSlop`` of movement;
/// - a second pointer turns the gesture into a pinch: zoom about the two pointers' midpoint by the ratio of their
///   distances, and pan with the midpoint. Turning the two fingers past ``Configuration/rotationThreshold``
///   straightens the picture with them (beyond the threshold, degree for degree). A third pointer is ignored.
///
/// **Snapping.** A slider value (`straighten`) or a two-finger turn that lands within
/// ``Configuration/straightenSnap`` of 0° snaps to exactly 0°; the ±0.1° steps (`straightenBy`) never snap.
/// Every position is computed from the gesture's start, never from accumulated deltas.
///
/// **Undo.** Each gesture is one undo step, however many moves it has; so are runs of consecutive `zoom`,
/// `nudge`, `resizeBy` (of one handle), or `straighten`/`straightenBy` events (a run ends at any other event, or at a `straighten` with
/// `final: true`). Discrete controls are one step each. A step that changes nothing is not recorded. Viewport and
/// mode changes are not undoable.
///
/// **Errors.** An event with a NaN, infinite or out-of-range value throws `GeometryError` and changes nothing.
public struct EditorSession: Sendable {
    /// Tunables, in view points unless stated.
    public struct Configuration: Hashable, Sendable, Codable {
        /// How far from a handle a press still grabs it.
        public var touchRadius: Double
        /// The side of a handle's square in the view state.
        public var handleSize: Double
        /// A press that moves less than this is a tap.
        public var tapSlop: Double
        /// How many undo steps are kept.
        public var historyLimit: Int
        /// The size of the stored-orientation preview image the browser draws (`nil`: the source size).
        public var previewSize: PixelSize?
        /// The context margin: the largest share of the viewport's width and of its height the crop box may take,
        /// in `(0, 1]`. The default 0.8 keeps at least a tenth of the viewport on each side of a centred box for the
        /// surrounding picture; 1 fits the box to the viewport less its insets alone.
        public var maximumBoxFraction: Double
        /// Degrees: a slider value or a two-finger turn within this of 0° snaps to 0°. 0 turns snapping off.
        public var straightenSnap: Double
        /// Degrees the two fingers of a pinch must turn before the picture turns with them, so that a pinch meant
        /// only to zoom never tilts the picture.
        public var rotationThreshold: Double
        /// An aspect ratio the host requires (an avatar, a fixed output size): the crop always has it, whatever
        /// the events. `aspect` and `swapAspect` events change nothing, quarter turns keep the output ratio, and a
        /// reset comes back to the largest crop of this ratio. `nil`: the person chooses.
        public var fixedAspect: AspectRatio?

        /// Creates a configuration.
        public init(touchRadius: Double = 24, handleSize: Double = 20, tapSlop: Double = 5, historyLimit: Int = 100,
                    previewSize: PixelSize? = nil, maximumBoxFraction: Double = 0.8, straightenSnap: Double = 0.5,
                    rotationThreshold: Double = 4, fixedAspect: AspectRatio? = nil)
        {
            self.fixedAspect = fixedAspect
            self.touchRadius = touchRadius
            self.handleSize = handleSize
            self.tapSlop = tapSlop
            self.historyLimit = historyLimit
            self.previewSize = previewSize
            self.maximumBoxFraction = maximumBoxFraction
            self.straightenSnap = straightenSnap
            self.rotationThreshold = rotationThreshold
        }

        private enum Key: String, CodingKey {
            case touchRadius, handleSize, tapSlop, historyLimit, previewSize, maximumBoxFraction, straightenSnap
            case rotationThreshold, fixedAspect
        }

        /// Decodes a configuration; every field is optional and takes its default when missing.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            let defaults = Configuration()
            self.init(
                touchRadius: try c.decodeIfPresent(Double.self, forKey: .touchRadius) ?? defaults.touchRadius,
                handleSize: try c.decodeIfPresent(Double.self, forKey: .handleSize) ?? defaults.handleSize,
                tapSlop: try c.decodeIfPresent(Double.self, forKey: .tapSlop) ?? defaults.tapSlop,
                historyLimit: try c.decodeIfPresent(Int.self, forKey: .historyLimit) ?? defaults.historyLimit,
                previewSize: try c.decodeIfPresent(PixelSize.self, forKey: .previewSize),
                maximumBoxFraction: try c.decodeIfPresent(Double.self, forKey: .maximumBoxFraction)
                    ?? defaults.maximumBoxFraction,
                straightenSnap: try c.decodeIfPresent(Double.self, forKey: .straightenSnap) ?? defaults.straightenSnap,
                rotationThreshold: try c.decodeIfPresent(Double.self, forKey: .rotationThreshold)
                    ?? defaults.rotationThreshold)
            switch try c.decodeIfPresent(AspectLock.self, forKey: .fixedAspect) {
            case nil: fixedAspect = nil
            case .ratio(let ratio)?: fixedAspect = ratio
            case let other?:
                throw DecodingError.dataCorruptedError(
                    forKey: .fixedAspect, in: c, debugDescription: "fixedAspect '\(other)' is not a W:H ratio")
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(touchRadius, forKey: .touchRadius)
            try c.encode(handleSize, forKey: .handleSize)
            try c.encode(tapSlop, forKey: .tapSlop)
            try c.encode(historyLimit, forKey: .historyLimit)
            try c.encodeIfPresent(previewSize, forKey: .previewSize)
            try c.encode(maximumBoxFraction, forKey: .maximumBoxFraction)
            try c.encode(straightenSnap, forKey: .straightenSnap)
            try c.encode(rotationThreshold, forKey: .rotationThreshold)
            try c.encodeIfPresent(fixedAspect.map(AspectLock.ratio), forKey: .fixedAspect)
        }
    }

    /// How far from a handle a finger's press still grabs it, in view points: every point of a 44-point square
    /// centred on a corner is within it (44/2·√2 ≈ 31.1), as touch guidelines ask of a target.
    public static let fingerReach = 32.0
    /// How far a finger pressed outside the box must move before it draws a new box, in view points.
    public static let fingerDrawSlop = 16.0

    /// The crop being edited.
    public private(set) var state: CropState
    /// The viewport's size.
    public private(set) var viewportSize: Size
    /// Insets the crop box is fitted within (room for handles and controls).
    public private(set) var insets: EdgeInsets
    /// The pointer mode.
    public private(set) var mode: InteractionMode = .crop
    /// Tunables.
    public let configuration: Configuration

    private var gesture = Gesture.none
    /// The state when the current gesture began: the base for recomputation and the undo step it makes.
    private var gestureStart: CropState
    /// The layout when the current gesture began (frozen for box gestures).
    private var gestureLayout: DisplayLayout
    /// The state a pinch recomputes from (the undo base is older when a drag turned into the pinch).
    private var pinchBase: CropState?
    private var pointers: [Int: Point] = [:]
    /// Whether the current pointer gesture has moved past the tap slop.
    private var isDragging = false
    /// The press under way is a finger's (``PointerIntent/touch``).
    private var pressIsFinger = false
    private var undoStack: [CropState] = []
    private var redoStack: [CropState] = []

    private enum Gesture: Equatable {
        case none
        case pressing(pointer: Int, start: Point, outside: Bool)
        case drawing(pointer: Int, start: Point)
        case moving(pointer: Int, start: Point)
        case resizing(pointer: Int, handle: CropHandle, start: Point)
        case panning(pointer: Int, start: Point)
        case pinching(first: Int, second: Int, firstStart: Point, secondStart: Point)
        case straightening(slider: Bool)
        case zooming
        case nudging
        case keyResizing(CropHandle)

        var name: EditorGesture {
            switch self {
            case .none: .none
            case .pressing: .pressing
            case .drawing: .drawing
            case .moving: .moving
            case .resizing: .resizing
            case .panning: .panning
            case .pinching: .pinching
            case .straightening: .straightening
            case .zooming: .zooming
            case .nudging: .nudging
            case .keyResizing: .keyResizing
            }
        }

        /// Gestures on the box itself, during which the view is frozen.
        var freezesView: Bool {
            switch self {
            case .drawing, .moving, .resizing, .pressing: true
            default: false
            }
        }

        /// Where a single-pointer gesture's pointer went down.
        var startPoint: Point? {
            switch self {
            case .pressing(_, let p, _), .drawing(_, let p), .moving(_, let p), .resizing(_, _, let p), .panning(_, let p):
                p
            default: nil
            }
        }

        var pointerIDs: [Int] {
            switch self {
            case .pressing(let p, _, _), .drawing(let p, _), .moving(let p, _), .resizing(let p, _, _),
                .panning(let p, _):
                [p]
            case .pinching(let a, let b, _, _): [a, b]
            default: []
            }
        }
    }

    /// Creates a session on `state` for a viewport.
    public init(state: CropState, viewportSize: Size, insets: EdgeInsets = .zero,
                configuration: Configuration = Configuration()) throws(GeometryError)
    {
        try requireNonNegative(configuration.touchRadius, "touchRadius")
        try requireNonNegative(configuration.handleSize, "handleSize")
        try requireNonNegative(configuration.tapSlop, "tapSlop")
        try requireNonNegative(configuration.straightenSnap, "straightenSnap")
        try requireNonNegative(configuration.rotationThreshold, "rotationThreshold")
        guard configuration.historyLimit >= 0 else {
            throw .invalidValue(name: "historyLimit", value: Double(configuration.historyLimit),
                                reason: "must not be negative")
        }
        var state = state
        if let fixed = configuration.fixedAspect, state.aspectLock != .ratio(fixed) {
            state.setAspectLock(.ratio(fixed))
        }
        let layout = try state.displayLayout(
            viewportSize: viewportSize, insets: insets, maximumBoxFraction: configuration.maximumBoxFraction)
        self.state = state
        self.viewportSize = viewportSize
        self.insets = insets
        self.configuration = configuration
        self.gestureStart = state
        self.gestureLayout = layout
    }

    // MARK: Output

    /// Whether there is a step to undo (including a gesture in progress that changed something).
    public var canUndo: Bool { !undoStack.isEmpty || (gesture != .none && state != gestureStart) }

    /// Whether there is a step to redo.
    public var canRedo: Bool { !redoStack.isEmpty && !(gesture != .none && state != gestureStart) }

    /// The layout currently shown: frozen during a gesture on the box, fitted to the crop otherwise.
    public var layout: DisplayLayout {
        if gesture.freezesView {
            let frozen = gestureLayout
            return state.displayLayout(
                viewportSize: viewportSize, insets: insets, maximumBoxFraction: configuration.maximumBoxFraction,
                scale: frozen.scale, frameAnchor: gestureStart.crop.center, viewAnchor: frozen.cropBox.center)
        }
        return fittedLayout ?? gestureLayout
    }

    /// The layout fitted to the current crop. The viewport, insets and fraction were validated when set, so the
    /// fit cannot fail.
    private var fittedLayout: DisplayLayout? {
        try? state.displayLayout(
            viewportSize: viewportSize, insets: insets, maximumBoxFraction: configuration.maximumBoxFraction)
    }

    /// What a UI should draw now.
    public var viewState: EditorViewState {
        let layout = self.layout
        let preview = configuration.previewSize ?? state.sourceSize
        let box = layout.cropBox, side = configuration.handleSize
        return EditorViewState(
            viewportSize: viewportSize, imageSize: preview,
            imageTransform: layout.storedPreviewTransform(previewSize: preview.size, sourceSize: state.sourceSize),
            cropBox: box,
            handles: CropHandle.allCases.map {
                .init(handle: $0, rect: Rect(center: $0.position(in: box), size: Size(width: side, height: side)))
            },
            pictureCorners: layout.pictureCorners,
            showsGrid: showsGrid, angle: state.straightenAngle, quarterTurns: state.quarterTurns,
            flipped: state.isFlipped, aspect: state.aspectLock, outputSize: state.outputSize, canUndo: canUndo,
            canRedo: canRedo, mode: mode, gesture: gesture.name, recipe: state.recipe,
            wantedBox: layout.frameToView.apply(to: state.wantedCrop),
            minimumSide: state.effectiveMinimumCropSize * layout.scale)
    }

    private var showsGrid: Bool {
        switch gesture {
        case .drawing, .moving, .resizing, .panning, .pinching: true
        case .straightening(let slider): slider
        default: false
        }
    }

    // MARK: Events

    /// Applies one event and returns the new view state. Throws (changing nothing) on invalid input.
    @discardableResult
    public mutating func handle(_ event: EditorEvent) throws(GeometryError) -> EditorViewState {
        var copy = self
        try copy.apply(event)
        self = copy
        return viewState
    }

    /// Sets the crop to `rect` of the oriented picture (`CropState.setCrop(orientedRect:)`: the picture as shown,
    /// before the session's turns and flips) as one undo step, ending any gesture first: how a server applies a crop
    /// CropKit proposed for the picture. Throws (changing nothing) for a rectangle outside the picture.
    @discardableResult
    public mutating func setCrop(orientedRect rect: Rect) throws(GeometryError) -> EditorViewState {
        var copy = self
        copy.commit()
        let before = copy.state
        try copy.state.setCrop(orientedRect: rect)
        copy.record(before)
        self = copy
        return viewState
    }

    private mutating func apply(_ event: EditorEvent) throws(GeometryError) {
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
            try state.setStraightenAngle(target.clamped(-CropState.maximumStraightenAngle,
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
                let slope = Double(ratio.height) / Double(ratio.width)
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

    // MARK: Pointers

    private mutating func pointerDown(id: Int, at p: Point, intent: PointerIntent) throws(GeometryError) {
        pointers[id] = p
        let active = gesture.pointerIDs
        if active.count == 1, active[0] != id, let first = pointers[active[0]] {
            // A second pointer: pinch, continuing the same undo step.
            beginPointerGesture(.pinching(first: active[0], second: id, firstStart: first, secondStart: p),
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
    private mutating func beginPointerGesture(_ g: Gesture, keepStart: Bool = false) {
        if !keepStart { gestureStart = state }
        pinchBase = state
        isDragging = false
        gestureLayout = fittedLayout ?? gestureLayout
        gesture = g
    }

    private mutating func update() throws(GeometryError) {
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
    private func pinchStraightenAngle(base: Double, from start: Point, to now: Point) throws(GeometryError)
        -> Double?
    {
        guard start != .zero, now != .zero else { return nil }
        var turn = (atan2(now.y, now.x) - atan2(start.y, start.x)) * 180 / .pi
        if turn > 180 { turn -= 360 } else if turn < -180 { turn += 360 }
        let threshold = configuration.rotationThreshold
        guard abs(turn) > threshold else { return nil }
        // The straighten angle is counter-clockwise on screen; a clockwise turn of the fingers lowers it.
        let angle = base - (turn - (turn > 0 ? threshold : -threshold))
        let limit = CropState.maximumStraightenAngle
        return snapped(angle.clamped(-limit, limit))
    }

    /// `angle`, or exactly 0 when it lies within the snap of 0°.
    private func snapped(_ angle: Double) -> Double {
        abs(angle) < configuration.straightenSnap ? 0 : angle
    }

    private mutating func pointerUp(id: Int) throws(GeometryError) {
        defer { pointers[id] = nil }
        guard gesture.pointerIDs.contains(id) else { return }
        try update()
        if case .pressing(_, _, let outside) = gesture, outside, !pressIsFinger {
            state.resetCrop()  // a tap outside the box (a finger's may be a stray touch: nothing happens)
        }
        commit()
    }

    // MARK: Undo steps

    /// Continues a run of coalesced events of kind `g`, or ends the current gesture and starts the run.
    private mutating func continueRun(_ g: Gesture) throws(GeometryError) {
        let sameKind: Bool
        switch (gesture, g) {
        case (.straightening, .straightening), (.zooming, .zooming), (.nudging, .nudging): sameKind = true
        case (.keyResizing(let a), .keyResizing(let b)): sameKind = a == b
        default: sameKind = false
        }
        if !sameKind {
            commit()
            gestureStart = state
            gesture = g
        }
    }

    /// A one-step discrete edit.
    private mutating func discrete(_ edit: (inout CropState) -> Void) {
        commit()
        let before = state
        edit(&state)
        record(before)
    }

    /// Ends the current gesture or run, recording it as one undo step if it changed anything.
    private mutating func commit() {
        guard gesture != .none else { return }
        gesture = .none
        pinchBase = nil
        record(gestureStart)
        gestureStart = state
    }

    private mutating func record(_ before: CropState) {
        guard before != state else { return }
        undoStack.append(before)
        if undoStack.count > configuration.historyLimit { undoStack.removeFirst(undoStack.count - configuration.historyLimit) }
        redoStack.removeAll()
    }
}

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
