/// How much a picture is tilted, as ``StraightenDetector`` measured it: the straighten angle that levels it and how
/// sure the measure is.
public struct StraightenEstimate: Hashable, Sendable, Codable {
    /// The confidence below which an automatic straighten leaves the picture alone.
    public static let defaultMinimumConfidence = 0.5

    /// The straighten angle that levels the picture, in degrees counter-clockwise (the crop engine's
    /// `straightenAngle`), within ±``StraightenDetector/maximumAngle``; 0 when nothing was found.
    public var angle: Double
    /// How sure the estimate is, 0…1: `support / (support + 1.6)`, so 0.5 at a support of 1.6 (about a horizon
    /// across the whole picture found at both analysis scales, or a few long verticals).
    public var confidence: Double
    /// The weight of the lines that agree with ``angle``: each line's length in multiples of the picture's longer
    /// side to the power 1.5 (twice that for a vertical), times how well it agrees. A line found at both analysis
    /// scales counts twice as long.
    public var support: Double
    /// How many lines agree with ``angle``.
    public var lines: Int

    /// Creates an estimate.
    public init(angle: Double, confidence: Double, support: Double, lines: Int) {
        self.angle = angle
        self.confidence = confidence
        self.support = support
        self.lines = lines
    }

    /// No lines at all: angle 0, confidence 0.
    public static let none = StraightenEstimate(angle: 0, confidence: 0, support: 0, lines: 0)

    /// Whether the estimate is sure enough to apply.
    public func isConfident(minimum: Double = defaultMinimumConfidence) -> Bool { confidence >= minimum }

    /// The angle to apply: ``angle`` when confident enough, otherwise 0 (the picture is left as it is).
    public func appliedAngle(minimumConfidence: Double = defaultMinimumConfidence) -> Double {
        isConfident(minimum: minimumConfidence) ? angle : 0
    }
}
