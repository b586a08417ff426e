#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// BlurHash (Wolt's compact placeholder: a few cosine components of the picture, as base-83 text), computed exactly as
/// the reference encoder (woltapp/blurhash's C and TypeScript, PyPI's `blurhash`) computes it, so any BlurHash decoder
/// draws it.
public enum BlurHash {
    /// The component counts a picture of `width × height` gets when none are given: 4 along the longer side and
    /// the shorter side's share of 4, at least 3 (4×3 for a 4:3 landscape, 3×4 for a portrait, 4×4 for a square).
    public static func components(width: Int, height: Int) -> (x: Int, y: Int) {
        let long = Swift.max(width, height), short = Swift.min(width, height)
        let shortComponents = Swift.min(
            4, Swift.max(3, Int((4 * Double(short) / Double(Swift.max(long, 1))).rounded())))
        return width >= height ? (4, shortComponents) : (shortComponents, 4)
    }

    /// The allowed component counts along either side.
    public static let componentRange = 1...9

    /// The BlurHash of `image` (any format; alpha is composited over white, since BlurHash has none) with
    /// `componentsX × componentsY` components.
    ///
    /// - Throws: ``PixelError/invalidArgument(name:reason:)`` for a component count outside ``componentRange``.
    /// - Complexity: O(width × height × componentsX × componentsY); meant for a picture of about 100 pixels a side.
    public static func encode(_ image: PixelBuffer, componentsX: Int, componentsY: Int) throws(PixelError) -> String {
        guard componentRange.contains(componentsX), componentRange.contains(componentsY) else {
            throw .invalidArgument(
                name: "components", reason: "BlurHash's \(componentsX)×\(componentsY) is outside 1…9 per side")
        }
        let width = image.width, height = image.height
        let rgba = image.rgba8Samples()
        // Linear light of each pixel over white.
        var linear = [Double](repeating: 0, count: width * height * 3)
        for i in 0..<width * height {
            let alpha = Double(rgba[4 * i + 3]) / 255
            for c in 0..<3 {
                let over = Double(rgba[4 * i + c]) * alpha + 255 * (1 - alpha)
                linear[3 * i + c] = sRGBToLinear(Int(over.rounded()))
            }
        }
        var factors: [(Double, Double, Double)] = []
        var cosX = [Double](repeating: 0, count: width)
        for j in 0..<componentsY {
            for i in 0..<componentsX {
                for x in 0..<width { cosX[x] = cos(Double.pi * Double(i) * Double(x) / Double(width)) }
                let normalisation: Double = i == 0 && j == 0 ? 1 : 2
                var r = 0.0, g = 0.0, b = 0.0
                for y in 0..<height {
                    let cosY = cos(Double.pi * Double(j) * Double(y) / Double(height))
                    for x in 0..<width {
                        let basis = cosX[x] * cosY, p = 3 * (y * width + x)
                        r += basis * linear[p]
                        g += basis * linear[p + 1]
                        b += basis * linear[p + 2]
                    }
                }
                let scale = normalisation / Double(width * height)
                factors.append((r * scale, g * scale, b * scale))
            }
        }
        var hash = base83((componentsX - 1) + (componentsY - 1) * 9, length: 1)
        let dc = factors[0], ac = factors.dropFirst()
        let maximum: Double
        if ac.isEmpty {
            maximum = 1
            hash += base83(0, length: 1)
        } else {
            let actual = ac.map { Swift.max(abs($0.0), abs($0.1), abs($0.2)) }.max()!
            let quantised = Swift.max(0, Swift.min(82, Int((actual * 166 - 0.5).rounded(.down))))
            maximum = Double(quantised + 1) / 166
            hash += base83(quantised, length: 1)
        }
        hash += base83(linearToSRGB(dc.0) << 16 | linearToSRGB(dc.1) << 8 | linearToSRGB(dc.2), length: 4)
        for factor in ac {
            func quantise(_ v: Double) -> Int {
                Swift.max(0, Swift.min(18, Int((signedSquareRoot(v / maximum) * 9 + 9.5).rounded(.down))))
            }
            hash += base83(quantise(factor.0) * 19 * 19 + quantise(factor.1) * 19 + quantise(factor.2), length: 2)
        }
        return hash
    }

    private static let alphabet = Array(
        "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~")

    private static func base83(_ value: Int, length: Int) -> String {
        var text = ""
        var divisor = 1
        for _ in 1..<Swift.max(length, 1) { divisor *= 83 }
        for _ in 0..<length {
            text.append(alphabet[(value / divisor) % 83])
            divisor /= 83
        }
        return text
    }

    private static func signedSquareRoot(_ v: Double) -> Double { v < 0 ? -(-v).squareRoot() : v.squareRoot() }

    /// sRGB 0…255 → linear 0…1.
    package static func sRGBToLinear(_ value: Int) -> Double {
        let v = Double(value) / 255
        return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
    }

    /// Linear 0…1 → sRGB 0…255, as the reference rounds it.
    package static func linearToSRGB(_ value: Double) -> Int {
        let v = Swift.max(0, Swift.min(1, value))
        return v <= 0.0031308 ? Int(v * 12.92 * 255 + 0.5) : Int((1.055 * pow(v, 1 / 2.4) - 0.055) * 255 + 0.5)
    }
}

/// ThumbHash (Evan Wallace's placeholder: luminance, colour and alpha as a few cosine components in about 25 bytes,
/// keeping the aspect ratio and alpha), computed exactly as the reference encoder (evanw/thumbhash's JavaScript,
/// PyPI's `thumbhash-python`) computes it.
public enum ThumbHash {
    /// The largest side the encoder takes, as the reference's.
    public static let maximumSide = 100

    /// The ThumbHash bytes of `image` (any format, at most ``maximumSide`` pixels a side).
    ///
    /// - Throws: ``PixelError/invalidArgument(name:reason:)`` for a larger picture.
    public static func encode(_ image: PixelBuffer) throws(PixelError) -> [UInt8] {
        let w = image.width, h = image.height
        guard w <= maximumSide, h <= maximumSide else {
            throw .invalidArgument(
                name: "size", reason: "a \(w)×\(h) picture is larger than ThumbHash's \(maximumSide)×\(maximumSide)")
        }
        let rgba = image.rgba8Samples()
        var averageR = 0.0, averageG = 0.0, averageB = 0.0, averageA = 0.0
        for i in 0..<w * h {
            let alpha = Double(rgba[4 * i + 3]) / 255
            averageR += alpha / 255 * Double(rgba[4 * i])
            averageG += alpha / 255 * Double(rgba[4 * i + 1])
            averageB += alpha / 255 * Double(rgba[4 * i + 2])
            averageA += alpha
        }
        if averageA > 0 {
            averageR /= averageA
            averageG /= averageA
            averageB /= averageA
        }
        let hasAlpha = averageA < Double(w * h)
        let luminanceLimit = hasAlpha ? 5.0 : 7.0
        let longer = Double(Swift.max(w, h))
        let lx = Swift.max(1, round(luminanceLimit * Double(w) / longer))
        let ly = Swift.max(1, round(luminanceLimit * Double(h) / longer))
        var l = [Double](repeating: 0, count: w * h), p = l, q = l, a = l
        // RGBA → LPQA, composited atop the average colour.
        for i in 0..<w * h {
            let alpha = Double(rgba[4 * i + 3]) / 255
            let r = averageR * (1 - alpha) + alpha / 255 * Double(rgba[4 * i])
            let g = averageG * (1 - alpha) + alpha / 255 * Double(rgba[4 * i + 1])
            let b = averageB * (1 - alpha) + alpha / 255 * Double(rgba[4 * i + 2])
            l[i] = (r + g + b) / 3
            p[i] = (r + g) / 2 - b
            q[i] = r - g
            a[i] = alpha
        }
        func encodeChannel(_ channel: [Double], _ nx: Int, _ ny: Int) -> (dc: Double, ac: [Double], scale: Double) {
            var dc = 0.0, ac: [Double] = [], scale = 0.0
            var fx = [Double](repeating: 0, count: w)
            for cy in 0..<ny {
                var cx = 0
                while cx * ny < nx * (ny - cy) {
                    var f = 0.0
                    for x in 0..<w { fx[x] = cos(Double.pi / Double(w) * Double(cx) * (Double(x) + 0.5)) }
                    for y in 0..<h {
                        let fy = cos(Double.pi / Double(h) * Double(cy) * (Double(y) + 0.5))
                        for x in 0..<w { f += channel[x + y * w] * fx[x] * fy }
                    }
                    f /= Double(w * h)
                    if cx > 0 || cy > 0 {
                        ac.append(f)
                        scale = Swift.max(scale, abs(f))
                    } else {
                        dc = f
                    }
                    cx += 1
                }
            }
            if scale > 0 { ac = ac.map { 0.5 + 0.5 / scale * $0 } }
            return (dc, ac, scale)
        }
        let lum = encodeChannel(l, Swift.max(3, Int(lx)), Swift.max(3, Int(ly)))
        let yb = encodeChannel(p, 3, 3), rg = encodeChannel(q, 3, 3)
        let alpha = hasAlpha ? encodeChannel(a, 5, 5) : nil
        let isLandscape = w > h
        let header24 =
            round(63 * lum.dc) | round(31.5 + 31.5 * yb.dc) << 6 | round(31.5 + 31.5 * rg.dc) << 12
            | round(31 * lum.scale) << 18 | (hasAlpha ? 1 << 23 : 0)
        let header16 =
            Int(isLandscape ? ly : lx) | round(63 * yb.scale) << 3 | round(63 * rg.scale) << 9
            | (isLandscape ? 1 << 15 : 0)
        var hash = [header24 & 255, header24 >> 8 & 255, header24 >> 16, header16 & 255, header16 >> 8]
        if let alpha { hash.append(round(15 * alpha.dc) | round(15 * alpha.scale) << 4) }
        let start = hash.count
        var index = 0
        for ac in [lum.ac, yb.ac, rg.ac] + (alpha.map { [$0.ac] } ?? []) {
            for f in ac {
                let slot = start + index >> 1
                if slot == hash.count { hash.append(0) }
                hash[slot] |= round(15 * f) << ((index & 1) << 2)
                index += 1
            }
        }
        return hash.map { UInt8($0) }
    }

    /// JavaScript's `Math.round`: halves go up.
    private static func round(_ v: Double) -> Int { Int((v + 0.5).rounded(.down)) }
}

extension PixelBuffer {
    /// Every pixel as 8-bit RGBA, row by row (gray is spread to RGB, a missing alpha is 255, 16-bit samples are
    /// rounded to 8). Meant for small pictures.
    package func rgba8Samples() -> [UInt8] {
        var out = [UInt8](repeating: 255, count: width * height * 4)
        if format == .rgba8 || format == .rgb8 {
            let channels = format.channelCount
            withUnsafeRows { rows in
                out.withUnsafeMutableBufferPointer { out in
                    for y in 0..<height {
                        let line = rows.row8(y), base = y * width * 4
                        for x in 0..<width {
                            for c in 0..<channels { out[base + 4 * x + c] = line[x * channels + c] }
                        }
                    }
                }
            }
            return out
        }
        let sixteen = format.depth == .sixteen
        func eight(_ v: Int) -> UInt8 { UInt8(sixteen ? (v * 255 + 32_767) / 65_535 : v) }
        let layout = format.layout
        for y in 0..<height {
            for x in 0..<width {
                let o = 4 * (y * width + x)
                switch layout {
                case .gray, .grayAlpha:
                    let v = eight(self[x: x, y: y, channel: 0])
                    out[o] = v
                    out[o + 1] = v
                    out[o + 2] = v
                    if layout == .grayAlpha { out[o + 3] = eight(self[x: x, y: y, channel: 1]) }
                case .rgb, .rgba:
                    for c in 0..<3 { out[o + c] = eight(self[x: x, y: y, channel: c]) }
                    if layout == .rgba { out[o + 3] = eight(self[x: x, y: y, channel: 3]) }
                }
            }
        }
        return out
    }
}
