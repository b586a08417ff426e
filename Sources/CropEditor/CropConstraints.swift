import CropKit

/// What a host requires of the crop and of what Done renders: a fixed aspect ratio, a minimum crop size, an exact
/// output size and a round output. The default requires nothing.
///
/// The engine enforces the crop's part (`CropSession.Configuration.fixedAspect`, `CropState.minimumCropSize`), so
/// no page can get around it; the page reads them from the WebSocket's `hello` to disable the aspect controls, say
/// what Done will save, and draw a circle instead of a box. In JSON (the `hello`'s `"constraints"`):
/// `{"aspect": "1:1" | null, "minimumCropSize": 64, "outputSize": {"width": 256, "height": 256} | null, "round": true}`.
public struct CropConstraints: Hashable, Sendable, Encodable {
    /// The aspect ratio the crop always has (the output size's, when one is set); `nil`: the person chooses.
    public let aspect: AspectRatio?
    /// The smallest crop side, in source pixels (at least 1).
    public let minimumCropSize: Double
    /// The exact size Done renders (the crop, resized); `nil`: the crop at full source resolution.
    public let outputSize: PixelSize?
    /// Whether the output is round: the page draws the ellipse inscribed in the box, and Done makes everything
    /// outside it transparent (PNG unless a format with alpha is asked for).
    public let isRound: Bool

    /// No requirement.
    public static let none = CropConstraints()

    /// Creates constraints.
    ///
    /// - Parameters:
    ///   - aspect: the ratio the crop must have. With `outputSize` it may be omitted; given, it must be the size's.
    ///   - minimumCropSize: the smallest crop side in source pixels, at least 1.
    ///   - outputSize: the exact size Done renders.
    ///   - isRound: a round output.
    /// - Throws: `EditorError.invalidParameter(name:reason:)` naming `minimumCropSize` or `aspect` when they are
    ///   out of range or disagree with the output size.
    public init(
        aspect: AspectRatio? = nil, minimumCropSize: Double = 1, outputSize: PixelSize? = nil,
        isRound: Bool = false
    ) throws(EditorError) {
        guard minimumCropSize.isFinite, minimumCropSize >= 1, minimumCropSize <= Double(CropState.maximumSide) else {
            throw .invalidParameter(name: "minimumCropSize", reason: "\(minimumCropSize) is not a number of pixels ≥ 1")
        }
        let sized = outputSize.map(AspectRatio.init(of:))
        if let aspect, let sized, aspect != sized {
            throw .invalidParameter(name: "aspect", reason: "\(aspect) is not the output size's ratio \(sized)")
        }
        self.aspect = aspect ?? sized
        self.minimumCropSize = minimumCropSize
        self.outputSize = outputSize
        self.isRound = isRound
    }

    private init() {
        aspect = nil
        minimumCropSize = 1
        outputSize = nil
        isRound = false
    }

    private enum Key: String, CodingKey { case aspect, minimumCropSize, outputSize, round }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        if let aspect { try c.encode(aspect.description, forKey: .aspect) } else { try c.encodeNil(forKey: .aspect) }
        try c.encode(minimumCropSize, forKey: .minimumCropSize)
        if let outputSize {
            try c.encode(outputSize, forKey: .outputSize)
        } else {
            try c.encodeNil(forKey: .outputSize)
        }
        try c.encode(isRound, forKey: .round)
    }

    /// The steps Done adds after the crop: the resize to the output size, then the round mask.
    var outputSteps: [ImageOperation] {
        var steps: [ImageOperation] = []
        if let outputSize {
            steps.append(.resize(ResizeRequest(.box(outputSize), mode: .fill(), allowUpscale: true)))
        }
        if isRound { steps.append(.roundCorners(.circle)) }
        return steps
    }
}
