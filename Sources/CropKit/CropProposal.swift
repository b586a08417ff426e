import CropAnalysis
import CropEngine
import CropGeometry

/// A crop CropKit proposes for a picture: the rectangle, how much of the picture's interest it keeps, and the crop
/// state (so its recipe) that renders it, for a person to see and adjust.
public struct CropProposal: Hashable, Sendable {
    /// What chose it: attention or entropy (the interest measure), or faces.
    public enum Measure: String, CaseIterable, Hashable, Sendable, Codable {
        /// Edges, saturated colour and skin (`InterestMap.Measure.attention`).
        case attention
        /// Local luma entropy (`InterestMap.Measure.entropy`).
        case entropy
        /// The people: the window keeps the faces whole (`Gravity.face`), or measures attention when
        /// there is none (``faces`` says which).
        case face

        /// The measure an interest measure is.
        public init(_ measure: InterestMap.Measure) {
            self = measure == .entropy ? .entropy : .attention
        }

        /// The gravity that places a crop by this measure.
        public var gravity: Gravity {
            switch self {
            case .attention: .attention
            case .entropy: .entropy
            case .face: .face
            }
        }
    }

    /// The measure that chose it.
    public var measure: Measure
    /// The rectangle in the displayed picture's pixels (EXIF orientation applied): the largest of the aspect.
    public var rect: Rect
    /// The share (0…1) of the picture's interest inside `rect` (for ``Measure/face``, of the faces found that it
    /// keeps whole); 0 when the picture has none (then `rect` is centred).
    public var score: Double
    /// The crop as a state, with the aspect locked: `state.recipe` saves it, `ImageOperation.cropState(state)` renders
    /// it, and the editor opens it so a person can move it at the same aspect.
    public var state: CropState
    /// For ``Measure/face``: the faces found and whether they or attention (no face) placed the crop.
    public var faces: FacePlacement? = nil
}

extension ImagePipeline {
    /// The largest crop of `aspect` placed by `measure`: the most interest for attention and entropy (measured on a
    /// shrink-on-load decode, an 1/8-scale JPEG for large photos), the faces kept whole for
    /// ``CropProposal/Measure/face`` (found on a copy of 1,333 pixels on its short side; attention when there is
    /// none), as a proposal with its score and recipe.
    ///
    /// - Throws: ``CropKitError`` for an unreadable source or an aspect that cannot be represented.
    public func proposeCrop(_ source: ImageSource, aspect: AspectRatio, measure: CropProposal.Measure)
        throws(CropKitError) -> CropProposal
    {
        try proposeCrop(source, try open(source), aspect: aspect, measure: measure)
    }

    /// ``proposeCrop(_:aspect:measure:)`` on a source already opened (perhaps with the picture to measure decoded:
    /// an animation's mean frame).
    func proposeCrop(_ source: ImageSource, _ opened: OpenedSource, aspect: AspectRatio, measure: CropProposal.Measure)
        throws(CropKitError) -> CropProposal
    {
        // A 256-pixel box of the aspect: enough to measure, small enough to decode at the smallest scale.
        let long = 256.0, ratio = Double(aspect.width) / Double(aspect.height)
        let box =
            ratio >= 1
            ? PixelSize(validWidth: Int(long), height: Swift.max(1, Int((long / ratio).rounded())))
            : PixelSize(validWidth: Swift.max(1, Int((long * ratio).rounded())), height: Int(long))
        let gravity = measure.gravity
        let operations = [ImageOperation.resize(ResizeRequest(.box(box), mode: .fill(gravity: gravity)))]
        let (_, _, window, share, faces) = try resolveSmartGravity(source, opened, operations, gravity)
        // The window's centre, with the largest rectangle of the exact aspect (the box's was rounded).
        let shown = opened.displayedSize
        let full = Rect(x: 0, y: 0, width: Double(shown.width), height: Double(shown.height))
        let rect = Gravity.focus(on: window, in: full).place(aspect.largestSize(in: full.size), in: full)
        let state = try cropState(source, [.aspect(.ratio(aspect)), .crop(rect)])
        return CropProposal(measure: measure, rect: rect, score: share, state: state, faces: faces)
    }
}
