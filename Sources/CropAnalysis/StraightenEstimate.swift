import CropPixels

/// How much a picture is tilted, as ``StraightenDetector`` measured it: the straighten angle that levels it and how
/// sure the measure is.
public struct StraightenEstimate: Hashable, Sendable, Codable {
    /// The confidence below which an automatic straighten leaves the picture alone.
    public static let defaultMinimumConfidence = 0.5

    /// The straighten angle that levels the picture, in degrees counter-clockwise (the crop engine's
    /// `straightenAngle`), within ±``StraightenDetector/maximumAngle``; 0 when nothing was found.
    public var angle: Double
    /// How sure the estimate is, 0…1. From lines: `support / (support + 0.95)`, so 0.5 at a support of 0.95 (about a
    /// straight horizon across the whole picture, or two long verticals). From the projection profile:
    /// `(p − 1) / (p − 1 + 3.5)` for a peak `p` times the median, so 0.5 at 4.5.
    public var confidence: Double
    /// The weight of the lines that agree with ``angle``: each line's length in multiples of the picture's longer
    /// side to the power 1.5 (twice that for a vertical), times its straightness and how well it agrees. A line found
    /// at both analysis scales counts twice as long. For a ``Measure/projection`` estimate, the profile's peak over
    /// its median.
    public var support: Double
    /// How many lines agree with ``angle`` (0 for a ``Measure/projection`` estimate).
    public var lines: Int
    /// What the estimate was read from.
    public var measure: Measure

    /// What ``StraightenDetector`` read an estimate from.
    public enum Measure: String, Hashable, Sendable, Codable {
        /// Straight edges near level or upright, and the angle most of their length agrees on.
        case lines
        /// The projection profile of long straight structures that are not clean edges (a hanging chain, a rope):
        /// asked only when the lines were too few to judge. ``support`` is then the profile's peak over its median.
        case projection
    }

    /// Creates an estimate.
    public init(angle: Double, confidence: Double, support: Double, lines: Int, measure: Measure = .lines) {
        self.angle = angle
        self.confidence = confidence
        self.support = support
        self.lines = lines
        self.measure = measure
    }

    /// Decodes an estimate; one saved before ``measure`` existed reads as ``Measure/lines``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        angle = try container.decode(Double.self, forKey: .angle)
        confidence = try container.decode(Double.self, forKey: .confidence)
        support = try container.decode(Double.self, forKey: .support)
        lines = try container.decode(Int.self, forKey: .lines)
        measure = try container.decodeIfPresent(Measure.self, forKey: .measure) ?? .lines
    }

    /// No lines at all: angle 0, confidence 0.
    public static let none = StraightenEstimate(angle: 0, confidence: 0, support: 0, lines: 0)

    /// What the estimate rests on, for people: "12 lines", or "long straight structures (profile peak 6.1×)".
    public var evidence: String {
        switch measure {
        case .lines: lines == 1 ? "1 line" : "\(lines) lines"
        case .projection: "long straight structures (profile peak \((support * 10).rounded() / 10)×)"
        }
    }

    /// Whether the estimate is sure enough to apply.
    public func isConfident(minimum: Double = defaultMinimumConfidence) -> Bool { confidence >= minimum }

    /// The angle to apply: ``angle`` when confident enough, otherwise 0 (the picture is left as it is).
    public func appliedAngle(minimumConfidence: Double = defaultMinimumConfidence) -> Double {
        isConfident(minimum: minimumConfidence) ? angle : 0
    }
}
