import CropAnalysis
import CropPixels

/// How ``ImageOperation/blurFaces(_:)`` hides the faces in an output: blurred or pixelated, how strongly, and how
/// much around each face.
public struct FaceBlur: Hashable, Sendable {
    /// Blurred or pixelated.
    public enum Style: String, CaseIterable, Hashable, Sendable {
        /// A Gaussian blur.
        case blur
        /// Squares filled with their mean colour.
        case pixelate
    }

    /// Blurred (the default) or pixelated.
    public var style: Style
    /// The blur's standard deviation, or the squares' side, as a fraction of the face's width (0.02…1; default 0.15,
    /// about seven squares across a face).
    public var strength: Double
    /// What is hidden around each face, as a fraction of its width, beyond its head (the box with the forehead,
    /// hair and ears; default 0.1).
    public var padding: Double

    /// A face blur; every argument has the default described on its property.
    public init(style: Style = .blur, strength: Double = 0.15, padding: Double = 0.1) {
        self.style = style
        self.strength = strength
        self.padding = padding
    }

    /// The region hidden for `face`: its head grown by ``padding`` of its width on every side.
    public func region(of face: Face) -> Rect {
        let head = face.head, grow = padding * face.rect.width
        return Rect(
            x: head.minX - grow, y: head.minY - grow, width: head.width + 2 * grow, height: head.height + 2 * grow)
    }

    /// `image` with every face `detector` finds in it hidden, and nothing else changed.
    func apply(to image: PixelBuffer, detector: any FaceDetecting) throws(PixelError) -> PixelBuffer {
        var result = image
        for face in try detector.faces(in: image) {
            let region = region(of: face)
            let x = Int(region.minX.rounded(.down)), y = Int(region.minY.rounded(.down))
            let width = Int(region.maxX.rounded(.up)) - x, height = Int(region.maxY.rounded(.up)) - y
            let amount = Swift.max(1, strength * face.rect.width)
            result.obscure(
                x: x, y: y, width: width, height: height,
                style: style == .blur ? .blur(sigma: amount) : .pixelate(block: Int(amount.rounded())))
        }
        return result
    }
}
