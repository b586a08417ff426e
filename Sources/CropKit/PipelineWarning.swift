import CropAnalysis
import CropCodecs
import CropGeometry

/// A recoverable problem a pipeline run met and worked around.
public enum PipelineWarning: Hashable, Sendable, CustomStringConvertible {
    /// A codec's warning: corrupt data it decoded past, metadata it could not keep.
    case codec(CodecWarning)
    /// A ``ImageOperation/crop(_:)`` rectangle reached outside the `picture` (its size at that step) and was cut to
    /// `clipped`.
    case cropClipped(requested: Rect, clipped: Rect, picture: Size)
    /// An ``ImageOperation/autoStraighten(minimumConfidence:)`` step measured `estimate`, whose confidence is below
    /// `minimumConfidence`, so the picture was not turned.
    case autoStraightenNotApplied(StraightenEstimate, minimumConfidence: Double)
    /// The source is an animation of `frames` frames and the output `format` holds one picture (or the sink takes
    /// pixels): the first frame was written and the others dropped. Not given when ``SaveOptions/frames`` asks for
    /// the first frame.
    case framesDropped(frames: Int, format: ImageFormat)
    /// A step placed by `Gravity.face` found no face, so attention placed it.
    case noFaceFound

    public var description: String {
        switch self {
        case .codec(let warning): warning.description
        case .cropClipped(let requested, let clipped, let picture):
            "crop \(requested) reaches outside the \(PixelSize(validWidth: Int(picture.width), height: Int(picture.height))) "
                + "picture; clipped to \(clipped)"
        case .autoStraightenNotApplied(let estimate, let minimum):
            estimate.lines == 0 && estimate.measure == .lines
                ? "auto-straighten found no near-level or near-upright lines; the picture is left as it is"
                : "auto-straighten is not sure (confidence \(Self.twoPlaces(estimate.confidence)) < "
                    + "\(Self.twoPlaces(minimum)): \(estimate.evidence) suggest \(Self.twoPlaces(estimate.angle))°); "
                    + "the picture is left as it is"
        case .framesDropped(let frames, let format):
            "\(format) holds one picture: the first of the animation's \(frames) frames is written, \(frames - 1) "
                + (frames == 2 ? "is" : "are") + " dropped (GIF, WebP and AVIF keep them all)"
        case .noFaceFound:
            "gravity face found no face; the crop is placed by attention"
        }
    }

    private static func twoPlaces(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
