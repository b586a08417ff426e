/// A recoverable problem a pipeline run met and worked around.
public enum PipelineWarning: Hashable, Sendable, CustomStringConvertible {
    /// A codec's warning: corrupt data it decoded past, metadata it could not keep.
    case codec(CodecWarning)
    /// A ``ImageOperation/crop(_:)`` rectangle reached outside the `picture` (its size at that step) and was cut to
    /// `clipped`.
    case cropClipped(requested: Rect, clipped: Rect, picture: Size)

    public var description: String {
        switch self {
        case .codec(let warning): warning.description
        case .cropClipped(let requested, let clipped, let picture):
            "crop \(requested) reaches outside the \(PixelSize(validWidth: Int(picture.width), height: Int(picture.height))) "
                + "picture; clipped to \(clipped)"
        }
    }
}
