import CropGeometry
import Foundation
import Testing

@testable import CropPixels

@Suite("AffineRenderer")
struct AffineRendererTests {
    /// Output → source: rotate the output about its centre by `angle` (counter-clockwise on screen), divide by
    /// `scale` (output pixels per source pixel) and centre it on `center` in the source.
    static func plan(angle: Double, scale: Double, output: (Int, Int), center: Point) -> AffineTransform2D {
        AffineTransform2D.translation(x: -Double(output.0) / 2, y: -Double(output.1) / 2)
            .concatenating(.rotation(counterClockwiseOnScreen: angle))
            .scaledBy(x: 1 / scale, y: 1 / scale)
            .translatedBy(x: center.x, y: center.y)
    }

    @Test("the path follows the transform: copy, separable or general")
    func pathClassification() throws {
        let size = PixelSize(validWidth: 40, height: 30)
        #expect(try AffineRenderer(sourceSize: size, outputSize: size, transform: .identity).path == .copy(.up))
        for o in Orientation.allCases {
            let t = o.inverseTransform(storedSize: size.size)
            let r = try AffineRenderer(sourceSize: size, outputSize: o.displayedSize(of: size), transform: t)
            #expect(r.path == .copy(o), "\(o)")
            let scaled = try AffineRenderer(
                sourceSize: size,
                outputSize: PixelSize(validWidth: o.swapsDimensions ? 15 : 20, height: o.swapsDimensions ? 20 : 15),
                transform: AffineTransform2D.scale(x: 2, y: 2).concatenating(t))
            #expect(scaled.path == .separable(o), "\(o)")
        }
        let shifted = try AffineRenderer(
            sourceSize: size, outputSize: PixelSize(validWidth: 10, height: 10), transform: .translation(x: 3.5, y: 2))
        #expect(shifted.path == .separable(.up))
        let rotated = try AffineRenderer(
            sourceSize: size, outputSize: PixelSize(validWidth: 10, height: 10),
            transform: Self.plan(angle: 0.1, scale: 1, output: (10, 10), center: Point(x: 20, y: 15)))
        #expect(rotated.path == .general)
        #expect(throws: PixelError.self) {
            try AffineRenderer(sourceSize: size, outputSize: size, transform: .scale(x: 0, y: 1))
        }
    }

    @Test("quarter turns and mirrors with whole-pixel crops copy pixels exactly", arguments: Orientation.allCases)
    func exactPath(_ o: Orientation) throws {
        let image = try randomBuffer(width: 23, height: 17, format: .rgba8, seed: 77)
        // Crop (3, 2, 15×11) of the source, displayed with orientation o.
        let crop = try image.cropped(x: 3, y: 2, width: 15, height: 11)
        let expected = crop.applyingOrientation(o)
        let t = o.inverseTransform(storedSize: Size(width: 15, height: 11)).translatedBy(x: 3, y: 2)
        let renderer = try AffineRenderer(
            sourceSize: PixelSize(validWidth: 23, height: 17),
            outputSize: PixelSize(validWidth: expected.width, height: expected.height), transform: t)
        #expect(renderer.path == .copy(o))
        #expect(try renderer.render(image) == expected)
    }

    @Test(
        "axis-aligned scaling is the separable resize of the source rectangle, then the permutation",
        arguments: Orientation.allCases)
    func separablePath(_ o: Orientation) throws {
        let image = try randomBuffer(width: 41, height: 29, format: .rgb8, seed: 12)
        let rect = Rect(x: 2.5, y: 1.25, width: 36, height: 24)
        let resized = try image.resized(width: 15, height: 10, from: rect)
        let expected = resized.applyingOrientation(o)
        // Output → intermediate (undo o on the 15×10 image), then intermediate → source.
        let t = o.inverseTransform(storedSize: Size(width: 15, height: 10))
            .scaledBy(x: 36.0 / 15, y: 24.0 / 10).translatedBy(x: 2.5, y: 1.25)
        let renderer = try AffineRenderer(
            sourceSize: PixelSize(validWidth: 41, height: 29),
            outputSize: PixelSize(validWidth: expected.width, height: expected.height), transform: t)
        #expect(renderer.path == .separable(o))
        let out = try renderer.render(image)
        #expect(maxDifference(out, expected) <= 1, "\(o)")
    }

    @Test("rendering in bands from windows of source rows gives the same pixels as one render")
    func bands() throws {
        var rng = SplitMix64(seed: 99)
        let image = try randomBuffer(width: 50, height: 40, format: .rgb8, seed: 5)
        let size = PixelSize(validWidth: 50, height: 40)
        let transforms: [(AffineTransform2D, PixelSize)] = [
            (
                Self.plan(angle: 0.3, scale: 0.8, output: (30, 22), center: Point(x: 25, y: 20)),
                PixelSize(validWidth: 30, height: 22)
            ),
            (
                Self.plan(angle: -0.7, scale: 0.35, output: (12, 9), center: Point(x: 24, y: 21)),
                PixelSize(validWidth: 12, height: 9)
            ),
            // A 6.7× reduction: the source is pre-shrunk 3× in blocks, which band windows must respect.
            (
                Self.plan(angle: 0.25, scale: 0.15, output: (7, 6), center: Point(x: 25, y: 20)),
                PixelSize(validWidth: 7, height: 6)
            ),
            (
                Orientation.rightTop.inverseTransform(storedSize: Size(width: 30, height: 20)).translatedBy(
                    x: 10, y: 10),
                PixelSize(validWidth: 20, height: 30)
            ),
            (
                Orientation.bottomLeft.inverseTransform(storedSize: Size(width: 20, height: 15))
                    .scaledBy(x: 2, y: 2).translatedBy(x: 5, y: 4), PixelSize(validWidth: 20, height: 15)
            ),
        ]
        for (t, outSize) in transforms {
            for filter in [ResamplingFilter.catmullRom, .lanczos3] {
                let renderer = try AffineRenderer(
                    sourceSize: size, outputSize: outSize, transform: t, filter: filter, rotationFilter: filter)
                let whole = try renderer.render(image)
                var y = 0
                while y < outSize.height {
                    let n = min(Int(rng.next() % 6) + 1, outSize.height - y)
                    let needed = renderer.sourceRows(forOutputRows: y..<(y + n))
                    let window = try image.cropped(x: 0, y: needed.lowerBound, width: 50, height: needed.count)
                    let band = try renderer.render(window, sourceFirstRow: needed.lowerBound, outputRows: y..<(y + n))
                    #expect(
                        band == (try whole.cropped(x: 0, y: y, width: outSize.width, height: n)),
                        "\(renderer.path) rows \(y)..<\(y + n)")
                    if needed.count > 1 {
                        let short = try image.cropped(
                            x: 0, y: needed.lowerBound + 1, width: 50, height: needed.count - 1)
                        #expect(throws: PixelError.self) {
                            try renderer.render(short, sourceFirstRow: needed.lowerBound + 1, outputRows: y..<(y + n))
                        }
                    }
                    y += n
                }
            }
        }
    }

    @Test(
        "the SSE2 and the portable 8-bit kernels give identical pixels, at the edges too",
        arguments: [PixelFormat.gray8, .grayAlpha8, .rgb8, .rgba8])
    func kernelsAgree(_ format: PixelFormat) throws {
        let image = try randomBuffer(width: 37, height: 29, format: format, seed: 31)
        for (angle, scale, filter) in [
            (0.3, 1.0, ResamplingFilter.catmullRom), (-0.6, 0.45, .lanczos3), (0.1, 1.3, .mitchell),
            (0.05, 0.8, .nearest),
        ] {
            // Larger than the picture, so that many taps are clamped at the edges.
            let t = Self.plan(angle: angle, scale: scale, output: (40, 33), center: Point(x: 18.5, y: 14.5))
            var renderer = try AffineRenderer(
                sourceSize: PixelSize(validWidth: 37, height: 29), outputSize: PixelSize(validWidth: 40, height: 33),
                transform: t, rotationFilter: filter)
            let fast = try renderer.render(image)
            renderer.forcesPortableKernel = true
            let portable = try renderer.render(image)
            #expect(
                fast == portable,
                "\(format) \(filter) angle \(angle) scale \(scale): differ by \(maxDifference(fast, portable))")
        }
    }

    @Test("tiny pictures: every tap clamps to the edge and the colour survives", arguments: allFormats)
    func tinyPictures(_ format: PixelFormat) throws {
        let maxValue = format.depth.maxValue
        let values = [maxValue / 3, maxValue / 2, maxValue / 5, maxValue]
        for (w, h) in [(1, 1), (2, 1), (1, 3)] {
            let image = try makeBuffer(width: w, height: h, format: format) { _, _, c in values[c] }
            for (angle, scale) in [(0.4, 1.0), (-0.2, 3.0), (0.9, 0.5)] {
                let t = Self.plan(
                    angle: angle, scale: scale, output: (3, 2), center: Point(x: Double(w) / 2, y: Double(h) / 2))
                let out = try AffineRenderer(
                    sourceSize: PixelSize(validWidth: w, height: h), outputSize: PixelSize(validWidth: 3, height: 2),
                    transform: t
                ).render(image)
                let expected = (0..<6).flatMap { _ in (0..<format.channelCount).map { values[$0] } }
                #expect(
                    zip(out.samples, expected).allSatisfy { abs($0 - $1) <= 1 },
                    "\(format) \(w)×\(h) angle \(angle): \(out.samples)")
            }
        }
    }

    @Test("an all-white picture stays white through 300 random straighten, scale and crop plans")
    func whiteStaysWhite() throws {
        var rng = SplitMix64(seed: 4242)
        func uniform(_ lo: Double, _ hi: Double) -> Double {
            lo + (hi - lo) * Double(rng.next() >> 11) / Double(1 << 53)
        }
        let formats: [PixelFormat] = [.rgb8, .rgba8, .gray8, .grayAlpha8, .rgb16]
        var rendered = 0
        for trial in 0..<300 {
            let format = formats[trial % formats.count]
            let (w, h) = (Int(uniform(20, 64)), Int(uniform(20, 64)))
            let white = try makeBuffer(width: w, height: h, format: format) { _, _, _ in format.depth.maxValue }
            let angle = uniform(-45, 45) * Double.pi / 180
            let scale = uniform(0.1, 1)
            let filter: ResamplingFilter = [.catmullRom, .lanczos3, .mitchell, .bilinear][trial % 4]
            // A random crop inside the rotated picture: pick a size, then shrink until its corners land inside
            // (allowing them up to a pixel past the border, to exercise the edge clamping).
            var outW = Int(uniform(1, Double(w) * scale)) + 1, outH = Int(uniform(1, Double(h) * scale)) + 1
            let center = Point(x: uniform(0.3, 0.7) * Double(w), y: uniform(0.3, 0.7) * Double(h))
            var t = Self.plan(angle: angle, scale: scale, output: (outW, outH), center: center)
            let inside = { (t: AffineTransform2D, ow: Int, oh: Int) in
                Rect(x: -1, y: -1, width: Double(w) + 2, height: Double(h) + 2).contains(
                    t.apply(to: Rect(x: 0, y: 0, width: Double(ow), height: Double(oh))))
            }
            while !inside(t, outW, outH), outW > 1 || outH > 1 {
                outW = max(1, outW * 3 / 4)
                outH = max(1, outH * 3 / 4)
                t = Self.plan(angle: angle, scale: scale, output: (outW, outH), center: center)
            }
            guard inside(t, outW, outH) else { continue }
            let renderer = try AffineRenderer(
                sourceSize: PixelSize(validWidth: w, height: h), outputSize: PixelSize(validWidth: outW, height: outH),
                transform: t, rotationFilter: filter)
            let out = try renderer.render(white)
            let darkest = out.samples.min()!
            #expect(
                darkest == format.depth.maxValue,
                "trial \(trial): \(format) \(filter) angle \(angle) scale \(scale) → \(darkest)")
            rendered += 1
        }
        #expect(rendered >= 250)
    }

    @Test(
        "no halo: a white shape on transparent black stays white when rotated and reduced",
        arguments: [PixelFormat.rgba8, .grayAlpha8, .rgba16])
    func noHaloRotated(_ format: PixelFormat) throws {
        let disc = try ResamplerTests.whiteDisc(size: 64, format: format)
        for (angle, scale) in [(0.5, 1.0), (-0.3, 0.7), (0.7, 0.3), (0.2, 1.6), (-0.4, 0.15), (0.1, 0.12)] {
            for filter in [ResamplingFilter.catmullRom, .lanczos3] {
                let size = max(4, Int(64 * scale * 0.9))
                let t = Self.plan(angle: angle, scale: scale, output: (size, size), center: Point(x: 32, y: 32))
                let renderer = try AffineRenderer(
                    sourceSize: PixelSize(validWidth: 64, height: 64),
                    outputSize: PixelSize(validWidth: size, height: size), transform: t, rotationFilter: filter)
                let out = try renderer.render(disc)
                #expect(ResamplerTests.haloFree(out), "\(format) \(filter) angle \(angle) scale \(scale)")
            }
        }
    }

    @Test("a rotated linear ramp is reproduced (Catmull-Rom interpolates linear functions exactly)")
    func rotatedRamp() throws {
        for format in [PixelFormat.gray8, .rgb16] {
            let k = format.depth == .eight ? 1.0 : 257.0
            let ramp = try makeBuffer(width: 80, height: 60, format: format) { x, y, _ in
                Int((Double(x + 2 * y) * k).rounded())
            }
            let t = Self.plan(angle: 0.4, scale: 1, output: (30, 20), center: Point(x: 40, y: 30))
            let renderer = try AffineRenderer(
                sourceSize: PixelSize(validWidth: 80, height: 60), outputSize: PixelSize(validWidth: 30, height: 20),
                transform: t)
            let out = try renderer.render(ramp)
            var worst = 0.0
            for y in 0..<20 {
                for x in 0..<30 {
                    let p = t.apply(to: Point(x: Double(x) + 0.5, y: Double(y) + 0.5))
                    let expected = ((p.x - 0.5) + 2 * (p.y - 0.5)) * k
                    worst = max(worst, abs(Double(out[x: x, y: y, channel: 0]) - expected) / k)
                }
            }
            // Sub-pixel positions are quantised to 1/128: 3 units of slope × 1/256 ≈ 0.012, plus rounding.
            #expect(worst <= 0.6, "\(format): worst error \(worst) levels")
        }
    }

    @Test(
        "rotated 4× and 8× reductions of a zone plate: the stretched kernel (and the box pre-shrink) stay below 4 levels RMS aliasing, nearest does not"
    )
    func rotatedAliasing() throws {
        let (image, k) = try ResamplerTests.zonePlate(size: 384)
        func aliasing(_ filter: ResamplingFilter, scale: Double) throws -> Double {
            let side = Int(320 * scale)
            let t = Self.plan(angle: 0.2, scale: scale, output: (side, side), center: Point(x: 192, y: 192))
            let renderer = try AffineRenderer(
                sourceSize: PixelSize(validWidth: 384, height: 384),
                outputSize: PixelSize(validWidth: side, height: side), transform: t, rotationFilter: filter)
            let out = try renderer.render(image)
            var values: [Int] = []
            for y in 0..<side {
                for x in 0..<side {
                    let p = t.apply(to: Point(x: Double(x) + 0.5, y: Double(y) + 0.5))
                    // Local frequency above 0.8 × 1/reduction cycles per source pixel (1.6× the output's Nyquist
                    // limit): nothing of it should survive.
                    if max(k * p.x, k * p.y) >= 0.8 * scale { values.append(out[x: x, y: y, channel: 0]) }
                }
            }
            #expect(values.count > 300)
            return rmsDeviation(values, from: 127.5)
        }
        for scale in [0.25, 0.125] {
            let catmull = try aliasing(.catmullRom, scale: scale), lanczos = try aliasing(.lanczos3, scale: scale)
            let nearest = try aliasing(.nearest, scale: scale)
            #expect(catmull < 4, "Catmull-Rom at \(scale): \(catmull)")
            #expect(lanczos < 4, "Lanczos3 at \(scale): \(lanczos)")
            #expect(nearest > 30, "nearest at \(scale): \(nearest)")
        }
    }
}
