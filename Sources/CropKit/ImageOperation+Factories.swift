import CropGeometry
import CropPixels

/// Short forms of the size steps, read as the anchors read: `.thumbnail(256, cornerRadius: 32)`, `.fit(1024, 1024)`,
/// `.fill(400, 400, gravity: .attention)`, `.resize(width: 800)`. Each builds the ``ThumbnailRequest`` or
/// ``ResizeRequest`` it names; the long forms stay for every other option (filter, linear light, pad).
extension ImageOperation {
    /// A `side × side` thumbnail: ``thumbnail(_:)`` with a ``ThumbnailRequest`` of these values.
    public static func thumbnail(
        _ side: Int, border: Int = 0, cornerRadius: Double = 0, gravity: Gravity = .center
    ) -> ImageOperation {
        .thumbnail(ThumbnailRequest(side: side, border: border, cornerRadius: cornerRadius, gravity: gravity))
    }

    /// Fit within `width × height`, keeping the proportions, never enlarged unless `allowUpscale`: a
    /// ``ResizeRequest`` on that box with `ResizeMode.fit`. A side below 1 is refused when the pipeline runs, naming it.
    public static func fit(_ width: Int, _ height: Int, allowUpscale: Bool = false) -> ImageOperation {
        .resize(ResizeRequest(box(width, height), mode: .fit, allowUpscale: allowUpscale))
    }

    /// Cover `width × height` and cut the overhang where `gravity` says (`.attention` and `.entropy` look at the
    /// picture): a ``ResizeRequest`` on that box with `ResizeMode.fill(gravity:)`.
    public static func fill(
        _ width: Int, _ height: Int, gravity: Gravity = .center, allowUpscale: Bool = false
    ) -> ImageOperation {
        .resize(ResizeRequest(box(width, height), mode: .fill(gravity: gravity), allowUpscale: allowUpscale))
    }

    /// Resize to `width` pixels wide, the height following the proportions.
    public static func resize(width: Int, allowUpscale: Bool = false) -> ImageOperation {
        .resize(ResizeRequest(.width(width), allowUpscale: allowUpscale))
    }

    /// Resize to `height` pixels high, the width following the proportions.
    public static func resize(height: Int, allowUpscale: Bool = false) -> ImageOperation {
        .resize(ResizeRequest(.height(height), allowUpscale: allowUpscale))
    }

    /// The box, or for a side below 1 a target naming that side, which the pipeline refuses with its name.
    private static func box(_ width: Int, _ height: Int) -> ResizeRequest.Target {
        guard width >= 1 else { return .width(width) }
        guard height >= 1 else { return .height(height) }
        return .box(PixelSize(validWidth: width, height: height))
    }
}
