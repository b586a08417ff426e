import CropGeometry
import CropPixels

/// How an image is resized into a box of a given size.
///
/// It lives on the analysis floor because a fill's ``Gravity`` may be ``Gravity/attention`` or
/// ``Gravity/entropy``, which only ``InterestMap`` can place; the pixel floor gives the layouts (stretch, fit, a fill
/// window placed by a function, pad) and the resampling.
public enum ResizeMode: Hashable, Sendable {
    /// Scale each axis to the box; the aspect ratio is not kept. The output is the box.
    case stretch
    /// Scale, keeping the aspect ratio, to the largest size that fits in the box. The output is that fitted size
    /// (one side equals the box, the other is at most the box).
    case fit
    /// Scale, keeping the aspect ratio, to the smallest size that covers the box, and crop the overhang; `gravity`
    /// says which part is kept (the centre, an edge, a corner, a focal point, or the most interesting part). The
    /// output is the box.
    case fill(gravity: Gravity = .center)
    /// Fit, then pad to the box with `background` (transparent or a colour), the image placed by `alignment`. The
    /// output is the box; it gains an alpha channel only if `background` is not opaque.
    case pad(background: PixelColor = .transparent, alignment: Alignment = .center)

    /// The geometry of resizing a `sourceWidth × sourceHeight` image into a `width × height` box. A fill's smart
    /// gravity is placed at the centre here; `PixelBuffer.resized(width:height:mode:options:)` and the pipeline
    /// then move the window to where ``InterestMap`` finds the most interest.
    ///
    /// - Throws: `PixelError.invalidDimensions(width:height:reason:)` when a size is below 1.
    package func layout(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int) throws(PixelError) -> ResizeLayout
    {
        switch self {
        case .stretch:
            try ResizeLayout.stretch(sourceWidth: sourceWidth, sourceHeight: sourceHeight, width: width, height: height)
        case .fit:
            try ResizeLayout.fit(sourceWidth: sourceWidth, sourceHeight: sourceHeight, width: width, height: height)
        case .fill(let gravity):
            try ResizeLayout.fill(
                sourceWidth: sourceWidth, sourceHeight: sourceHeight, width: width, height: height, place: gravity.place
            )
        case .pad(_, let alignment):
            try ResizeLayout.pad(
                sourceWidth: sourceWidth, sourceHeight: sourceHeight, width: width, height: height, alignment: alignment
            )
        }
    }
}
