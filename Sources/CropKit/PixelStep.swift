import CropGeometry
import CropPixels

/// An operation on the whole finished output, after the resample: padding, a frame, rounded corners, a border, a
/// background.
enum PixelStep: Hashable {
    /// Place the picture at (`x`, `y`) in a `size` canvas of `background` (a resize's pad mode).
    case pad(PixelSize, x: Int, y: Int, background: PixelColor)
    /// A transparent border inside the picture and rounded corners (a thumbnail's).
    case frame(border: Int, cornerRadius: Double)
    /// Rounded corners or a circle, inside a transparent margin.
    case round(CornerRadius, border: Int)
    /// A border of `color` around the picture.
    case border(Int, color: PixelColor)
    /// Composite over an opaque colour.
    case background(PixelColor)
    /// Hide the faces `detector` finds.
    case blurFaces(FaceBlur, detector: HOGFaceDetector)
    /// Lay a mark over the picture.
    case watermark(Watermark)

    /// The size of a `size` picture after this step.
    func size(after size: PixelSize) -> PixelSize {
        switch self {
        case .pad(let canvas, _, _, _): canvas
        case .border(let width, _): PixelSize(validWidth: size.width + 2 * width, height: size.height + 2 * width)
        case .frame, .round, .background, .blurFaces, .watermark: size
        }
    }

    /// The picture after this step.
    func apply(to image: PixelBuffer) throws(CropKitError) -> PixelBuffer {
        if case .watermark(let mark) = self { return try mark.apply(to: image) }
        return try mappingErrors { try applyPixels(to: image) }
    }

    private func applyPixels(to image: PixelBuffer) throws(PixelError) -> PixelBuffer {
        switch self {
        case .pad(let size, let x, let y, let background):
            try image.padded(toWidth: size.width, height: size.height, x: x, y: y, background: background)
        case .frame(let border, let cornerRadius):
            try image.framed(border: border, cornerRadius: cornerRadius)
        case .round(.circle, let border):
            try image.circleCropped(border: border)
        case .round(.pixels(let radius), let border):
            try image.roundedCorners(radius: radius, border: border)
        case .border(let width, let color):
            try image.padded(
                toWidth: image.width + 2 * width, height: image.height + 2 * width, x: width, y: width,
                background: color)
        case .background(let color):
            image.flattened(over: color)
        case .blurFaces(let blur, let detector):
            try blur.apply(to: image, detector: detector)
        case .watermark:
            image
        }
    }
}
