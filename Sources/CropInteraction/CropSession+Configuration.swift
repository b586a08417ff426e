import CropEngine
import CropGeometry

extension CropSession {
    /// Tunables, in view points unless stated.
    public struct Configuration: Hashable, Sendable, Codable {
        /// How far from a handle a press still grabs it.
        public var touchRadius: Double
        /// The side of a handle's square in the view state.
        public var handleSize: Double
        /// A press that moves less than this is a tap.
        public var tapSlop: Double
        /// How many undo steps are kept.
        public var historyLimit: Int
        /// The size of the stored-orientation preview image the browser draws (`nil`: the source size).
        public var previewSize: PixelSize?
        /// The context margin: the largest share of the viewport's width and of its height the crop box may take,
        /// in `(0, 1]`. The default 0.8 keeps at least a tenth of the viewport on each side of a centred box for the
        /// surrounding picture; 1 fits the box to the viewport less its insets alone.
        public var maximumBoxFraction: Double
        /// Degrees: a slider value or a two-finger turn within this of 0° snaps to 0°. 0 turns snapping off.
        public var straightenSnap: Double
        /// Degrees the two fingers of a pinch must turn before the picture turns with them, so that a pinch meant
        /// only to zoom never tilts the picture.
        public var rotationThreshold: Double
        /// An aspect ratio the host requires (an avatar, a fixed output size): the crop always has it, whatever
        /// the events. `aspect` and `swapAspect` events change nothing, quarter turns keep the output ratio, and a
        /// reset comes back to the largest crop of this ratio. `nil`: the person chooses.
        public var fixedAspect: AspectRatio?

        /// Creates a configuration.
        public init(touchRadius: Double = 24, handleSize: Double = 20, tapSlop: Double = 5, historyLimit: Int = 100,
                    previewSize: PixelSize? = nil, maximumBoxFraction: Double = 0.8, straightenSnap: Double = 0.5,
                    rotationThreshold: Double = 4, fixedAspect: AspectRatio? = nil)
        {
            self.fixedAspect = fixedAspect
            self.touchRadius = touchRadius
            self.handleSize = handleSize
            self.tapSlop = tapSlop
            self.historyLimit = historyLimit
            self.previewSize = previewSize
            self.maximumBoxFraction = maximumBoxFraction
            self.straightenSnap = straightenSnap
            self.rotationThreshold = rotationThreshold
        }

        private enum Key: String, CodingKey {
            case touchRadius, handleSize, tapSlop, historyLimit, previewSize, maximumBoxFraction, straightenSnap
            case rotationThreshold, fixedAspect
        }

        /// Decodes a configuration; every field is optional and takes its default when missing.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            let defaults = Configuration()
            self.init(
                touchRadius: try c.decodeIfPresent(Double.self, forKey: .touchRadius) ?? defaults.touchRadius,
                handleSize: try c.decodeIfPresent(Double.self, forKey: .handleSize) ?? defaults.handleSize,
                tapSlop: try c.decodeIfPresent(Double.self, forKey: .tapSlop) ?? defaults.tapSlop,
                historyLimit: try c.decodeIfPresent(Int.self, forKey: .historyLimit) ?? defaults.historyLimit,
                previewSize: try c.decodeIfPresent(PixelSize.self, forKey: .previewSize),
                maximumBoxFraction: try c.decodeIfPresent(Double.self, forKey: .maximumBoxFraction)
                    ?? defaults.maximumBoxFraction,
                straightenSnap: try c.decodeIfPresent(Double.self, forKey: .straightenSnap) ?? defaults.straightenSnap,
                rotationThreshold: try c.decodeIfPresent(Double.self, forKey: .rotationThreshold)
                    ?? defaults.rotationThreshold)
            switch try c.decodeIfPresent(AspectLock.self, forKey: .fixedAspect) {
            case nil: fixedAspect = nil
            case .ratio(let ratio)?: fixedAspect = ratio
            case let other?:
                throw DecodingError.dataCorruptedError(
                    forKey: .fixedAspect, in: c, debugDescription: "fixedAspect '\(other)' is not a W:H ratio")
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(touchRadius, forKey: .touchRadius)
            try c.encode(handleSize, forKey: .handleSize)
            try c.encode(tapSlop, forKey: .tapSlop)
            try c.encode(historyLimit, forKey: .historyLimit)
            try c.encodeIfPresent(previewSize, forKey: .previewSize)
            try c.encode(maximumBoxFraction, forKey: .maximumBoxFraction)
            try c.encode(straightenSnap, forKey: .straightenSnap)
            try c.encode(rotationThreshold, forKey: .rotationThreshold)
            try c.encodeIfPresent(fixedAspect.map(AspectLock.ratio), forKey: .fixedAspect)
        }
    }
}
