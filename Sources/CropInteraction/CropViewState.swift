import CropEngine
import CropGeometry

/// What a ``CropSession`` gives a UI to draw after each event. A UI draws exactly this and holds no crop
/// mathematics of its own.
///
/// All coordinates are view points, y down. (The browser editor's JSON form of this state lives with its server, in
/// `CropEditor`.)
///
/// **Drawing the picture.** ``imageTransform`` maps pixel coordinates of the *stored-orientation* preview image (the
/// file's pixels as stored, downscaled to ``imageSize``, with no EXIF orientation applied) to view
/// coordinates; it already contains the EXIF orientation, the user's turns and flips, the straighten and the zoom.
/// In a browser: an `<img>` with `transform-origin: 0 0`, `transform: matrix(a, b, c, d, tx, ty)` and
/// `image-orientation: none` (or a preview re-encoded without EXIF), at its natural size. The stored orientation is
/// chosen so the preview is made once and never re-made when the user turns or flips, and so the server never
/// turns pixels for it.
///
/// **Outline and dimmed region.** ``pictureCorners`` are the upright picture's corners (a turned quadrilateral when
/// straightened): its outline. The region to dim is the picture outside the crop box: fill one path made of the
/// ``pictureCorners`` polygon and the ``cropBox`` rectangle with the even-odd rule (in a canvas,
/// `ctx.fill(path, "evenodd")`). The box always lies inside the picture, so that is exactly the picture less the
/// box. The session keeps a band of it visible around the box (``CropSession/Configuration/maximumBoxFraction``)
/// for drawing a new box and tapping outside.
///
/// **Straightening.** As the angle changes the box stays put and the picture turns about the box's centre; the
/// page only swaps in the new ``imageTransform`` and ``pictureCorners``.
///
/// ``outputSize`` is the pixel size **Done** produces (the full-resolution render of ``recipe``).
/// ``showsGrid`` is true while a gesture or slider drag is in progress (rule-of-thirds grid over ``cropBox``).
/// ``gesture`` names the ``CropGesture`` in progress. ``wantedBox`` and ``minimumSide`` are what a UI that draws a
/// gesture before the session's answer needs to predict it (the browser editor does; see `docs/editor.md`).
public struct CropViewState: Hashable, Sendable {
    /// A resize handle's hit area in view coordinates.
    public struct HandleRect: Hashable, Sendable {
        /// Which handle.
        public var handle: CropHandle
        /// Its square, centred on the handle's point of the crop box.
        public var rect: Rect

        /// Creates a handle's hit area.
        public init(handle: CropHandle, rect: Rect) {
            self.handle = handle
            self.rect = rect
        }
    }

    /// The viewport the state was laid out for.
    public var viewportSize: Size
    /// The preview image's size (stored orientation) that ``imageTransform`` expects.
    public var imageSize: PixelSize
    /// Preview pixel coordinates → view coordinates.
    public var imageTransform: AffineTransform2D
    /// The crop box.
    public var cropBox: Rect
    /// The eight handles, in `CropHandle.allCases` order.
    public var handles: [HandleRect]
    /// The upright picture's corners: top-left, top-right, bottom-right, bottom-left (the picture's outline; with
    /// ``cropBox``, the dimmed region).
    public var pictureCorners: [Point]
    /// Whether to draw the rule-of-thirds grid over the crop box.
    public var showsGrid: Bool
    /// Straighten, degrees counter-clockwise on screen.
    public var angle: Double
    /// Clockwise quarter turns (0…3) before the flip.
    public var quarterTurns: Int
    /// Mirrored left–right after the turns.
    public var flipped: Bool
    /// The aspect lock.
    public var aspect: AspectLock
    /// The full-resolution output size: what Done renders (`CropState.outputSize`).
    public var outputSize: PixelSize
    /// Whether undo would do something.
    public var canUndo: Bool
    /// Whether redo would do something.
    public var canRedo: Bool
    /// The pointer mode.
    public var mode: InteractionMode
    /// The gesture in progress.
    public var gesture: CropGesture
    /// The current state as a recipe (what the server saves to restore the session, and what Done renders).
    public var recipe: Recipe
    /// The crop the person asked for, in view coordinates (`CropState.wantedCrop`). It equals ``cropBox`` unless
    /// the straighten shrank the crop to keep the picture free of fill; a UI that predicts a straighten locally
    /// starts from it, as the engine does.
    public var wantedBox: Rect
    /// The minimum crop side in view points (`CropState.effectiveMinimumCropSize` at the view's scale), for a UI
    /// that predicts a resize locally.
    public var minimumSide: Double

    /// Creates a view state from its fields.
    public init(
        viewportSize: Size, imageSize: PixelSize, imageTransform: AffineTransform2D, cropBox: Rect,
        handles: [HandleRect], pictureCorners: [Point], showsGrid: Bool, angle: Double, quarterTurns: Int,
        flipped: Bool, aspect: AspectLock, outputSize: PixelSize, canUndo: Bool, canRedo: Bool,
        mode: InteractionMode, gesture: CropGesture, recipe: Recipe, wantedBox: Rect? = nil, minimumSide: Double = 0
    ) {
        self.viewportSize = viewportSize
        self.imageSize = imageSize
        self.imageTransform = imageTransform
        self.cropBox = cropBox
        self.handles = handles
        self.pictureCorners = pictureCorners
        self.showsGrid = showsGrid
        self.angle = angle
        self.quarterTurns = quarterTurns
        self.flipped = flipped
        self.aspect = aspect
        self.outputSize = outputSize
        self.canUndo = canUndo
        self.canRedo = canRedo
        self.mode = mode
        self.gesture = gesture
        self.recipe = recipe
        self.wantedBox = wantedBox ?? cropBox
        self.minimumSide = minimumSide
    }
}
