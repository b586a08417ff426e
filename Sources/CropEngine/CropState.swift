import CropGeometry

/// A non-destructive crop: what to cut from a picture, how it is turned, flipped and straightened. A value type
/// that cannot be invalid.
///
/// ## The pictures involved
/// - The *stored* image: ``sourceSize`` pixels as they are in the file.
/// - The *oriented* picture: the stored image after its EXIF ``sourceOrientation`` (what a viewer shows).
/// - The *upright* picture: the oriented one after the user's quarter turns and flips (``userOrientation``).
///   Stored → upright is the single dihedral element ``orientation``, so a state never rotates a picture twice and
///   a flip survives every later turn.
/// - The *frame*: the upright picture turned counter-clockwise on screen by ``straightenAngle`` about its centre
///   `pc`. Frame and upright picture share coordinates (origin top-left, upright pixel units); the crop is an
///   axis-aligned rectangle in the frame.
///
/// ## The crop is pinned to the content under its centre
/// A crop is kept as its *content point* `q` — the upright-picture point under the crop's centre
/// (``cropContentCenter``) — and its size along the frame's axes. Its frame position is derived:
/// `c = pc + R(θ)(q − pc)` (``crop``). So **straightening changes θ only**: the picture turns about the crop's
/// centre, and whatever the user framed stays under the crop's centre at every angle, however far the crop is from
/// the picture centre. Gestures are given in frame (screen) terms and act on `q`: moving the crop by a frame delta
/// `d` moves `q` by `R(−θ)d`; zooming about a frame anchor `a` scales about its content point; resizing and drawing
/// work on the crop's frame rectangle and take the content point of the result. Since orientations are pixel
/// permutations and the straighten is an isometry, one crop unit is one source pixel.
///
/// ## Invariants, after every operation
/// - **No fill pixels.** The crop's four corners, turned back by −θ about the picture centre, lie in
///   `[0, W] × [0, H]` of the upright picture, within ``constraintTolerance``.
/// - **Minimal zoom.** The allowed ``crop`` is the ``wantedCrop`` scaled about its content point by
///   `s = min(1, (W/2 − |q'x|)/ex, (H/2 − |q'y|)/ey)`, where `q' = q − pc` and `(ex, ey)` are the wanted crop's
///   half-extents turned back into the picture (closed form; see `StraightenedPicture`). So it keeps its content
///   point and proportions and shrinks by the smallest factor, and a crop 0.1 % larger breaks the constraint. Only
///   when that would leave a side under ``effectiveMinimumCropSize`` does it take the minimum size instead (or, for
///   proportions whose minimum cannot fit, the largest that does) and move its content point the shortest way to
///   where that size fits.
/// - **Wanted versus allowed.** Every operation edits the wanted crop and re-derives the allowed one. Straightening
///   never touches the wanted crop's numbers (only its derived frame position turns), so straightening to 10° and
///   back restores the state bit for bit. Turns and flips never touch the stored numbers either (they are kept in
///   the oriented picture's coordinates), so turning left then right, four turns and two flips give back an `==`
///   state. Gestures on the crop (move, zoom, resize, draw) act on the crop the user sees and make the result the
///   new wanted crop.
/// - **Exact aspect.** With a W:H lock the crop has those proportions and renders at exactly `(k·W, k·H)` pixels
///   (``OutputSizing``).
/// - **Identity.** An untouched state renders the whole picture at its exact pixel size.
/// - **Minimum size.** Both sides of the crop are at least ``effectiveMinimumCropSize`` pixels: the configured
///   ``minimumCropSize``, capped at the largest square the straightened picture can host. (A locked crop whose
///   minimum does not fit is the largest of its ratio that does.) A wanted crop set under a smaller cap may grow to
///   the minimum when the cap rises again.
/// - **No invalid states.** Every public entry point rejects NaN, infinite and negative input with
///   `GeometryError`; a throwing operation leaves the state unchanged.
///
/// `==` is exact: two states are equal when every stored number is.
public struct CropState: Hashable, Sendable {
    /// The straighten angle range, in degrees: `-maximumStraightenAngle...maximumStraightenAngle`.
    public static let maximumStraightenAngle = 45.0

    /// How far (in source pixels) a crop corner may lie outside the straightened picture through floating-point
    /// rounding. Every fit is exact in real arithmetic; in `Double` the corners land within about 1e-9 px of the
    /// picture edge for pictures up to 100,000 px, so 1e-6 px is a wide margin that is still far below anything a
    /// resampler can show.
    public static let constraintTolerance = 1e-6

    /// The largest picture side accepted (2³⁰ pixels), which keeps every pixel count and coordinate exact in
    /// `Double` and far from `Int` overflow.
    public static let maximumSide = 1 << 30

    /// The smallest minimum crop side accepted, in source pixels: a millionth of a pixel. Far below any crop a person
    /// can make, and far above the numbers (a denormal such as 1e-314) whose zoom overflows to infinity and turns the
    /// view's transform into NaN (found by FuzzNumericEvents).
    public static let smallestMinimumCropSize = 1e-6

    /// The stored image's pixel size.
    public let sourceSize: PixelSize
    /// The stored image's EXIF orientation (stored → oriented).
    public let sourceOrientation: Orientation
    /// The smallest crop side, in source pixels.
    public let minimumCropSize: Double

    /// The user's quarter turns and flips, as one element applied to the oriented picture (oriented → upright).
    public private(set) var userOrientation: Orientation
    /// The aspect constraint, in terms of the upright picture.
    public private(set) var aspectLock: AspectLock

    // The wanted and allowed crops (content point and size) and the angle are stored in the *oriented* picture's
    // coordinates, so that turns and flips (which change only `userOrientation`) never round them. Public accessors
    // map them to the upright picture and its frame.
    private var orientedAngle: Double
    private var orientedWanted: ContentCrop
    private var orientedAllowed: ContentCrop

    /// An untouched state: the whole picture, no turn, no flip, no straighten, no aspect lock.
    ///
    /// - Parameters:
    ///   - sourceSize: the stored image's size.
    ///   - orientation: its EXIF orientation.
    ///   - minimumCropSize: the smallest crop side in source pixels (finite, at least
    ///     ``smallestMinimumCropSize``).
    public init(sourceSize: PixelSize, orientation: Orientation = .up, minimumCropSize: Double = 1)
        throws(GeometryError)
    {
        try requirePositive(minimumCropSize, "minimumCropSize")
        guard minimumCropSize >= Self.smallestMinimumCropSize else {
            throw .invalidValue(
                name: "minimumCropSize", value: minimumCropSize,
                reason: "must be at least \(Self.smallestMinimumCropSize) pixels")
        }
        guard sourceSize.width <= Self.maximumSide, sourceSize.height <= Self.maximumSide else {
            throw .invalidSize("\(sourceSize): a side may be at most \(Self.maximumSide) pixels")
        }
        self.sourceSize = sourceSize
        self.sourceOrientation = orientation
        self.minimumCropSize = minimumCropSize
        self.userOrientation = .up
        self.aspectLock = .free
        self.orientedAngle = 0
        let whole = ContentCrop(whole: Rect(size: orientation.displayedSize(of: sourceSize).size))
        self.orientedWanted = whole
        self.orientedAllowed = whole
    }

    // MARK: Derived geometry

    /// The stored → upright transform: the EXIF orientation followed by the user's turns and flips.
    public var orientation: Orientation { sourceOrientation.concatenating(userOrientation) }

    /// The oriented picture's size (the stored size after the EXIF orientation).
    public var orientedSize: PixelSize { sourceOrientation.displayedSize(of: sourceSize) }

    /// The upright picture's size.
    public var uprightSize: PixelSize { orientation.displayedSize(of: sourceSize) }

    /// The straighten angle in degrees, counter-clockwise on screen, in −45…45.
    public var straightenAngle: Double {
        userOrientation.isMirrored ? (orientedAngle == 0 ? 0 : -orientedAngle) : orientedAngle
    }

    /// Clockwise quarter turns (0…3) applied to the oriented picture *before* the optional horizontal flip
    /// ``isFlipped``. Together they are ``userOrientation`` (`Orientation`'s own convention: turn, then mirror).
    public var quarterTurns: Int { userOrientation.quarterTurnsClockwise }

    /// Whether the picture is mirrored left–right after the ``quarterTurns``.
    public var isFlipped: Bool { userOrientation.isMirrored }

    /// The crop the user sees and the renderer cuts: in frame coordinates (upright pixel units). Always inside the
    /// straightened picture. Its centre is ``cropContentCenter`` turned by the straighten about the picture centre.
    public var crop: Rect { uprightPicture.frameRect(uprightAllowed) }

    /// The crop the user asked for, in frame coordinates; ``crop`` is it after the minimal zoom. Its frame position
    /// follows the straighten (its content point ``wantedContentCenter`` does not).
    public var wantedCrop: Rect { uprightPicture.frameRect(toUpright(orientedWanted)) }

    /// The content point under the crop's centre, in upright picture coordinates: the point the picture turns
    /// about when straightened.
    public var cropContentCenter: Point { uprightAllowed.center }

    /// The content point under the wanted crop's centre, in upright picture coordinates. Only gestures on the
    /// crop, turns, flips and resets change it; straightening never does.
    public var wantedContentCenter: Point { toUpright(orientedWanted).center }

    /// The lock's ratio for the current upright picture, or `nil` when free.
    public var aspectRatio: AspectRatio? { aspectLock.aspectRatio(uprightSize: uprightSize) }

    /// Whether the state is untouched: no turn, flip or straighten, and the crop is the whole picture. (The EXIF
    /// orientation still applies.)
    public var isIdentity: Bool {
        userOrientation == .up && orientedAngle == 0
            && orientedAllowed == ContentCrop(whole: Rect(size: orientedSize.size))
    }

    /// The output pixel size at full resolution (see ``OutputSizing``).
    public var outputSize: PixelSize {
        OutputSizing.outputSize(cropSize: crop.size, aspectRatio: aspectRatio)
    }

    /// The minimum crop side in force: ``minimumCropSize``, capped at the side of the largest square that fits the
    /// straightened picture, `min(W, H) / (|cos θ| + |sin θ|)`, so that a crop of the minimum size always exists.
    public var effectiveMinimumCropSize: Double {
        orientedPicture.largestSquareSide(capping: minimumCropSize)
    }

    /// Whether the crop's four corners, turned back into the upright picture, lie inside it within `tolerance`.
    public func cropIsInsidePicture(tolerance: Double = CropState.constraintTolerance) -> Bool {
        uprightPicture.contains(crop, tolerance: tolerance)
    }

    /// Whether the two states agree on turns, flips, lock and angle exactly and on the crops within `tolerance`
    /// pixels (for round trips through fractions, such as a recipe).
    public func isApproximatelyEqual(to other: CropState, tolerance: Double = 1e-6) -> Bool {
        sourceSize == other.sourceSize && sourceOrientation == other.sourceOrientation
            && userOrientation == other.userOrientation && aspectLock == other.aspectLock
            && abs(orientedAngle - other.orientedAngle) <= 1e-12
            && orientedAllowed.isApproximatelyEqual(to: other.orientedAllowed, tolerance: tolerance)
            && orientedWanted.isApproximatelyEqual(to: other.orientedWanted, tolerance: tolerance)
    }

    // MARK: Internals shared by the operations

    /// The straightened upright picture (the crop's constraint region).
    package var uprightPicture: StraightenedPicture {
        StraightenedPicture(bounds: Rect(size: uprightSize.size), angleDegrees: straightenAngle)
    }

    /// The straightened oriented picture.
    package var orientedPicture: StraightenedPicture {
        StraightenedPicture(bounds: Rect(size: orientedSize.size), angleDegrees: orientedAngle)
    }

    /// The lock as the size of its smallest crop (`W×H` in pixels), or `nil` when free.
    package var lockUnit: Size? {
        aspectRatio.map { Size(width: Double($0.width), height: Double($0.height)) }
    }

    /// oriented → upright coordinates.
    package var userTransform: AffineTransform2D { userOrientation.transform(storedSize: orientedSize.size) }

    /// The allowed crop in upright picture coordinates.
    package var uprightAllowed: ContentCrop { toUpright(orientedAllowed) }

    /// The wanted crop in upright picture coordinates.
    package var uprightWanted: ContentCrop { toUpright(orientedWanted) }

    /// Maps a crop's content point, so its size is carried over exactly (only swapped).
    private func map(_ crop: ContentCrop, _ t: AffineTransform2D) -> ContentCrop {
        ContentCrop(
            center: t.apply(to: crop.center),
            size: userOrientation.swapsDimensions ? crop.size.transposed : crop.size)
    }

    package func toUpright(_ crop: ContentCrop) -> ContentCrop {
        map(crop, userTransform)
    }

    package func toOriented(_ crop: ContentCrop) -> ContentCrop {
        map(crop, userOrientation.inverseTransform(storedSize: orientedSize.size))
    }

    /// Replaces the wanted crop (given in upright picture coordinates) and re-derives the allowed one.
    package mutating func setWanted(upright crop: ContentCrop) {
        setWanted(oriented: toOriented(crop))
    }

    /// Replaces the wanted crop by the one whose frame rectangle is `rect`.
    package mutating func setWanted(uprightFrame rect: Rect) {
        setWanted(upright: uprightPicture.contentCrop(frame: rect))
    }

    package mutating func setWanted(oriented crop: ContentCrop) {
        orientedWanted = crop
        rederive()
    }

    package mutating func rederive() {
        orientedAllowed = orientedPicture.allowedCrop(wanted: orientedWanted, minimumSide: effectiveMinimumCropSize)
    }

    package mutating func setUserOrientation(_ o: Orientation) {
        userOrientation = o
    }

    package mutating func setLock(_ lock: AspectLock) {
        aspectLock = lock
    }

    /// Sets the angle (upright sense) without validation and re-derives the allowed crop.
    package mutating func setAngle(upright degrees: Double) {
        let value = userOrientation.isMirrored ? -degrees : degrees
        orientedAngle = value == 0 ? 0 : value  // no −0
        rederive()
    }

    /// The element "turn clockwise `turns` times, then flip left–right, then top–bottom", as the recipe spells it.
    /// A top–bottom flip is a left–right flip after a half turn, so the closed form adds two turns for it.
    package static func compose(turns: Int, flipHorizontal: Bool, flipVertical: Bool) -> Orientation {
        Orientation(quarterTurnsClockwise: turns + (flipVertical ? 2 : 0), mirrored: flipHorizontal != flipVertical)
    }
}
