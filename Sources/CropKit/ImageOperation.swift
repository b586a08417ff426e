import CropAnalysis
import CropEngine
import CropGeometry
import CropPixels

/// One step of an ``ImagePipeline`` chain: a small value, like a sharp call or a Nuke processor.
///
/// A chain is evaluated once, with one decode, one resampling pass and one encode, whatever its length. Its steps come
/// in three groups, in this order:
///
/// 1. **Geometry** — ``crop(_:)``, ``aspect(_:)``, ``turn(_:)``, ``flip(_:)``, ``straighten(_:)``, and ``recipe(_:)``
///    or ``cropState(_:)`` to start from a saved crop. They fold into one `CropState`, in the order given, each in
///    the coordinates of the picture as it looks after the steps before it: upright (the file's EXIF orientation is
///    always applied), turned and flipped by earlier steps. The crop engine's rules hold: a straightened crop never
///    shows fill pixels and shrinks by the smallest factor that avoids them, and a W:H aspect renders exactly
///    `k·W × k·H` pixels.
/// 2. **Size**, at most one — ``fit(within:allowUpscale:)``, ``resize(_:)`` or ``thumbnail(_:)``. Without one, the
///    output has the crop's own size in source pixels (full resolution).
/// 3. **Pixels** — ``roundCorners(_:border:)``, ``border(_:color:)``, ``background(_:)``, applied to the finished
///    output in order.
///
/// A step out of that order is an error (``CropKitError/invalidRequest(name:reason:)`` named `"operations"`), so a
/// chain always means one thing.
///
/// Defaults that keep outputs exact: with no ``crop(_:)``, ``aspect(_:)``, ``recipe(_:)`` or ``cropState(_:)`` the
/// aspect is `AspectLock.original`, so a straightened picture keeps the picture's exact proportions.
///
/// ```swift
/// let pipeline = ImagePipeline()
/// try pipeline.run(.file("photo.jpg"), [.straighten(7.5), .fit(within: PixelSize(validWidth: 2048, height: 2048))],
///                  to: .file("level.jpg"))
/// ```
public enum ImageOperation: Hashable, Sendable {
    // MARK: Geometry

    /// Keep this rectangle of the picture as it looks at this step, in its pixels (`x`, `y` from the top-left). With
    /// an aspect lock in force the crop is the largest rectangle of that ratio inside it, centred. A rectangle that
    /// reaches outside the picture is clipped to it, with a ``PipelineWarning/cropClipped(requested:clipped:picture:)``
    /// warning; one entirely outside is an error.
    case crop(Rect)
    /// Lock the aspect ratio: the crop becomes the largest crop of that ratio inside the current one, centred on it,
    /// and its output is exactly proportional. `.free` removes the lock and keeps the crop.
    case aspect(AspectLock)
    /// Turn the picture a quarter turn (a W:H lock turns with it: 16:9 becomes 9:16).
    case turn(QuarterTurn)
    /// Mirror the picture as seen.
    case flip(FlipAxis)
    /// Straighten by this many degrees, counter-clockwise as seen (negative: clockwise). The picture turns about the
    /// crop's centre; the crop keeps its proportions and shrinks by the smallest factor that leaves no fill pixels.
    /// Successive straightens add up; the total must stay within −45…45.
    case straighten(Double)
    /// Straighten by the tilt `StraightenDetector` measures on the picture as shown (the whole picture, EXIF
    /// orientation applied, mirrored when earlier steps flip it), when its confidence is at least
    /// `minimumConfidence`; otherwise leave the angle alone and say so with a
    /// ``PipelineWarning/autoStraightenNotApplied(_:minimumConfidence:)`` warning. It adds to other straightens, and
    /// the run's ``RenderReport/autoStraighten`` holds the estimate. Costs a second, small decode (at most
    /// 1024 pixels, shrunk on load) before the render.
    case autoStraighten(minimumConfidence: Double = StraightenEstimate.defaultMinimumConfidence)
    /// The largest crop of this aspect in the picture as shown (EXIF orientation applied), with the aspect locked,
    /// placed by `gravity`: at an alignment, as near a focal point as the picture allows, or where attention or
    /// entropy finds the most interest (``ImagePipeline/proposeCrop(_:aspect:measure:)``, which costs a small
    /// shrink-on-load decode). Must be the first geometric step.
    case aspectCrop(AspectRatio, gravity: Gravity = .center)
    /// Start from a saved crop: it applies to this source at its resolution. Must be the first geometric step.
    case recipe(Recipe)
    /// Start from a crop state made for this very source (same stored size and EXIF orientation). Must be the first
    /// geometric step.
    case cropState(CropState)

    // MARK: Size

    /// Scale the crop uniformly to fit within the box, keeping an aspect lock's exact proportions; never enlarged
    /// unless `allowUpscale`.
    case fit(within: PixelSize, allowUpscale: Bool = false)
    /// Resize to a width, a height or a box with a content mode (fit, fill with a gravity, pad, stretch), a filter
    /// and linear light; see ``ResizeRequest``.
    case resize(ResizeRequest)
    /// A square thumbnail, exactly ``ThumbnailRequest/side`` pixels: the crop scaled to cover the square, the
    /// overhang cut where the gravity says, optionally inside a transparent border with rounded corners.
    case thumbnail(ThumbnailRequest)

    // MARK: Pixels

    /// Round the corners (anti-aliased; alpha added), or cut the largest centred square as a circle, optionally
    /// inside a transparent margin of `border` pixels (the size does not change).
    case roundCorners(CornerRadius, border: Int = 0)
    /// Add a border of `width` pixels of `color` on every side (the output grows by `2 × width` each way).
    case border(Int, color: PixelColor = .transparent)
    /// Composite over an opaque colour, removing transparency.
    case background(PixelColor)
    /// Hide every face found in the output (blurred or pixelated), for privacy: only the faces' regions change.
    /// Faces from 6% of the output's short side up are found (`HOGFaceDetector`); the step runs before the other
    /// pixel steps, on the picture itself.
    case blurFaces(FaceBlur = FaceBlur())
    /// Lay a mark over the output, after every other step (see ``Watermark``).
    case watermark(Watermark)

    /// Which group the step belongs to.
    package enum Group: Int, Comparable {
        case geometry, size, pixels
        package static func < (a: Group, b: Group) -> Bool { a.rawValue < b.rawValue }
    }

    package var group: Group {
        switch self {
        case .crop, .aspect, .turn, .flip, .straighten, .autoStraighten, .aspectCrop, .recipe, .cropState: .geometry
        case .fit, .resize, .thumbnail: .size
        case .roundCorners, .border, .background, .blurFaces, .watermark: .pixels
        }
    }

    /// The step's name in error messages.
    var name: String {
        switch self {
        case .crop: "crop"
        case .aspect: "aspect"
        case .turn: "turn"
        case .flip: "flip"
        case .straighten: "straighten"
        case .autoStraighten: "autoStraighten"
        case .aspectCrop: "aspectCrop"
        case .recipe: "recipe"
        case .cropState: "cropState"
        case .fit: "fit"
        case .resize: "resize"
        case .thumbnail: "thumbnail"
        case .roundCorners: "roundCorners"
        case .border: "border"
        case .background: "background"
        case .blurFaces: "blurFaces"
        case .watermark: "watermark"
        }
    }
}
