import CropAnalysis
import CropEngine
import CropGeometry

/// A crop CropKit proposes for a picture: the rectangle, how much of the picture's interest it keeps, and the crop
/// state (so its recipe) that renders it, for a person to see and adjust.
public struct CropProposal: Hashable, Sendable {
    /// The measure that chose it.
    public var measure: InterestMap.Measure
    /// The rectangle in the displayed picture's pixels (EXIF orientation applied): the largest of the aspect.
    public var rect: Rect
    /// The share (0…1) of the picture's interest inside `rect`; 0 when the picture has none (then `rect` is centred).
    public var score: Double
    /// The crop as a state, with the aspect locked: `state.recipe` saves it, `ImageOperation.cropState(state)` renders
    /// it, and the editor opens it so a person can move it at the same aspect.
    public var state: CropState
}

extension ImagePipeline {
    /// The largest crop of `aspect` that keeps the most of `measure`'s interest, from a shrink-on-load decode (an
    /// 1/8-scale JPEG for large photos), as a proposal with its score and recipe.
    ///
    /// - Throws: ``CropKitError`` for an unreadable source or an aspect that cannot be represented.
    public func proposeCrop(_ source: ImageSource, aspect: AspectRatio, measure: InterestMap.Measure)
        throws(CropKitError) -> CropProposal
    {
        try proposeCrop(source, try open(source), aspect: aspect, measure: measure)
    }

    /// ``proposeCrop(_:aspect:measure:)`` on a source already opened (perhaps with the picture to measure decoded:
    /// an animation's mean frame).
    func proposeCrop(_ source: ImageSource, _ opened: OpenedSource, aspect: AspectRatio, measure: InterestMap.Measure)
        throws(CropKitError) -> CropProposal
    {
        // A 256-pixel box of the aspect: enough to measure, small enough to decode at the smallest scale.
        let long = 256.0, ratio = Double(aspect.width) / Double(aspect.height)
        let box = ratio >= 1
            ? PixelSize(validWidth: Int(long), height: Swift.max(1, Int((long / ratio).rounded())))
            : PixelSize(validWidth: Swift.max(1, Int((long * ratio).rounded())), height: Int(long))
        let gravity: Gravity = measure == .entropy ? .entropy : .attention
        let operations = [ImageOperation.resize(ResizeRequest(.box(box), mode: .fill(gravity: gravity)))]
        let (_, _, window, share) = try resolveSmartGravity(source, opened, operations, gravity)
        // The window's centre, with the largest rectangle of the exact aspect (the box's was rounded).
        let shown = opened.displayedSize
        let full = Rect(x: 0, y: 0, width: Double(shown.width), height: Double(shown.height))
        let rect = Gravity.focus(on: window, in: full).place(aspect.largestSize(in: full.size), in: full)
        let state = try cropState(source, [.aspect(.ratio(aspect)), .crop(rect)])
        return CropProposal(measure: measure, rect: rect, score: share, state: state)
    }
}
