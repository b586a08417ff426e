import CropAnalysis
import CropGeometry

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
    /// picture, `.face` keeps the people whole): a ``ResizeRequest`` on that box with `ResizeMode.fill(gravity:)`.
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

extension ImageOperation {
    /// The aspect step as the faces give it (`--aspect` or `aspect=`), placed by a gravity or a focal point when one is
    /// given, with the one rule between them checked here for every face: a gravity or a focus places only an aspect
    /// `W:H` crop, and only one not given a rectangle too (the rectangle says where the crop is).
    ///
    /// - Parameters:
    ///   - lock: the aspect, `nil` when none is given.
    ///   - gravity: `attention`, `entropy`, `face` or an alignment, when given.
    ///   - focus: a `Gravity.focus` or `Gravity.pixelFocus`, when given (not with `gravity`).
    ///   - withRect: whether a crop rectangle is given too.
    /// - Returns: `.aspectCrop(ratio, gravity:)` when placed, `.aspect(lock)` otherwise, `nil` without a lock.
    /// - Throws: `CropKitError.invalidRequest(name:reason:)` naming `gravity` or `focus`.
    public static func aspect(
        _ lock: AspectLock?, gravity: Gravity? = nil, focus: Gravity? = nil, withRect: Bool = false
    ) throws(CropKitError) -> ImageOperation? {
        if focus != nil, gravity != nil {
            throw .invalidRequest(name: "focus", reason: "give focus or gravity, not both")
        }
        guard let placement = focus ?? gravity else { return lock.map { .aspect($0) } }
        guard case .ratio(let ratio)? = lock, !withRect else {
            throw .invalidRequest(
                name: focus != nil ? "focus" : "gravity", reason: "places an aspect W:H crop given no rect")
        }
        return .aspectCrop(ratio, gravity: placement)
    }
}

extension ImageOperation {
    /// The turns and flip that undo an EXIF `orientation` (its inverse, in `Orientation`'s turn-then-mirror terms):
    /// steps after which the pipeline's output is the picture as stored, not as shown. An editor that draws the stored
    /// pixels and applies the orientation itself renders its previews and regions with them.
    public static func undoing(_ orientation: Orientation) -> [ImageOperation] {
        let undo = orientation.inverse
        return Array(repeating: .turn(.clockwise), count: undo.quarterTurnsClockwise)
            + (undo.isMirrored ? [.flip(.horizontal)] : [])
    }
}
