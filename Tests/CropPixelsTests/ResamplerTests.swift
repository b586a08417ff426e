import CropGeometry
import Foundation
import Testing

@testable import CropPixels

@Suite("Resampler")
struct ResamplerTests {
    static let filters = ResamplingFilter.allCases

    @Test("weights of every output sum to one and stay inside the source", arguments: filters)
    func weightsSumToOne(_ filter: ResamplingFilter) throws {
        let cases: [(Int, Int, Double, Double)] = [
            (100, 7, 0, 100), (7, 100, 0, 7), (13, 13, 0, 13), (64, 21, 3.25, 60.5), (5, 1, 0, 5), (1, 9, 0, 1),
            (4000, 1280, 0, 4000),
        ]
        for (inSize, outSize, in0, in1) in cases {
            let axis = ResampleAxis(filter: filter, inSize: inSize, outSize: outSize, in0: in0, in1: in1)
            let fixed = FixedTaps(axis)
            for i in 0..<outSize {
                let w = axis.weights(of: i)
                #expect(abs(w.reduce(0, +) - 1) < 1e-12, "output \(i) of \(inSize)→\(outSize)")
                #expect(axis.first[i] >= 0 && axis.first[i] + axis.count[i] <= inSize)
                let pairs = fixed.coefficients[Int(fixed.offset[i])..<Int(fixed.offset[i] + fixed.pairs[i])]
                let sum = pairs.reduce(Int32(0)) { s, p in
                    s + Int32(Int16(truncatingIfNeeded: p)) + Int32(Int16(truncatingIfNeeded: p >> 16))
                }
                #expect(sum == FixedTaps.one, "fixed-point weights of output \(i) sum to \(sum)")
            }
        }
    }

    @Test("a constant image stays exactly constant in every format, reduced and enlarged", arguments: filters)
    func constantStaysConstant(_ filter: ResamplingFilter) throws {
        for format in allFormats {
            let maxValue = format.depth.maxValue
            let values =
                format.layout.hasAlpha
                ? [maxValue / 3, maxValue * 2 / 5, maxValue * 5 / 7, maxValue * 37 / 255]
                : [maxValue / 3, maxValue * 2 / 5, maxValue * 5 / 7]
            let image = try makeBuffer(width: 13, height: 9, format: format) { _, _, c in values[c % values.count] }
            for linear in [false, true] {
                let options = ResampleOptions(filter: filter, linearLight: linear)
                let tolerance = linear ? 1 : 0
                for (w, h, rect) in [
                    (5, 4, nil), (31, 20, nil), (6, 7, Rect(x: 1.5, y: 0.25, width: 10.75, height: 8.5)),
                ] {
                    let out =
                        try rect.map { try image.resized(width: w, height: h, from: $0, options: options) }
                        ?? image.resized(width: w, height: h, options: options)
                    #expect(out.format == format && out.width == w && out.height == h)
                    let expected = (0..<(w * h)).flatMap { _ in
                        (0..<format.channelCount).map { values[$0 % values.count] }
                    }
                    let diff = zip(out.samples, expected).map { abs($0 - $1) }.max()!
                    #expect(diff <= tolerance, "\(format) \(filter) linear \(linear) → \(w)×\(h): off by \(diff)")
                }
            }
        }
    }

    @Test("matches Pillow's Image.resize on a reference pattern (within one level)")
    func matchesPillow() throws {
        // 9×7 RGB: R = (37x + 11y) mod 256, G = (5x² + 23y) mod 256, B = 255 on odd x+y. Expected values from
        // Pillow 11 (`Image.resize(size, filter[, box])`).
        let image = try makeBuffer(width: 9, height: 7, format: .rgb8) { x, y, c in
            [(x * 37 + y * 11) % 256, (x * x * 5 + y * 23) % 256, (x + y) % 2 == 1 ? 255 : 0][c]
        }
        let lanczos = [
            30, 18, 125, 112, 52, 128, 202, 157, 128, 64, 117, 125, 55, 70, 129, 144, 115, 127, 197, 180,
            127, 70, 99, 129, 78, 122, 125, 182, 179, 128, 157, 120, 128, 53, 120, 125,
        ]
        let bicubic = [
            33, 20, 125, 114, 58, 128, 196, 153, 128, 64, 114, 125, 58, 72, 128, 141, 113, 127, 195, 177,
            127, 72, 103, 128, 83, 124, 125, 172, 171, 128, 160, 124, 128, 60, 123, 125,
        ]
        let bilinear = [
            40, 26, 125, 115, 65, 128, 181, 144, 128, 70, 114, 125, 64, 75, 129, 139, 114, 127, 185, 167,
            127, 79, 109, 129, 88, 124, 125, 163, 161, 128, 160, 129, 128, 66, 122, 125,
        ]
        let boxed = [
            73, 33, 128, 130, 71, 127, 223, 162, 127, 100, 140, 128, 96, 81, 127, 158, 123, 128, 226, 211,
            128, 98, 104, 127, 118, 130, 128, 199, 190, 127, 183, 138, 127, 35, 81, 128,
        ]
        for (filter, expected) in [(ResamplingFilter.lanczos3, lanczos), (.catmullRom, bicubic), (.bilinear, bilinear)]
        {
            let out = try image.resized(width: 4, height: 3, options: ResampleOptions(filter: filter))
            let diff = zip(out.samples, expected).map { abs($0 - $1) }.max()!
            #expect(diff <= 1, "\(filter): off by \(diff)")
        }
        let box = try image.resized(width: 4, height: 3, from: Rect(x: 1.5, y: 0.25, width: 6.5, height: 6.25))
        #expect(zip(box.samples, boxed).allSatisfy { abs($0 - $1) <= 1 })
        let up = try image.resized(width: 13, height: 10)
        // Spot checks of the enlargement (Pillow: row 0 starts 0 0 0 14 1 166; the last pixel is 98 171 166 … 0).
        #expect(Array(up.samples.prefix(6)).elementsEqual([0, 0, 0, 14, 1, 166]) { abs($0 - $1) <= 1 })
        #expect(abs(up[x: 12, y: 9, channel: 2] - 0) <= 1 && abs(up[x: 12, y: 9, channel: 0] - 109) <= 1)
    }

    @Test("box reductions by integer factors are the plain averages")
    func boxAverages() throws {
        for format in [PixelFormat.gray8, .rgb8, .gray16, .rgb16] {
            let image = try randomBuffer(width: 12, height: 12, format: format, seed: 7)
            for k in [2, 3, 4] {
                let out = try image.resized(width: 12 / k, height: 12 / k, options: ResampleOptions(filter: .box))
                var worst = 0
                for y in 0..<(12 / k) {
                    for x in 0..<(12 / k) {
                        for c in 0..<format.channelCount {
                            var sum = 0
                            for j in 0..<k { for i in 0..<k { sum += image[x: x * k + i, y: y * k + j, channel: c] } }
                            let average = (2 * sum + k * k) / (2 * k * k)  // rounded half up
                            worst = max(worst, abs(out[x: x, y: y, channel: c] - average))
                        }
                    }
                }
                // Powers of two are exact in fixed point; thirds carry a 14-bit rounding of 1/3; floats can round a
                // tie the other way.
                let tolerance = format.depth == .eight && k != 3 ? 0 : 1
                #expect(worst <= tolerance, "\(format) box \(k)×: off by \(worst)")
            }
        }
    }

    @Test("nearest copies whole source pixels at floor((i + 0.5) · scale)")
    func nearestPicksPixels() throws {
        for format in [PixelFormat.rgba8, .grayAlpha16, .rgb8] {
            let image = try randomBuffer(width: 17, height: 11, format: format, seed: 3)
            let out = try image.resized(width: 6, height: 5, options: ResampleOptions(filter: .nearest))
            for y in 0..<5 {
                for x in 0..<6 {
                    let sx = Int((Double(x) + 0.5) * 17 / 6), sy = Int((Double(y) + 0.5) * 11 / 5)
                    #expect(out.pixel(x: x, y: y) == image.pixel(x: sx, y: sy))
                }
            }
        }
    }

    /// A zone plate, `127.5 + 127.5 cos(π k (x² + y²))`: its local frequency grows from 0 at the top-left corner to
    /// 0.32 cycles per pixel along each axis at the far edges.
    static func zonePlate(size n: Int) throws -> (PixelBuffer, Double) {
        let k = 0.45 / (Double(n) * 2.0.squareRoot())
        let image = try makeBuffer(width: n, height: n, format: .gray8) { x, y, _ in
            let (fx, fy) = (Double(x) + 0.5, Double(y) + 0.5)
            return Int((127.5 + 127.5 * cos(Double.pi * k * (fx * fx + fy * fy))).rounded())
        }
        return (image, k)
    }

    @Test("zone plate reduced 4×: Lanczos3 keeps aliasing below 3 levels RMS, nearest is far above")
    func zonePlateAliasing() throws {
        let (image, k) = try Self.zonePlate(size: 384)
        func measure(_ filter: ResamplingFilter) throws -> (alias: Double, passband: Double) {
            let out = try image.resized(width: 96, height: 96, options: ResampleOptions(filter: filter))
            var aliased: [Int] = [], passErrors: [Double] = []
            for y in 0..<96 {
                for x in 0..<96 {
                    let sx = (Double(x) + 0.5) * 4, sy = (Double(y) + 0.5) * 4
                    let f = max(k * sx, k * sy)  // local frequency in cycles per source pixel
                    let v = out[x: x, y: y, channel: 0]
                    // Above 0.2 cycles/pixel (1.6× the output's Nyquist limit) the ideal output is flat 127.5.
                    if f >= 0.2 { aliased.append(v) }
                    // Far below it, the output should follow the pattern.
                    if f <= 0.06 {
                        let ideal = 127.5 + 127.5 * cos(Double.pi * k * (sx * sx + sy * sy))
                        passErrors.append((Double(v) - ideal) * (Double(v) - ideal))
                    }
                }
            }
            let pass = (passErrors.reduce(0, +) / Double(passErrors.count)).squareRoot()
            return (rmsDeviation(aliased, from: 127.5), pass)
        }
        let lanczos = try measure(.lanczos3)
        let nearest = try measure(.nearest)
        #expect(lanczos.alias < 3, "Lanczos3 aliasing RMS \(lanczos.alias)")
        #expect(lanczos.passband < 3, "Lanczos3 passband RMS error \(lanczos.passband)")
        #expect(nearest.alias > 30, "nearest aliasing RMS \(nearest.alias)")
    }

    /// An opaque white disc on fully transparent black.
    static func whiteDisc(size n: Int, format: PixelFormat) throws -> PixelBuffer {
        let maxValue = format.depth.maxValue
        let r = Double(n) * 0.3, cx = Double(n) * 0.45, cy = Double(n) * 0.55
        return try makeBuffer(width: n, height: n, format: format) { x, y, _ in
            let dx = Double(x) + 0.5 - cx, dy = Double(y) + 0.5 - cy
            return dx * dx + dy * dy <= r * r ? maxValue : 0
        }
    }

    /// Whether every pixel with some alpha has colour within `levels` (8-bit levels) of white.
    static func haloFree(_ image: PixelBuffer, levels: Int = 2) -> Bool {
        let c = image.channelCount
        let tolerance = levels * (image.format.depth == .eight ? 1 : 257)
        let white = image.format.depth.maxValue
        for y in 0..<image.height {
            for x in 0..<image.width where image[x: x, y: y, channel: c - 1] > 0 {
                for ch in 0..<(c - 1) where image[x: x, y: y, channel: ch] < white - tolerance { return false }
            }
        }
        return true
    }

    @Test(
        "no halo: a white shape on transparent black stays white wherever alpha > 0",
        arguments: [PixelFormat.rgba8, .grayAlpha8, .rgba16, .grayAlpha16])
    func noHalo(_ format: PixelFormat) throws {
        let disc = try Self.whiteDisc(size: 64, format: format)
        for filter in [ResamplingFilter.lanczos3, .catmullRom, .mitchell, .bilinear] {
            for linear in [false, true] {
                let options = ResampleOptions(filter: filter, linearLight: linear)
                for (w, h) in [(19, 19), (147, 131), (40, 23)] {
                    let out = try disc.resized(width: w, height: h, options: options)
                    #expect(Self.haloFree(out), "\(format) \(filter) linear \(linear) → \(w)×\(h)")
                    // Some partly transparent edge pixels exist, so the check is not vacuous.
                    #expect(
                        out.samples.enumerated().contains { i, v in
                            i % format.channelCount == format.channelCount - 1 && v > 0 && v < format.depth.maxValue
                        })
                }
            }
        }
    }

    @Test("gamma: 1-pixel black and white stripes reduced 2× give ≈188 in linear light, ≈128 by default")
    func gamma() throws {
        for format in [PixelFormat.gray8, .rgb8, .rgb16] {
            let maxValue = format.depth.maxValue
            let stripes = try makeBuffer(width: 64, height: 16, format: format) { x, _, _ in x % 2 == 0 ? 0 : maxValue }
            for filter in [ResamplingFilter.lanczos3, .box, .bilinear] {
                let plain = try stripes.resized(width: 32, height: 8, options: ResampleOptions(filter: filter))
                let linear = try stripes.resized(
                    width: 32, height: 8, options: ResampleOptions(filter: filter, linearLight: true))
                let scale = Double(maxValue) / 255
                // Columns away from the left and right edges (where renormalised weights see fewer stripes).
                for y in 0..<8 {
                    for x in 4..<28 {
                        for c in 0..<format.channelCount {
                            #expect(abs(Double(plain[x: x, y: y, channel: c]) / scale - 127.5) <= 1)
                            #expect(abs(Double(linear[x: x, y: y, channel: c]) / scale - 187.5) <= 1)
                        }
                    }
                }
            }
        }
    }

    @Test("16-bit stays 16-bit with more than 8 bits of precision")
    func sixteenBitPrecision() throws {
        let ramp = try makeBuffer(width: 200, height: 3, format: .rgb16) { x, _, c in x * 300 + c * 7 }
        for linear in [false, true] {
            let out = try ramp.resized(width: 77, height: 2, options: ResampleOptions(linearLight: linear))
            #expect(out.format == .rgb16)
            // A smooth ramp stays a ramp: values strictly increase and are not rounded to 8-bit steps.
            let reds = (0..<77).map { out[x: $0, y: 1, channel: 0] }
            #expect(zip(reds, reds.dropFirst()).allSatisfy { $0 < $1 })
            #expect(reds.contains { $0 % 257 != 0 })
            // Interior samples sit where the ramp says (the sample position of output x is (x + 0.5)·200/77).
            for x in 5..<72 {
                let expected = ((Double(x) + 0.5) * 200 / 77 - 0.5) * 300
                #expect(abs(Double(reds[x]) - expected) <= (linear ? 40 : 2), "x \(x): \(reds[x]) vs \(expected)")
            }
        }
    }

    @Test("degenerate sizes: 1-pixel sources and outputs, extreme ratios", arguments: allFormats)
    func degenerateSizes(_ format: PixelFormat) throws {
        let maxValue = format.depth.maxValue
        for (sw, sh, ow, oh) in [(1, 1, 5, 3), (7, 1, 1, 1), (1, 9, 4, 2), (300, 2, 1, 7), (2, 2, 1, 1)] {
            let image = try makeBuffer(width: sw, height: sh, format: format) { x, y, c in
                (x * 31 + y * 17 + c * 5) % (maxValue + 1)
            }
            for filter in ResamplingFilter.allCases {
                let out = try image.resized(width: ow, height: oh, options: ResampleOptions(filter: filter))
                #expect(out.width == ow && out.height == oh && out.format == format)
                // Every output sample lies within the source's range (filters are normalised, overshoot clamped).
                let (lo, hi) = (image.samples.min()!, image.samples.max()!)
                if !format.hasAlpha, filter != .lanczos3, filter != .catmullRom {
                    #expect(
                        out.samples.allSatisfy { $0 >= lo && $0 <= hi }, "\(format) \(filter) \(sw)×\(sh) → \(ow)×\(oh)"
                    )
                }
            }
        }
        // A single pixel enlarged is that pixel everywhere.
        let dot = try makeBuffer(width: 1, height: 1, format: format) { _, _, c in
            [maxValue / 3, maxValue / 2, maxValue / 5, maxValue][c]
        }
        let big = try dot.resized(width: 6, height: 4)
        #expect((0..<4).allSatisfy { y in (0..<6).allSatisfy { x in big.pixel(x: x, y: y) == dot.pixel(x: 0, y: 0) } })
    }

    @Test("invalid arguments throw PixelError")
    func invalidArguments() throws {
        let image = try randomBuffer(width: 8, height: 8, format: .rgb8, seed: 1)
        #expect(throws: PixelError.self) { try image.resized(width: 0, height: 4) }
        #expect(throws: PixelError.self) {
            try image.resized(width: 4, height: 4, from: Rect(x: 0, y: 0, width: 0, height: 3))
        }
        #expect(throws: PixelError.self) {
            try image.resized(width: 4, height: 4, from: Rect(x: 4, y: 4, width: 8, height: 3))
        }
        #expect(throws: PixelError.self) {
            try image.resized(width: 4, height: 4, from: Rect(x: .nan, y: 0, width: 2, height: 3))
        }
    }
}
