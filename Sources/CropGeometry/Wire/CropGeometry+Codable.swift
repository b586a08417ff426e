// The primitives' Codable conformances, which the full toolchain compiles and Embedded Swift (the WebAssembly
// build, scripts/build-wasm) leaves out: Codable needs run-time reflection Embedded Swift does not have. The JSON is
// the one each type had when it declared Codable itself.
#if !hasFeature(Embedded)

    extension Point: Codable {
        private enum CodingKeys: String, CodingKey { case x, y }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.init(x: try c.decode(Double.self, forKey: .x), y: try c.decode(Double.self, forKey: .y))
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(x, forKey: .x)
            try c.encode(y, forKey: .y)
        }
    }

    extension Size: Codable {
        private enum CodingKeys: String, CodingKey { case width, height }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                width: try c.decode(Double.self, forKey: .width), height: try c.decode(Double.self, forKey: .height))
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(width, forKey: .width)
            try c.encode(height, forKey: .height)
        }
    }

    extension Rect: Codable {
        private enum CodingKeys: String, CodingKey { case origin, size }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.init(origin: try c.decode(Point.self, forKey: .origin), size: try c.decode(Size.self, forKey: .size))
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(origin, forKey: .origin)
            try c.encode(size, forKey: .size)
        }
    }

    extension EdgeInsets: Codable {
        private enum CodingKeys: String, CodingKey { case top, left, bottom, right }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                top: try c.decode(Double.self, forKey: .top), left: try c.decode(Double.self, forKey: .left),
                bottom: try c.decode(Double.self, forKey: .bottom), right: try c.decode(Double.self, forKey: .right))
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(top, forKey: .top)
            try c.encode(left, forKey: .left)
            try c.encode(bottom, forKey: .bottom)
            try c.encode(right, forKey: .right)
        }
    }

    extension AffineTransform2D: Codable {
        private enum CodingKeys: String, CodingKey { case a, b, c, d, tx, ty }

        public init(from decoder: any Decoder) throws {
            let k = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                a: try k.decode(Double.self, forKey: .a), b: try k.decode(Double.self, forKey: .b),
                c: try k.decode(Double.self, forKey: .c), d: try k.decode(Double.self, forKey: .d),
                tx: try k.decode(Double.self, forKey: .tx), ty: try k.decode(Double.self, forKey: .ty))
        }

        public func encode(to encoder: any Encoder) throws {
            var k = encoder.container(keyedBy: CodingKeys.self)
            try k.encode(a, forKey: .a)
            try k.encode(b, forKey: .b)
            try k.encode(c, forKey: .c)
            try k.encode(d, forKey: .d)
            try k.encode(tx, forKey: .tx)
            try k.encode(ty, forKey: .ty)
        }
    }

    extension PixelSize: Codable {
        private enum CodingKeys: String, CodingKey { case width, height }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let width = try container.decode(Int.self, forKey: .width)
            let height = try container.decode(Int.self, forKey: .height)
            do {
                try self.init(width: width, height: height)
            } catch {
                throw DecodingError.dataCorruptedError(
                    forKey: .width, in: container, debugDescription: error.description)
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(width, forKey: .width)
            try c.encode(height, forKey: .height)
        }
    }

    /// Encoded as a JSON string: `"free"`, `"original"` or `"W:H"`.
    extension AspectLock: Codable {
        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            let string = try container.decode(String.self)
            do {
                self = try AspectLock(string: string)
            } catch {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(description)
        }
    }

    // Raw-value enums: encoded as their raw value.
    extension ContentMode: Codable {}
    extension Orientation: Codable {}
    extension Alignment: Codable {}

#endif
