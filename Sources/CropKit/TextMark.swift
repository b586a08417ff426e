import CropCodecs
import CropPixels

/// A line of text for a ``Watermark``: drawn in a font the caller (or the service's operator) gives, in a colour,
/// optionally with an outline or a soft shadow, at the size each output needs (never resampled).
///
/// HarfBuzz shapes the line (kerning, ligatures, any script) and FreeType draws it, both opened at run time. The
/// mark's box is the line's ink from side to side and the font's ascender to descender from top to bottom, so two
/// lines in one font at one size stand equally tall, plus room for the outline and the shadow; a ``Watermark``'s
/// scale sets that box's width as for a picture.
///
/// ```swift
/// let font = try FontFace(contentsOfFile: "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
/// let line = try TextMark("© Ada Photo", font: font, color: .white, shadow: PixelColor(gray: 0, alpha: 160))
/// let mark = try Watermark(text: line, scale: 0.3, opacity: 0.8)
/// ```
public struct TextMark: Hashable, Sendable {
    /// The line: 1 to `FontFace.maximumTextLength` characters, no line breaks.
    public let text: String
    public let font: FontFace
    /// The glyphs' colour (its alpha multiplies theirs). Default opaque white.
    public let color: PixelColor
    /// A line around the glyphs, 1/16 of the text's size wide, under them; `nil` for none.
    public let outline: PixelColor?
    /// A shadow, 1/16 of the text's size to the right and down, softened by a Gaussian of 1/50 of it; `nil` for none.
    public let shadow: PixelColor?
    /// The box's size at ``referenceSize`` pixels to the em, and where the pen starts in it (y down from its top).
    private let box: (width: Double, height: Double, penX: Double, baseline: Double)

    /// The size the box is measured at; a mark of any width is drawn at `referenceSize × width / box width`.
    static let referenceSize = 100.0
    static let outlineWidth = 1.0 / 16, shadowOffset = 1.0 / 16, shadowSigma = 1.0 / 50

    /// A line of text to lay over outputs.
    ///
    /// - Throws: ``CropKitError/invalidRequest(name:reason:)`` named `watermark-text` for an empty line, a line
    ///   break or control character, a character the font has no glyph for (named), more than
    ///   `FontFace.maximumTextLength` characters, or a line with no ink (only spaces);
    ///   ``CropKitError/codec(_:)`` with `CodecError.unusableFont` for a font FreeType cannot draw.
    public init(
        _ text: String, font: FontFace, color: PixelColor = .white, outline: PixelColor? = nil,
        shadow: PixelColor? = nil
    ) throws(CropKitError) {
        let metrics = try Self.measure(text, font: font, pixelSize: Self.referenceSize)
        guard metrics.inkRight > metrics.inkLeft else {
            throw .invalidRequest(name: "watermark-text", reason: "'\(text)' draws nothing in \(font.family)")
        }
        let size = Self.referenceSize
        let ring = outline == nil ? 0 : Self.outlineWidth * size
        let cast = shadow == nil ? 0 : Self.shadowOffset * size + 3 * Self.shadowSigma * size
        let top = Swift.max(metrics.ascender, metrics.inkTop), bottom = Swift.min(metrics.descender, metrics.inkBottom)
        box = (
            width: metrics.inkRight - metrics.inkLeft + 2 * ring + Swift.max(0, cast - ring),
            height: top - bottom + 2 * ring + Swift.max(0, cast - ring),
            penX: ring - metrics.inkLeft, baseline: ring + top
        )
        self.text = text
        self.font = font
        self.color = color
        self.outline = outline
        self.shadow = shadow
    }

    public static func == (a: TextMark, b: TextMark) -> Bool {
        a.text == b.text && a.font == b.font && a.color == b.color && a.outline == b.outline && a.shadow == b.shadow
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(text)
        hasher.combine(font)
        hasher.combine(color)
        hasher.combine(outline)
        hasher.combine(shadow)
    }

    /// The box's height over its width: a mark `w` wide is `w × aspect` tall.
    var aspect: Double { box.height / box.width }

    /// A digest of everything drawn, for the watermark's fingerprint.
    var digest: [UInt8] {
        func bytes(_ c: PixelColor?) -> [UInt8] {
            guard let c else { return [0] }
            return [1] + [c.red, c.green, c.blue, c.alpha].flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        }
        return Array(text.utf8) + [0] + (0..<8).map { UInt8(truncatingIfNeeded: font.fingerprint >> ($0 * 8)) }
            + bytes(color) + bytes(outline) + bytes(shadow)
    }

    /// The line drawn in a `width × height` box (8-bit RGBA, straight alpha), at the size that makes its box
    /// `width` wide: shadow, then outline, then glyphs, each laid over the one below.
    func rendered(width: Int, height: Int) throws(CropKitError) -> PixelBuffer {
        let scale = Double(width) / box.width
        let pixelSize = Swift.min(FontFace.maximumPixelSize, Swift.max(1, Self.referenceSize * scale))
        let fill = try Self.mappingFontErrors { () throws(CodecError) in
            try font.coverage(
                of: text, pixelSize: pixelSize, width: width, height: height, x: box.penX * scale,
                baseline: box.baseline * scale)
        }
        let em = pixelSize
        var layers: [(coverage: [Float], color: PixelColor)] = []
        let glyphs = fill.map { Float($0) / 255 }
        var body = glyphs
        if let outline {
            body = Self.dilated(glyphs, width: width, height: height, radius: Self.outlineWidth * em)
            layers.append((body, outline))
        }
        if let shadow {
            let cast = Self.shadowed(
                body, width: width, height: height, offset: Self.shadowOffset * em, sigma: Self.shadowSigma * em)
            layers.insert((cast, shadow), at: 0)
        }
        layers.append((glyphs, color))
        // "Over", premultiplied, from the bottom layer up; then back to straight alpha.
        var samples = [UInt8](repeating: 0, count: width * height * 4)
        let colors = layers.map { layer in
            (
                Float(layer.color.red) / 65535, Float(layer.color.green) / 65535, Float(layer.color.blue) / 65535,
                Float(layer.color.alpha) / 65535
            )
        }
        for i in 0..<(width * height) {
            var r: Float = 0, g: Float = 0, b: Float = 0, a: Float = 0
            for (layer, c) in zip(layers, colors) {
                let alpha = layer.coverage[i] * c.3
                guard alpha > 0 else { continue }
                r = c.0 * alpha + r * (1 - alpha)
                g = c.1 * alpha + g * (1 - alpha)
                b = c.2 * alpha + b * (1 - alpha)
                a = alpha + a * (1 - alpha)
            }
            guard a > 0 else { continue }
            samples[i * 4] = UInt8((r / a * 255).rounded())
            samples[i * 4 + 1] = UInt8((g / a * 255).rounded())
            samples[i * 4 + 2] = UInt8((b / a * 255).rounded())
            samples[i * 4 + 3] = UInt8((a * 255).rounded())
        }
        return try mappingErrors { try PixelBuffer(width: width, height: height, layout: .rgba, samples: samples) }
    }

    private static func measure(_ text: String, font: FontFace, pixelSize: Double) throws(CropKitError) -> TextMetrics {
        try mappingFontErrors { () throws(CodecError) in try font.measure(text, pixelSize: pixelSize) }
    }

    /// Runs a drawing, naming a bad line as the `watermark-text` request's fault and a bad font as the font's.
    private static func mappingFontErrors<T>(_ body: () throws(CodecError) -> T) throws(CropKitError) -> T {
        do {
            return try body()
        } catch .invalidArgument(let name, let reason) where name == "text" {
            throw .invalidRequest(name: "watermark-text", reason: reason)
        } catch {
            throw .codec(error)
        }
    }

    /// `coverage` grown by `radius` pixels: each pixel covered as far as it lies within the radius of an inked one
    /// (a Euclidean distance transform, linear in the area however wide the outline), anti-aliased over one pixel.
    static func dilated(_ coverage: [Float], width: Int, height: Int, radius: Double) -> [Float] {
        // Squared distance to the nearest pixel at least half covered, then the coverage of a disk's edge there;
        // a pixel's own coverage is kept when larger (the glyphs' anti-aliased edge inside the ring).
        let far = Float(width * width + height * height)
        var distance = coverage.map { $0 >= 0.5 ? 0 : far }
        var line = [Float](repeating: 0, count: Swift.max(width, height))
        var out = line
        for y in 0..<height {
            for x in 0..<width { line[x] = distance[y * width + x] }
            squaredDistance1D(line, count: width, into: &out)
            for x in 0..<width { distance[y * width + x] = out[x] }
        }
        for x in 0..<width {
            for y in 0..<height { line[y] = distance[y * width + x] }
            squaredDistance1D(line, count: height, into: &out)
            for y in 0..<height { distance[y * width + x] = out[y] }
        }
        let edge = Float(radius) + 0.5
        return zip(coverage, distance).map { own, squared in
            Swift.max(own, Swift.min(1, Swift.max(0, edge - squared.squareRoot())))
        }
    }

    /// Felzenszwalb and Huttenlocher's lower envelope of parabolas: `out[q] = min over p of (q − p)² + f[p]`.
    private static func squaredDistance1D(_ f: [Float], count n: Int, into out: inout [Float]) {
        guard n > 0 else { return }
        var v = [Int](repeating: 0, count: n), z = [Float](repeating: 0, count: n + 1)
        var k = 0
        z[0] = -.infinity
        z[1] = .infinity
        for q in 1..<Swift.max(1, n) {
            var s: Float
            repeat {
                let p = v[k]
                s = ((f[q] + Float(q * q)) - (f[p] + Float(p * p))) / Float(2 * (q - p))
                if s <= z[k] { k -= 1 } else { break }
            } while k >= 0
            k += 1
            v[k] = q
            z[k] = s
            z[k + 1] = .infinity
        }
        k = 0
        for q in 0..<n {
            while z[k + 1] < Float(q) { k += 1 }
            let d = Float(q - v[k])
            out[q] = d * d + f[v[k]]
        }
    }

    /// `coverage` moved `offset` pixels right and down (bilinearly, for a fractional offset) and blurred by
    /// CropPixels' Gaussian (the one face blurring uses), in 8 bits: a shadow's alpha needs no more.
    static func shadowed(_ coverage: [Float], width: Int, height: Int, offset: Double, sigma: Double) -> [Float] {
        let whole = Int(offset.rounded(.down)), part = Float(offset - Double(whole))
        func at(_ x: Int, _ y: Int) -> Float {
            x >= 0 && y >= 0 && x < width && y < height ? coverage[y * width + x] : 0
        }
        var moved = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let sx = x - whole, sy = y - whole
                let value =
                    at(sx, sy) * (1 - part) * (1 - part) + at(sx - 1, sy) * part * (1 - part)
                    + at(sx, sy - 1) * (1 - part) * part + at(sx - 1, sy - 1) * part * part
                moved[y * width + x] = UInt8((value * 255).rounded())
            }
        }
        // The box leaves 3σ beyond the shadow on every side it can reach, so the blur's clamped edges read zeros.
        guard sigma >= 0.3, var plane = try? PixelBuffer(width: width, height: height, layout: .gray, samples: moved)
        else { return moved.map { Float($0) / 255 } }
        plane.obscure(x: 0, y: 0, width: width, height: height, style: .blur(sigma: sigma))
        return plane.samples.map { Float($0) / 255 }
    }
}
