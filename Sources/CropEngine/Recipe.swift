import CropGeometry

/// A crop state as versioned, resolution-independent JSON.
///
/// ```json
/// {
///   "version": 1,
///   "crop": { "centerX": 0.35, "centerY": 0.425, "width": 0.5, "height": 0.75 },
///   "angle": 4.5,
///   "quarterTurns": 1,
///   "flipHorizontal": false,
///   "flipVertical": false,
///   "aspect": "2:3"
/// }
/// ```
///
/// - `version`: 1. Required; other versions are rejected.
/// - `crop`: the crop as seen (the allowed crop), as fractions of the *upright* picture (`…X` and `width` of its
///   width, `…Y` and `height` of its height):
///   - `centerX`, `centerY`: the **content point** under the crop's centre — the upright-picture point the crop is
///     centred on, *not* its position in the straightened frame. Straightening turns the picture about this point,
///     so it does not depend on `angle` (the frame centre is `pc + R(angle)(q − pc)` for the picture centre `pc`).
///     Without a straighten it is simply the crop rectangle's centre. A crop inside the picture has its content
///     point in 0…1.
///   - `width`, `height`: the crop's size along its own (the straightened frame's) axes.
///
///   Default: the whole picture. All four are required when `crop` is present. After a straighten the crop's
///   corners may legitimately reach beyond 0…1 on one axis (a thin crop along the diagonal), so the range is checked
///   against the straightened picture when the recipe is applied.
/// - `angle`: straighten in degrees, counter-clockwise on screen, −45…45. Default 0.
/// - `quarterTurns`: clockwise quarter turns of the displayed picture, 0…3, applied *first*; then `flipHorizontal`,
///   then `flipVertical` (mirrors of the turned picture). Defaults 0, false, false. Encoders write the canonical form,
///   with `flipVertical` false (a vertical flip is a horizontal flip plus two turns).
/// - `aspect`: `"free"`, `"original"` or `"W:H"` with whole numbers. Default `"free"`.
///
/// A recipe describes the *displayed* picture and does not include the source's EXIF orientation: it applies to any
/// file with the same displayed content at any resolution (pass that file's orientation to
/// ``CropState/init(recipe:sourceSize:orientation:minimumCropSize:)``). Unknown keys are ignored.
///
/// Decoding validates every field itself and throws `GeometryError.invalidRecipe(field:reason:)` naming it
/// (`"crop.width"`, `"angle"`, …; `"$"` for the document as a whole).
public struct Recipe: Hashable, Sendable {
    /// The version this code writes and reads.
    public static let currentVersion = 1

    /// The smallest crop width or height accepted, as a fraction of the picture: far below a pixel of any picture
    /// CropKit accepts (2³⁰ px), and far above the numbers that would underflow.
    public static let minimumFraction = 1e-12

    /// The format version.
    public let version: Int
    /// The content point under the crop's centre, as fractions of the upright picture's width and height.
    public let cropCenter: Point
    /// The crop's width and height along the straightened frame's axes, as fractions of the upright picture's width
    /// and height.
    public let cropSize: Size
    /// Straighten angle in degrees, counter-clockwise on screen.
    public let angle: Double
    /// Clockwise quarter turns (0…3), applied before the flips.
    public let quarterTurns: Int
    /// Left–right mirror after the turns.
    public let flipHorizontal: Bool
    /// Top–bottom mirror after the horizontal one.
    public let flipVertical: Bool
    /// The aspect lock.
    public let aspect: AspectLock

    /// Creates a recipe, validating every field as decoding does.
    ///
    /// - Parameters:
    ///   - cropCenter: the content point under the crop's centre, as fractions of the upright picture.
    ///   - cropSize: the crop's size along the straightened frame's axes, as fractions of the upright picture.
    ///   - angle: the straighten angle in degrees, counter-clockwise on screen, −45…45.
    ///   - quarterTurns: clockwise quarter turns, 0…3, applied before the flips.
    ///   - flipHorizontal: a left–right mirror after the turns.
    ///   - flipVertical: a top–bottom mirror after the horizontal one.
    ///   - aspect: the aspect lock.
    public init(
        cropCenter: Point = Point(x: 0.5, y: 0.5), cropSize: Size = Size(width: 1, height: 1), angle: Double = 0,
        quarterTurns: Int = 0, flipHorizontal: Bool = false, flipVertical: Bool = false, aspect: AspectLock = .free
    ) throws(GeometryError) {
        for (name, value) in [
            ("crop.centerX", cropCenter.x), ("crop.centerY", cropCenter.y),
            ("crop.width", cropSize.width), ("crop.height", cropSize.height),
        ] where !value.isFinite {
            throw .invalidRecipe(field: name, reason: "\(value) is not a finite number")
        }
        guard cropSize.width >= Self.minimumFraction else {
            throw .invalidRecipe(
                field: "crop.width", reason: "\(cropSize.width) must be at least \(Self.minimumFraction)")
        }
        guard cropSize.height >= Self.minimumFraction else {
            throw .invalidRecipe(
                field: "crop.height", reason: "\(cropSize.height) must be at least \(Self.minimumFraction)")
        }
        guard angle.isFinite, abs(angle) <= CropState.maximumStraightenAngle else {
            throw .invalidRecipe(field: "angle", reason: "\(angle) must be a number of degrees in −45…45")
        }
        guard (0...3).contains(quarterTurns) else {
            throw .invalidRecipe(field: "quarterTurns", reason: "\(quarterTurns) must be 0, 1, 2 or 3")
        }
        self.init(
            validatedCenter: cropCenter, size: cropSize, angle: angle, quarterTurns: quarterTurns,
            flipHorizontal: flipHorizontal, flipVertical: flipVertical, aspect: aspect)
    }

    /// Creates a recipe from fields already known to be valid.
    init(
        validatedCenter center: Point, size: Size, angle: Double, quarterTurns: Int, flipHorizontal: Bool,
        flipVertical: Bool, aspect: AspectLock
    ) {
        self.version = Self.currentVersion
        self.cropCenter = center
        self.cropSize = size
        self.angle = angle
        self.quarterTurns = quarterTurns
        self.flipHorizontal = flipHorizontal
        self.flipVertical = flipVertical
        self.aspect = aspect
    }

    /// The user's turns and flips as one element (oriented → upright).
    public var userOrientation: Orientation {
        CropState.compose(turns: quarterTurns, flipHorizontal: flipHorizontal, flipVertical: flipVertical)
    }

    /// Whether the recipe changes nothing: the whole picture (within 1e-9 of each fraction), no straighten, turn or
    /// flip. Its aspect lock does not count: a lock alone crops nothing.
    public var isIdentity: Bool {
        let e = 1e-9
        return angle == 0 && quarterTurns == 0 && !flipHorizontal && !flipVertical
            && abs(cropCenter.x - 0.5) <= e && abs(cropCenter.y - 0.5) <= e
            && abs(cropSize.width - 1) <= e && abs(cropSize.height - 1) <= e
    }
}

extension CropState {
    /// How far (as a fraction of the picture's larger side) a recipe's crop may reach outside the straightened
    /// picture and still be accepted. A crop that touches the edge on a preview can overhang by a pixel or so on the
    /// original, whose proportions differ by the preview's rounding; such small overhangs are absorbed by the minimal
    /// zoom. Anything further out is an error.
    public static let recipeTolerance = 0.02

    /// The state as a recipe: the crop as seen (its content point and size) as fractions of the upright picture;
    /// angle; canonical turns and flip; aspect lock. The wanted-versus-allowed memory is session state and is not
    /// saved: a loaded recipe's wanted crop is its crop.
    public var recipe: Recipe {
        let c = uprightAllowed, size = uprightSize.size
        // The fields are valid by construction (finite positive crop, angle in range, turns 0…3).
        return Recipe(
            validatedCenter: Point(x: c.center.x / size.width, y: c.center.y / size.height),
            size: Size(width: c.size.width / size.width, height: c.size.height / size.height),
            angle: straightenAngle, quarterTurns: userOrientation.quarterTurnsClockwise,
            flipHorizontal: userOrientation.isMirrored, flipVertical: false,
            aspect: aspectLock)
    }

    /// Applies a recipe to a stored image of `sourceSize` with EXIF `orientation` (any resolution).
    ///
    /// The recipe's crop (content point and size) becomes the wanted crop. With a ratio lock it is first reduced to
    /// the largest crop of the exact ratio inside it, about the same content point (a preview's rounded size may
    /// make the fractions a hair off); a small overhang past the straightened picture is then removed by the
    /// minimal zoom, exactly as in an edit. So at the same resolution the state comes back equal, and at another
    /// the same region is selected within about a pixel of the smaller picture. Throws
    /// `GeometryError.invalidRecipe(field:reason:)` (field `"crop"`) when the crop reaches outside the
    /// straightened picture by more than ``recipeTolerance`` or its proportions are more than 1 % off the lock.
    public init(recipe: Recipe, sourceSize: PixelSize, orientation: Orientation = .up, minimumCropSize: Double = 1)
        throws(GeometryError)
    {
        try self.init(sourceSize: sourceSize, orientation: orientation, minimumCropSize: minimumCropSize)
        setUserOrientation(recipe.userOrientation)
        setLock(recipe.aspect)
        setAngle(upright: recipe.angle)
        let size = uprightSize.size
        let (f, g) = (recipe.cropCenter, recipe.cropSize)
        var crop = ContentCrop(
            center: Point(x: f.x * size.width, y: f.y * size.height),
            size: Size(width: g.width * size.width, height: g.height * size.height))
        let picture = uprightPicture
        guard picture.contains(crop, tolerance: Self.recipeTolerance * Swift.max(size.width, size.height)) else {
            throw .invalidRecipe(
                field: "crop",
                reason: "centre \(f), size \(g) reaches outside the picture straightened by \(recipe.angle)°")
        }
        if let ratio = aspectRatio {
            let actual = crop.size.width / crop.size.height
            guard abs(actual / ratio.value - 1) <= 0.01 else {
                throw .invalidRecipe(
                    field: "crop",
                    reason: "its proportions \(crop.size) px do not match the aspect lock \(ratio)")
            }
            let unit = Size(width: Double(ratio.width), height: Double(ratio.height))
            crop.size = unit * Swift.min(crop.size.width / unit.width, crop.size.height / unit.height)
        }
        setWanted(upright: crop)
    }
}
