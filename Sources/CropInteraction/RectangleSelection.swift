import CropEngine
import CropGeometry

/// The classic drag-to-crop image view, as a state machine with no UI framework.
///
/// The image (its upright, full-resolution size) is laid out in ``viewBounds`` by a `ContentMode`. Events carry
/// view coordinates; the ``selection`` is a rectangle in the image's *full-resolution* pixels, or `nil`.
///
/// - A drag starting outside the selection (or with none) draws a new one anchored at the press, in whichever
///   quadrant the finger goes.
/// - A drag inside moves it; a drag on a corner or edge handle (within ``Configuration/touchRadius`` view points)
///   resizes it, the opposite corner or edge staying put.
/// - A tap (a press that moves less than ``Configuration/tapSlop``) outside clears it; a tap anywhere else changes
///   nothing (moves and resizes also wait for the slop).
/// - Every position is computed from the drag's start, not from accumulated deltas, so the result depends only on
///   where the finger is, and a drag that returns to its start restores the selection exactly.
/// - Everything is clamped to the visible part of the image's frame in the view (for `aspectFill`, the part inside
///   the bounds); the aspect lock and the minimum size (image pixels) apply.
public struct RectangleSelection: Hashable, Sendable {
    /// Tunables, in view points unless stated.
    public struct Configuration: Hashable, Sendable {
        /// How far from a handle a press still grabs it.
        public var touchRadius: Double
        /// A press that moves less than this is a tap.
        public var tapSlop: Double
        /// The smallest selection side, in image pixels.
        public var minimumSize: Double

        /// Creates a configuration.
        public init(touchRadius: Double = 22, tapSlop: Double = 4, minimumSize: Double = 1) {
            self.touchRadius = touchRadius
            self.tapSlop = tapSlop
            self.minimumSize = minimumSize
        }
    }

    /// A touch or mouse event in view coordinates.
    public enum Event: Hashable, Sendable {
        /// A touch started at this view point.
        case began(Point)
        /// The touch moved to this view point.
        case moved(Point)
        /// The touch lifted at this view point.
        case ended(Point)
        /// The gesture was interrupted: the selection returns to what it was when it began.
        case cancelled
    }

    /// What the current touch is doing.
    public enum Interaction: Hashable, Sendable {
        /// No touch.
        case idle
        /// Pressed outside the selection; becomes ``drawing`` once it moves past the tap slop.
        case pressing
        /// Drawing a new selection from the press point.
        case drawing
        /// Moving the selection.
        case moving
        /// Resizing the selection by a handle.
        case resizing(CropHandle)
    }

    /// What lies under a view point.
    public enum Hit: Hashable, Sendable {
        /// A resize handle.
        case handle(CropHandle)
        /// Inside the selection, away from the handles.
        case inside
        /// Outside the selection.
        case outside
    }

    /// The image's upright full-resolution size.
    public let imageSize: PixelSize
    /// How the image is laid out in the bounds.
    public let contentMode: ContentMode
    /// Tunables.
    public let configuration: Configuration
    /// The view's bounds.
    public private(set) var viewBounds: Rect
    /// The aspect constraint (`.original` is the image's ratio).
    public private(set) var aspectLock: AspectLock
    /// The selection in image pixels, or `nil`.
    public private(set) var selection: Rect?
    /// What the current touch is doing.
    public private(set) var interaction: Interaction = .idle

    private var startPoint = Point.zero
    private var startSelection: Rect?
    /// Whether the current touch has moved past the tap slop (until then it is a tap and changes nothing).
    private var isDragging = false

    /// Creates a selection model. Throws when the bounds, configuration or initial selection are not valid.
    public init(
        imageSize: PixelSize, viewBounds: Rect, contentMode: ContentMode = .aspectFit, aspectLock: AspectLock = .free,
        configuration: Configuration = Configuration(), selection: Rect? = nil
    ) throws(GeometryError) {
        try requireValid(viewBounds, "viewBounds")
        try requireNonNegative(configuration.touchRadius, "touchRadius")
        try requireNonNegative(configuration.tapSlop, "tapSlop")
        try requirePositive(configuration.minimumSize, "minimumSize")
        self.imageSize = imageSize
        self.contentMode = contentMode
        self.configuration = configuration
        self.viewBounds = viewBounds
        self.aspectLock = aspectLock
        guard visibleImageRect != nil else {
            throw .invalidRect("viewBounds \(viewBounds): the image is not visible in it with \(contentMode)")
        }
        if let selection { try setSelection(selection) }
    }

    // MARK: Geometry

    /// Image pixel coordinates → view coordinates.
    public var imageToView: AffineTransform2D {
        // Valid by construction: non-empty image and bounds.
        contentMode.imageToViewTransform(imageSize: imageSize.size, in: viewBounds) ?? .identity
    }

    /// The part of the image that can be selected (the image, less what lies outside the bounds), in image pixels.
    public var visibleImageRect: Rect? {
        guard let toImage = imageToView.inverted() else { return nil }
        return Rect(size: imageSize.size).intersection(toImage.apply(to: viewBounds))
    }

    /// The selection in view coordinates.
    public var selectionInView: Rect? { selection.map(imageToView.apply(to:)) }

    /// What lies under `viewPoint`: a handle (within the touch radius), the selection's inside, or outside.
    public func hitTest(_ viewPoint: Point) -> Hit {
        guard let box = selectionInView else { return .outside }
        if let handle = CropHandle.hitTest(viewPoint, rect: box, radius: configuration.touchRadius) {
            return .handle(handle)
        }
        return box.contains(viewPoint) ? .inside : .outside
    }

    // MARK: Editing

    /// Feeds one touch event.
    public mutating func handle(_ event: Event) throws(GeometryError) {
        switch event {
        case .began(let p):
            try requireFinite(p, "point")
            startPoint = p
            startSelection = selection
            isDragging = false
            switch hitTest(p) {
            case .handle(let h): interaction = .resizing(h)
            case .inside: interaction = .moving
            case .outside: interaction = .pressing
            }
        case .moved(let p):
            try requireFinite(p, "point")
            try update(to: p)
        case .ended(let p):
            try requireFinite(p, "point")
            try update(to: p)
            if interaction == .pressing {
                // A tap: outside the selection it clears it.
                selection = nil
            }
            interaction = .idle
        case .cancelled:
            selection = startSelection
            interaction = .idle
        }
    }

    private mutating func update(to p: Point) throws(GeometryError) {
        guard let region = visibleImageRect, let toImage = imageToView.inverted() else { return }
        try requireFinite(p - startPoint, "drag")  // finite points can still be infinitely far apart
        let picture = StraightenedPicture(bounds: region, angleDegrees: 0)
        let m = Swift.min(configuration.minimumSize, region.width, region.height)
        let unit = lockUnit
        if !isDragging {
            // Until the touch leaves the tap slop it is a tap: nothing moves. After, positions count from the start.
            guard p.distance(to: startPoint) >= configuration.tapSlop else { return }
            isDragging = true
        }
        switch interaction {
        case .idle:
            return
        case .pressing:
            interaction = .drawing
            try update(to: p)
        case .drawing:
            let anchor = picture.clampPoint(picture.tamed(toImage.apply(to: startPoint)))
            let q = picture.tamed(toImage.apply(to: p))
            selection = picture.frameRect(
                picture.cornerCrop(
                    anchor: anchor, dx: q.x - anchor.x, dy: q.y - anchor.y,
                    desired: Size(width: abs(q.x - anchor.x), height: abs(q.y - anchor.y)), unit: unit, minimumSide: m))
        case .moving:
            guard let start = startSelection else { return }
            let target = picture.tamed(start.center + toImage.applyLinear(to: p - startPoint))
            selection = picture.frameRect(picture.moved(picture.contentCrop(frame: start), by: target - start.center))
        case .resizing(let handle):
            guard let start = startSelection else { return }
            let target = picture.tamed(handle.position(in: start) + toImage.applyLinear(to: p - startPoint))
            selection = picture.frameRect(
                picture.resized(
                    picture.contentCrop(frame: start), handle: handle, to: target, unit: unit, minimumSide: m))
        }
    }

    /// Replaces the selection (image pixels), or clears it with `nil`. A locked selection becomes the largest of the
    /// lock's proportions inside `rect`, centred; it is then moved (and if need be shrunk) into the visible image.
    public mutating func setSelection(_ rect: Rect?) throws(GeometryError) {
        guard var rect else {
            selection = nil
            return
        }
        try requireValid(rect, "selection")
        guard let region = visibleImageRect else { return }
        if let unit = lockUnit {
            rect = Rect(center: rect.center, size: unit * Swift.min(rect.width / unit.width, rect.height / unit.height))
        }
        let picture = StraightenedPicture(bounds: region, angleDegrees: 0)
        selection = picture.frameRect(
            picture.settle(
                frame: rect, minimumSide: Swift.min(configuration.minimumSize, region.width, region.height)))
    }

    /// Clears the selection.
    public mutating func clear() {
        selection = nil
        interaction = .idle
    }

    /// Sets the aspect lock; an existing selection becomes the largest of that ratio in the visible image, centred
    /// on it as far as possible.
    public mutating func setAspectLock(_ lock: AspectLock) {
        aspectLock = lock
        guard let current = selection, let unit = lockUnit, let region = visibleImageRect else { return }
        let picture = StraightenedPicture(bounds: region, angleDegrees: 0)
        selection = picture.frameRect(picture.largestCrop(unit: unit, near: current.center))
    }

    /// Changes the view's bounds (a rotation or resize of the view); the selection, in image pixels, is kept and
    /// clamped to what is visible.
    public mutating func setViewBounds(_ bounds: Rect) throws(GeometryError) {
        try requireValid(bounds, "viewBounds")
        var copy = self
        copy.viewBounds = bounds
        guard copy.visibleImageRect != nil else {
            throw .invalidRect("viewBounds \(bounds): the image is not visible in it with \(contentMode)")
        }
        try copy.setSelection(selection)
        self = copy
    }

    private var lockUnit: Size? {
        aspectLock.aspectRatio(uprightSize: imageSize).map { Size(width: Double($0.width), height: Double($0.height)) }
    }
}
