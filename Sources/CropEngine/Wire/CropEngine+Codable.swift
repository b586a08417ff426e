import CropGeometry

// The engine's Codable conformances and the recipe's JSON, which the full toolchain compiles and Embedded Swift (the
// WebAssembly build, scripts/build-wasm) leaves out: Codable needs run-time reflection and JSON needs Foundation.
#if !hasFeature(Embedded)
    #if canImport(FoundationEssentials)
        import FoundationEssentials
    #else
        import Foundation
    #endif

    extension Recipe: Codable {
        private enum Key: String, CodingKey {
            case version, crop, angle, quarterTurns, flipHorizontal, flipVertical, aspect
        }

        private enum CropKey: String, CodingKey {
            case centerX, centerY, width, height
        }

        public init(from decoder: any Decoder) throws {
            let container: KeyedDecodingContainer<Key>
            do { container = try decoder.container(keyedBy: Key.self) } catch {
                throw GeometryError.invalidRecipe(field: "$", reason: "must be a JSON object")
            }
            func value<T: Decodable>(_ type: T.Type, _ key: Key, _ kind: String) throws -> T? {
                guard container.contains(key) else { return nil }
                do { return try container.decode(T.self, forKey: key) } catch {
                    throw GeometryError.invalidRecipe(field: key.rawValue, reason: "must be \(kind)")
                }
            }
            guard let version = try value(Int.self, .version, "a whole number") else {
                throw GeometryError.invalidRecipe(field: "version", reason: "is missing")
            }
            guard version == Self.currentVersion else {
                throw GeometryError.invalidRecipe(
                    field: "version", reason: "\(version) is not supported (this reader knows version 1)")
            }
            var center = Point(x: 0.5, y: 0.5), size = Size(width: 1, height: 1)
            if container.contains(.crop) {
                let nested: KeyedDecodingContainer<CropKey>
                do { nested = try container.nestedContainer(keyedBy: CropKey.self, forKey: .crop) } catch {
                    throw GeometryError.invalidRecipe(
                        field: "crop", reason: "must be an object with centerX, centerY, width and height")
                }
                func number(_ key: CropKey) throws -> Double {
                    guard nested.contains(key) else {
                        throw GeometryError.invalidRecipe(field: "crop.\(key.rawValue)", reason: "is missing")
                    }
                    do { return try nested.decode(Double.self, forKey: key) } catch {
                        throw GeometryError.invalidRecipe(field: "crop.\(key.rawValue)", reason: "must be a number")
                    }
                }
                center = Point(x: try number(.centerX), y: try number(.centerY))
                size = Size(width: try number(.width), height: try number(.height))
            }
            let angle = try value(Double.self, .angle, "a number") ?? 0
            let turns = try value(Int.self, .quarterTurns, "a whole number") ?? 0
            let flipH = try value(Bool.self, .flipHorizontal, "true or false") ?? false
            let flipV = try value(Bool.self, .flipVertical, "true or false") ?? false
            var aspect = AspectLock.free
            if let text = try value(String.self, .aspect, "a string: \"free\", \"original\" or \"W:H\"") {
                do { aspect = try AspectLock(string: text) } catch {
                    throw GeometryError.invalidRecipe(field: "aspect", reason: error.description)
                }
            }
            try self.init(
                cropCenter: center, cropSize: size, angle: angle, quarterTurns: turns, flipHorizontal: flipH,
                flipVertical: flipV, aspect: aspect)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(version, forKey: .version)
            var nested = container.nestedContainer(keyedBy: CropKey.self, forKey: .crop)
            try nested.encode(cropCenter.x, forKey: .centerX)
            try nested.encode(cropCenter.y, forKey: .centerY)
            try nested.encode(cropSize.width, forKey: .width)
            try nested.encode(cropSize.height, forKey: .height)
            try container.encode(angle, forKey: .angle)
            try container.encode(quarterTurns, forKey: .quarterTurns)
            try container.encode(flipHorizontal, forKey: .flipHorizontal)
            try container.encode(flipVertical, forKey: .flipVertical)
            try container.encode(aspect, forKey: .aspect)
        }
    }

    extension Recipe {
        /// Reads a recipe from JSON, throwing `GeometryError.invalidRecipe(field:reason:)` for anything malformed.
        public init(json: Data) throws(GeometryError) {
            do {
                self = try JSONDecoder().decode(Recipe.self, from: json)
            } catch let error as GeometryError {
                throw error
            } catch {
                throw .invalidRecipe(field: "$", reason: "not a JSON object")
            }
        }

        /// The recipe as JSON (keys sorted, so equal recipes give equal bytes).
        public func json() -> Data {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            // Encoding plain numbers, booleans and strings cannot fail.
            return (try? encoder.encode(self)) ?? Data()
        }
    }

    // Raw-value enums: encoded as their raw value.
    extension CropHandle: Codable {}
    extension QuarterTurn: Codable {}
    extension FlipAxis: Codable {}
    extension RotationAspectPolicy: Codable {}

#endif
