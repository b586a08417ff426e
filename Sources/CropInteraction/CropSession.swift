import CropEngine
import CropGeometry

/// The rotate-and-crop editor as a state machine: a `CropState` driven by ``CropEvent``s, with undo/redo,
/// emitting a ``CropViewState``. It knows nothing of any UI beyond view coordinates, so a browser page over a
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
public struct CropSession: Sendable {
    /// How far from a handle a finger's press still grabs it, in view points: every point of a 44-point square
    /// centred on a corner is within it (44/2·√2 ≈ 31.1), as touch guidelines ask of a target.
    public static let fingerReach = 32.0
    /// How far a finger pressed outside the box must move before it draws a new box, in view points.
    public static let fingerDrawSlop = 16.0

    /// The crop being edited.
    public internal(set) var state: CropState
    /// The viewport's size.
    public internal(set) var viewportSize: Size
    /// Insets the crop box is fitted within (room for handles and controls).
    public internal(set) var insets: EdgeInsets
    /// The pointer mode.
    public internal(set) var mode: InteractionMode = .crop
    /// Tunables.
    public let configuration: Configuration

    var gesture = Gesture.none
    /// The state when the current gesture began: the base for recomputation and the undo step it makes.
    var gestureStart: CropState
    /// The layout when the current gesture began (frozen for box gestures).
    var gestureLayout: DisplayLayout
    /// The state a pinch recomputes from (the undo base is older when a drag turned into the pinch).
    var pinchBase: CropState?
    var pointers: [Int: Point] = [:]
    /// Whether the current pointer gesture has moved past the tap slop.
    var isDragging = false
    /// The press under way is a finger's (``PointerIntent/touch``).
    var pressIsFinger = false
    var undoStack: [CropState] = []
    var redoStack: [CropState] = []

    enum Gesture: Equatable {
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

        var name: CropGesture {
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
            case .pressing(_, let p, _), .drawing(_, let p), .moving(_, let p), .resizing(_, _, let p),
                .panning(_, let p):
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
    public init(
        state: CropState, viewportSize: Size, insets: EdgeInsets = .zero,
        configuration: Configuration = Configuration()
    ) throws(GeometryError) {
        try requireNonNegative(configuration.touchRadius, "touchRadius")
        try requireNonNegative(configuration.handleSize, "handleSize")
        try requireNonNegative(configuration.tapSlop, "tapSlop")
        try requireNonNegative(configuration.straightenSnap, "straightenSnap")
        try requireNonNegative(configuration.rotationThreshold, "rotationThreshold")
        guard configuration.historyLimit >= 0 else {
            throw .invalidValue(
                name: "historyLimit", value: Double(configuration.historyLimit),
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
    var fittedLayout: DisplayLayout? {
        try? state.displayLayout(
            viewportSize: viewportSize, insets: insets, maximumBoxFraction: configuration.maximumBoxFraction)
    }

    /// What a UI should draw now.
    public var viewState: CropViewState {
        let layout = self.layout
        let preview = configuration.previewSize ?? state.sourceSize
        let box = layout.cropBox, side = configuration.handleSize
        return CropViewState(
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

    var showsGrid: Bool {
        switch gesture {
        case .drawing, .moving, .resizing, .panning, .pinching: true
        case .straightening(let slider): slider
        default: false
        }
    }
}
