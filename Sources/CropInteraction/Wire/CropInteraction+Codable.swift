import CropEngine
import CropGeometry

// The interaction floor's Codable conformances, which the full toolchain compiles and Embedded Swift (the
// WebAssembly build, scripts/build-wasm) leaves out: Codable needs run-time reflection Embedded Swift does not have.
#if !hasFeature(Embedded)

    extension CropSession.Configuration: Codable {
        private enum Key: String, CodingKey {
            case touchRadius, handleSize, tapSlop, historyLimit, previewSize, maximumBoxFraction, straightenSnap
            case rotationThreshold, fixedAspect
        }

        /// Decodes a configuration; every field is optional and takes its default when missing.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            let defaults = CropSession.Configuration()
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

    extension RectangleSelection.Configuration: Codable {
        private enum CodingKeys: String, CodingKey { case touchRadius, tapSlop, minimumSize }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                touchRadius: try c.decode(Double.self, forKey: .touchRadius),
                tapSlop: try c.decode(Double.self, forKey: .tapSlop),
                minimumSize: try c.decode(Double.self, forKey: .minimumSize))
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(touchRadius, forKey: .touchRadius)
            try c.encode(tapSlop, forKey: .tapSlop)
            try c.encode(minimumSize, forKey: .minimumSize)
        }
    }

    // Raw-value enums: encoded as their raw value.
    extension InteractionMode: Codable {}
    extension ZoomViewport.MinimumZoom: Codable {}
    extension PointerIntent: Codable {}
    extension CropGesture: Codable {}

#endif
