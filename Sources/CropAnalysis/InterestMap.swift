import CropGeometry
import CropPixels

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// How interesting each part of a picture is, on a coarse grid: what a smart crop keeps as much of as it can.
///
/// The map is computed on a copy of the picture box-shrunk to at most ``analysisSide`` pixels on its longer side, so
/// its cost does not depend on the picture's size (feed it a shrink-on-load decode). Two measures:
///
/// - ``Measure/attention``: where the eye goes. Each pixel scores its luma edges (Sobel), its saturation and how
///   skin-like its colour is, weighted 1 : 0.6 : 1.5, times an anti-border prior that halves the weight of the outer
///   tenth of each side (subjects are rarely cut by the frame), times alpha.
/// - ``Measure/entropy``: where the information is. Each 4×4 cell scores the Shannon entropy (bits) of a 16-bin luma
///   histogram over the 12×12 pixels around it, times alpha.
///
/// Both are deterministic: the same pixels give the same map on every machine.
public struct InterestMap: Sendable {
    /// What the map measures.
    public enum Measure: String, CaseIterable, Hashable, Sendable, Codable {
        case attention, entropy
    }

    /// The measure a smart gravity asks for; `nil` for an alignment, a focal point or ``Gravity/face`` (which
    /// measures faces, not interest).
    public static func measure(for gravity: Gravity) -> Measure? {
        switch gravity {
        case .attention: .attention
        case .entropy: .entropy
        case .alignment, .focus, .pixelFocus, .face: nil
        }
    }

    /// The longer side of the analysis copy, in pixels.
    public static let analysisSide = 192

    /// The measure.
    public let measure: Measure
    /// Columns of the map.
    public let width: Int
    /// Rows of the map.
    public let height: Int
    /// The analysed picture's size, in its own pixels.
    public let sourceSize: Size
    /// Interest per map cell, row by row (non-negative).
    public let values: [Float]

    /// Measures `image`.
    ///
    /// - Throws: `PixelError` only if the analysis copy cannot be made (it cannot for a valid buffer).
    public init(_ image: PixelBuffer, measure: Measure) throws(PixelError) {
        let side = Double(Self.analysisSide)
        let f = Swift.min(1, side / Double(Swift.max(image.width, image.height)))
        let w = Swift.max(1, Int((Double(image.width) * f).rounded()))
        let h = Swift.max(1, Int((Double(image.height) * f).rounded()))
        let small =
            (w, h) == (image.width, image.height)
            ? image : try image.resized(width: w, height: h, options: ResampleOptions(filter: .box))
        let pixels = AnalysisPixels(small)
        self.measure = measure
        sourceSize = Size(width: Double(image.width), height: Double(image.height))
        switch measure {
        case .attention:
            width = w
            height = h
            values = Self.attention(pixels)
        case .entropy:
            width = (w + 3) / 4
            height = (h + 3) / 4
            values = Self.entropy(pixels, columns: width, rows: height)
        }
    }

    /// Creates a map from values (tests and callers with their own measure).
    public init(measure: Measure, width: Int, height: Int, sourceSize: Size, values: [Float]) {
        precondition(
            width > 0 && height > 0 && values.count == width * height, "\(values.count) values for \(width)×\(height)")
        self.measure = measure
        self.width = width
        self.height = height
        self.sourceSize = sourceSize
        self.values = values.map { Swift.max(0, $0) }
    }

    /// The interest of cell (`x`, `y`).
    public subscript(x x: Int, y y: Int) -> Float { values[y * width + x] }

    // MARK: Measures

    /// Edge, saturation and skin scores per pixel, with the anti-border prior.
    static func attention(_ p: AnalysisPixels) -> [Float] {
        let (w, h) = (p.width, p.height)
        var out = [Float](repeating: 0, count: w * h)
        for y in 0..<h {
            let ty = (Float(y) + 0.5) / Float(h)
            for x in 0..<w {
                let i = y * w + x
                // Sobel on luma, clamped at the border.
                func l(_ dx: Int, _ dy: Int) -> Float {
                    p.luma[Swift.min(Swift.max(y + dy, 0), h - 1) * w + Swift.min(Swift.max(x + dx, 0), w - 1)]
                }
                let gx = (l(1, -1) + 2 * l(1, 0) + l(1, 1)) - (l(-1, -1) + 2 * l(-1, 0) + l(-1, 1))
                let gy = (l(-1, 1) + 2 * l(0, 1) + l(1, 1)) - (l(-1, -1) + 2 * l(0, -1) + l(1, -1))
                let edge = Swift.min(1, (gx * gx + gy * gy).squareRoot() / 4)
                let (r, g, b) = (p.red[i], p.green[i], p.blue[i])
                let high = Swift.max(r, g, b), low = Swift.min(r, g, b)
                let saturation = high > 0 ? (high - low) / high * Swift.min(1, high * 2) : 0
                let tx = (Float(x) + 0.5) / Float(w)
                let prior = Self.borderPrior(tx) * Self.borderPrior(ty)
                out[i] = (edge + 0.6 * saturation + 1.5 * Self.skin(r, g, b)) * prior * p.alpha[i]
            }
        }
        return out
    }

    /// 1 inside, falling linearly to 0.5 at the edge over the outer tenth.
    static func borderPrior(_ t: Float) -> Float {
        let d = Swift.min(t, 1 - t)
        return d >= 0.1 ? 1 : 0.5 + 5 * d
    }

    /// How skin-like a colour is: 1 on the direction (0.78, 0.57, 0.44) of typical skin in RGB (smartcrop.js's
    /// reference), falling to 0 at a distance of 0.15 from it, and 0 for very dark or very light pixels.
    static func skin(_ r: Float, _ g: Float, _ b: Float) -> Float {
        let length = (r * r + g * g + b * b).squareRoot()
        let lightness = (r + g + b) / 3
        guard length > 0, lightness > 0.2, lightness < 0.95 else { return 0 }
        let dr = r / length - 0.7777, dg = g / length - 0.5683, db = b / length - 0.4378
        let distance = (dr * dr + dg * dg + db * db).squareRoot()
        return Swift.max(0, 1 - distance / 0.15)
    }

    /// Local luma entropy per 4×4 cell, over the 12×12 pixels centred on it.
    static func entropy(_ p: AnalysisPixels, columns: Int, rows: Int) -> [Float] {
        var out = [Float](repeating: 0, count: columns * rows)
        var histogram = [Float](repeating: 0, count: 16)
        for cy in 0..<rows {
            for cx in 0..<columns {
                for k in 0..<16 { histogram[k] = 0 }
                var total: Float = 0, alpha: Float = 0
                for y in Swift.max(0, cy * 4 - 4)..<Swift.min(p.height, cy * 4 + 8) {
                    for x in Swift.max(0, cx * 4 - 4)..<Swift.min(p.width, cx * 4 + 8) {
                        let i = y * p.width + x
                        histogram[Swift.min(15, Int(p.luma[i] * 16))] += p.alpha[i]
                        total += p.alpha[i]
                        alpha += 1
                    }
                }
                guard total > 0 else { continue }
                var bits: Float = 0
                for count in histogram where count > 0 {
                    let q = count / total
                    bits -= q * log2f(q)
                }
                out[cy * columns + cx] = bits * total / alpha
            }
        }
        return out
    }
}

/// A picture's pixels as floats in 0…1, one array per channel (gray repeated into red, green and blue; alpha 1 when
/// the picture has none), for the measures.
struct AnalysisPixels {
    let width: Int, height: Int
    var red: [Float], green: [Float], blue: [Float], alpha: [Float], luma: [Float]

    init(_ image: PixelBuffer) {
        width = image.width
        height = image.height
        let n = width * height
        red = [Float](repeating: 0, count: n)
        green = red
        blue = red
        alpha = [Float](repeating: 1, count: n)
        luma = red
        let scale = 1 / Float(image.format.depth.maxValue)
        let color = image.format.layout.isColor, hasAlpha = image.format.layout.hasAlpha
        let alphaChannel = image.format.layout.channelCount - 1
        for y in 0..<height {
            for x in 0..<width {
                let i = y * width + x
                let r = Float(image[x: x, y: y, channel: 0]) * scale
                let g = color ? Float(image[x: x, y: y, channel: 1]) * scale : r
                let b = color ? Float(image[x: x, y: y, channel: 2]) * scale : r
                red[i] = r
                green[i] = g
                blue[i] = b
                luma[i] = 0.299 * r + 0.587 * g + 0.114 * b
                if hasAlpha { alpha[i] = Float(image[x: x, y: y, channel: alphaChannel]) * scale }
            }
        }
    }
}
