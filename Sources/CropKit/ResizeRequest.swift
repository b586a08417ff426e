import CropAnalysis
import CropGeometry
import CropPixels

/// A resize (``ImageOperation/resize(_:)``): a width, a height or a box, how the picture meets the box, the filter.
///
/// Sizes are in the pixels of the picture as the steps before it leave it (upright, cropped). Unless
/// ``allowUpscale`` is set nothing is enlarged: a fit stops at the picture's size, a fill covers at most the
/// picture's own pixels (the output keeps the box's proportions but may be smaller), a pad centres the unenlarged
/// picture in the full box.
public struct ResizeRequest: Hashable, Sendable {
    /// The requested size, in displayed pixels.
    public enum Target: Hashable, Sendable {
        /// This width; the height keeps the aspect ratio.
        case width(Int)
        /// This height; the width keeps the aspect ratio.
        case height(Int)
        /// A box, filled according to the ``ResizeRequest/mode``.
        case box(PixelSize)

        /// Whether the target names one side and the other follows the picture's proportions.
        var keepsProportions: Bool {
            switch self {
            case .width, .height: true
            case .box: false
            }
        }

        /// The box for a picture displayed at `shown`.
        func box(for shown: PixelSize) throws(CropKitError) -> PixelSize {
            switch self {
            case .width(let w):
                guard w >= 1 else { throw .invalidRequest(name: "width", reason: "\(w) must be at least 1") }
                return PixelSize(
                    validWidth: w,
                    height: Swift.max(1, Int((Double(shown.height) * Double(w) / Double(shown.width)).rounded())))
            case .height(let h):
                guard h >= 1 else { throw .invalidRequest(name: "height", reason: "\(h) must be at least 1") }
                return PixelSize(
                    validWidth: Swift.max(1, Int((Double(shown.width) * Double(h) / Double(shown.height)).rounded())),
                    height: h)
            case .box(let size):
                return size
            }
        }
    }

    /// The requested size.
    public var target: Target
    /// How the picture fills the box. Default `ResizeMode.fit`.
    public var mode: ResizeMode
    /// The resampling filter. Default Lanczos3.
    public var filter: ResamplingFilter
    /// Filter in linear light (see `ResampleOptions.linearLight`).
    public var linearLight: Bool
    /// Allow the output to be larger than the source. Default `false`.
    public var allowUpscale: Bool

    /// Creates a request; every argument but the target has the default described on its property.
    public init(
        _ target: Target, mode: ResizeMode = .fit, filter: ResamplingFilter = .lanczos3, linearLight: Bool = false,
        allowUpscale: Bool = false
    ) {
        self.target = target
        self.mode = mode
        self.filter = filter
        self.linearLight = linearLight
        self.allowUpscale = allowUpscale
    }

    /// Where the resize samples (displayed coordinates), what size it resamples to, and the padding after.
    struct Plan {
        var sourceRect: Rect
        var imageSize: PixelSize
        var pad: (size: PixelSize, x: Int, y: Int, background: PixelColor)?
    }

    func plan(shown: PixelSize, box: PixelSize) throws(CropKitError) -> Plan {
        var mode = mode
        if case .fit = mode, target.keepsProportions {
            // The box already has the picture's proportions, to a rounding: fitting into it again could lose a pixel
            // on the named side (203×133 to width 25 is a 25×16 box, and 133 → 16 alone would give 24×16).
            mode = .stretch
        }
        func layout(_ mode: ResizeMode, _ box: PixelSize) throws(CropKitError) -> ResizeLayout {
            try mappingErrors {
                try mode.layout(
                    sourceWidth: shown.width, sourceHeight: shown.height, width: box.width, height: box.height)
            }
        }
        var result = try layout(mode, box)
        // The largest enlargement on either axis; above 1 means upscaling.
        let enlargement = Swift.max(
            Double(result.imageSize.width) / result.sourceRect.width,
            Double(result.imageSize.height) / result.sourceRect.height)
        let upscales = !allowUpscale && enlargement > 1 + 1e-9
        switch mode {
        case .pad(let background, let alignment):
            let fitted = try layout(
                .fit,
                upscales
                    ? PixelSize(
                        validWidth: Swift.min(box.width, shown.width), height: Swift.min(box.height, shown.height))
                    : box)
            let image =
                upscales
                ? PixelSize(
                    validWidth: Swift.min(fitted.imageSize.width, shown.width),
                    height: Swift.min(fitted.imageSize.height, shown.height))
                : fitted.imageSize
            let x = Int((Double(box.width - image.width) * alignment.horizontalFraction).rounded())
            let y = Int((Double(box.height - image.height) * alignment.verticalFraction).rounded())
            let pad = image == box ? nil : (box, x, y, background)
            return Plan(sourceRect: fitted.sourceRect, imageSize: image, pad: pad)
        case .fit where upscales:
            result = try layout(.fit, shown)
        case .fill where upscales:
            result = try layout(
                mode,
                PixelSize(
                    validWidth: Swift.max(1, Int((Double(box.width) / enlargement).rounded(.down))),
                    height: Swift.max(1, Int((Double(box.height) / enlargement).rounded(.down)))))
        case .stretch where upscales:
            result = try layout(
                mode,
                PixelSize(validWidth: Swift.min(box.width, shown.width), height: Swift.min(box.height, shown.height)))
        default:
            break
        }
        return Plan(sourceRect: result.sourceRect, imageSize: result.imageSize, pad: nil)
    }
}
