import CropAnalysis
import CropPixels

/// A square thumbnail (``ImageOperation/thumbnail(_:)``): always exactly `side × side` pixels, the picture scaled to
/// cover the square (enlarged if it is smaller) with the overhang cut where ``gravity`` says.
public struct ThumbnailRequest: Hashable, Sendable {
    /// The square's side in pixels, border included.
    public var side: Int
    /// A transparent border inside the square, in pixels. Default 0.
    public var border: Int
    /// The corner radius of the picture inside the border, in pixels; 0 for square corners, `side / 2` or more for
    /// a circle. Default 0.
    public var cornerRadius: Double
    /// The resampling filter. Default Lanczos3.
    public var filter: ResamplingFilter
    /// Filter in linear light. Default `false`.
    public var linearLight: Bool
    /// Which part of the picture the square keeps when the overhang is cut. Default centre.
    public var gravity: Gravity

    /// Creates a request; every argument but the side has the default described on its property.
    public init(
        side: Int, border: Int = 0, cornerRadius: Double = 0, filter: ResamplingFilter = .lanczos3,
        linearLight: Bool = false, gravity: Gravity = .center
    ) {
        self.side = side
        self.border = border
        self.cornerRadius = cornerRadius
        self.filter = filter
        self.linearLight = linearLight
        self.gravity = gravity
    }
}
