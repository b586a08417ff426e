import CropAnalysis
import CropGeometry
import Foundation
import Testing

@testable import CropPixels

@Suite("Buffer operations")
struct OperationsTests {
    // MARK: Crop

    @Test("crop rounds fractional rects outwards, clamps partly outside rects, rejects empty ones")
    func crop() throws {
        let image = try makeBuffer(width: 10, height: 6, format: .rgb8) { x, y, c in x * 20 + y + c }
        let a = try image.cropped(to: Rect(x: 1.2, y: 0.5, width: 2.1, height: 1.0))
        #expect(a.width == 3 && a.height == 2)  // x 1…4, y 0…2
        #expect(a.pixel(x: 0, y: 0) == image.pixel(x: 1, y: 0) && a.pixel(x: 2, y: 1) == image.pixel(x: 3, y: 1))
        let b = try image.cropped(to: Rect(x: -3, y: 4, width: 5, height: 10))
        #expect(b.width == 2 && b.height == 2 && b.pixel(x: 1, y: 1) == image.pixel(x: 1, y: 5))
        let c = try image.cropped(to: Rect(x: 2.0000001, y: 1, width: 3, height: 2))  // noise snaps to the pixel
        #expect(c.width == 3 && c.pixel(x: 0, y: 0) == image.pixel(x: 2, y: 1))
        for bad in [
            Rect(x: 1, y: 1, width: 0, height: 3), Rect(x: 11, y: 0, width: 2, height: 2),
            Rect(x: .nan, y: 0, width: 2, height: 2), Rect(x: 0, y: 0, width: .infinity, height: 2),
            Rect(x: 3, y: 3, width: -2, height: 2),
        ] {
            #expect(throws: PixelError.self) { try image.cropped(to: bad) }
        }
        #expect(throws: PixelError.self) { try image.cropped(x: 8, y: 0, width: 3, height: 1) }
    }

    // MARK: Orientation

    @Test(
        "orientation bake agrees with Orientation.transform for all 8 cases, odd sizes and every pixel size",
        arguments: Orientation.allCases)
    func orientationBake(_ orientation: Orientation) throws {
        for format in [PixelFormat.gray8, .grayAlpha8, .rgb8, .rgba8, .gray16, .rgb16, .rgba16] {
            for (w, h) in [(5, 3), (7, 4), (1, 9), (70, 67), (129, 3)] {
                // Every pixel unique: x in channel 0, y in the last channel (or both in one gray sample).
                let image = try makeBuffer(width: w, height: h, format: format) { x, y, c in
                    format.channelCount == 1
                        ? (x + y * w) % (format.depth.maxValue + 1)
                        : (c == 0 ? x : (c == format.channelCount - 1 ? y : x ^ y)) % 256
                }
                let out = image.applyingOrientation(orientation)
                let t = orientation.transform(storedSize: Size(width: w, height: h))
                #expect(out.width == (orientation.swapsDimensions ? h : w) && out.format == format)
                var mismatches = 0
                for y in 0..<h {
                    for x in 0..<w {
                        let p = t.apply(to: Point(x: Double(x) + 0.5, y: Double(y) + 0.5))
                        if out.pixel(x: Int(p.x), y: Int(p.y)) != image.pixel(x: x, y: y) { mismatches += 1 }
                    }
                }
                #expect(mismatches == 0, "\(orientation) \(format) \(w)×\(h)")
            }
        }
    }

    @Test("baking an orientation then its inverse gives the original back")
    func orientationRoundTrip() throws {
        let image = try randomBuffer(width: 13, height: 8, format: .rgba8, seed: 11)
        for o in Orientation.allCases {
            #expect(image.applyingOrientation(o).applyingOrientation(o.inverse) == image)
        }
    }

    // MARK: Content modes

    /// 60×30 (wide) or 30×60 (tall): red is 4·x, green 4·y, blue 200.
    static func ramp(wide: Bool, format: PixelFormat = .rgb8) throws -> PixelBuffer {
        try makeBuffer(width: wide ? 60 : 30, height: wide ? 30 : 60, format: format) { x, y, c in
            let v = [4 * x, 4 * y, 200, 255][c == format.channelCount - 1 && format.hasAlpha ? 3 : c]
            return format.depth == .eight ? v : v * 257
        }
    }

    @Test("fit, stretch and pad give the documented sizes")
    func contentModeSizes() throws {
        let cases: [(ResizeMode, Int, Int, Int, Int, Int, Int)] = [
            (.fit, 6000, 4000, 1920, 1920, 1920, 1280), (.fit, 4000, 6000, 1920, 1920, 1280, 1920),
            (.fit, 100, 1, 10, 10, 10, 1), (.fit, 3, 1000, 10, 10, 1, 10), (.stretch, 60, 30, 7, 9, 7, 9),
            (.fill(), 60, 30, 7, 9, 7, 9), (.pad(), 60, 30, 7, 9, 7, 9), (.fit, 60, 30, 90, 90, 90, 45),
        ]
        for (mode, sw, sh, bw, bh, ow, oh) in cases {
            let layout = try mode.layout(sourceWidth: sw, sourceHeight: sh, width: bw, height: bh)
            #expect(layout.outputSize == PixelSize(validWidth: ow, height: oh), "\(mode) \(sw)×\(sh) in \(bw)×\(bh)")
        }
        #expect(throws: PixelError.self) {
            try ResizeMode.fit.layout(sourceWidth: 10, sourceHeight: 10, width: 0, height: 5)
        }
        let wide = try Self.ramp(wide: true)
        let stretched = try wide.resized(width: 20, height: 20, mode: .stretch)
        #expect(stretched.width == 20 && stretched.height == 20)
        // Stretch: output pixel (10, 10) samples the source at (31.5, 15.75): red 4·31 = 124, green 4·15.25 = 61.
        #expect(
            abs(stretched[x: 10, y: 10, channel: 0] - 124) <= 2 && abs(stretched[x: 10, y: 10, channel: 1] - 61) <= 2)
        let fitted = try wide.resized(width: 20, height: 20, mode: .fit)
        #expect(fitted.width == 20 && fitted.height == 10 && fitted.format == .rgb8)
    }

    @Test("fill keeps the part the gravity names, for every gravity, wide and tall", arguments: Alignment.allCases)
    func fillGravity(_ gravity: Alignment) throws {
        for wide in [true, false] {
            let image = try Self.ramp(wide: wide)
            let out = try image.resized(width: 20, height: 20, mode: .fill(gravity: .alignment(gravity)))
            #expect(out.width == 20 && out.height == 20 && out.format == .rgb8)
            // The kept square is 30×30 source pixels; its offset along the long side follows the gravity.
            let offset = 30 * (wide ? gravity.horizontalFraction : gravity.verticalFraction)
            // Output pixel 10's centre is source 10.5 · 1.5 = 15.75 into the square; the ramp gives 4 per pixel
            // (sample centres sit at +0.5).
            let expected = Int((4 * (offset + 15.75 - 0.5)).rounded())
            let probe = out[x: 10, y: 10, channel: wide ? 0 : 1]
            #expect(abs(probe - expected) <= 2, "\(gravity) wide \(wide): \(probe) vs \(expected)")
            // The other axis is not cropped: its ramp runs over the full 30 pixels.
            let across = out[x: 10, y: 10, channel: wide ? 1 : 0]
            #expect(abs(across - 61) <= 2)
        }
    }

    @Test("pad places the fitted image by alignment on a colour or on transparency", arguments: Alignment.allCases)
    func padAlignment(_ alignment: Alignment) throws {
        let wide = try Self.ramp(wide: true)  // fits a 20×20 box as 20×10
        let top = Int((10 * alignment.verticalFraction).rounded())
        let red = PixelColor(red: 255, green: 0, blue: 0)
        let onRed = try wide.resized(width: 20, height: 20, mode: .pad(background: red, alignment: alignment))
        #expect(onRed.width == 20 && onRed.height == 20 && onRed.format == .rgb8)
        let clear = try wide.resized(width: 20, height: 20, mode: .pad(background: .transparent, alignment: alignment))
        #expect(clear.format == .rgba8)
        for y in 0..<20 {
            let inside = y >= top && y < top + 10
            #expect(onRed.pixel(x: 5, y: y) == (inside ? onRed.pixel(x: 5, y: y) : [255, 0, 0]))
            #expect(inside ? onRed[x: 5, y: y, channel: 2] == 200 : true)
            #expect(clear[x: 5, y: y, channel: 3] == (inside ? 255 : 0))
            if inside { #expect(Array(clear.pixel(x: 5, y: y).prefix(3)) == onRed.pixel(x: 5, y: y)) }
        }
        // A tall image pads left and right instead.
        let tall = try Self.ramp(wide: false)
        let side = try tall.resized(width: 20, height: 20, mode: .pad(background: .white, alignment: alignment))
        let left = Int((10 * alignment.horizontalFraction).rounded())
        #expect(side.pixel(x: left == 0 ? 15 : 0, y: 3) == [255, 255, 255])
        #expect(side[x: left + 5, y: 3, channel: 2] == 200)
    }

    // MARK: Thumbnail and rounded corners

    @Test("thumbnail: a square cropped about the centre, with an optional transparent border and rounded corners")
    func thumbnail() throws {
        let wide = try Self.ramp(wide: true)
        let plain = try wide.thumbnail(side: 16)
        #expect(plain.width == 16 && plain.height == 16 && plain.format == .rgb8)
        // The centre square is source x 15…45: output x 8's centre is 15 + 8.5 · 30/16 = 30.94 → red ≈ 4 · 30.44.
        #expect(abs(plain[x: 8, y: 8, channel: 0] - 122) <= 2)
        let framed = try wide.thumbnail(side: 16, border: 2, cornerRadius: 4)
        #expect(framed.width == 16 && framed.height == 16 && framed.format == .rgba8)
        for i in 0..<16 {
            #expect(framed[x: i, y: 0, channel: 3] == 0 && framed[x: 0, y: i, channel: 3] == 0)
            #expect(framed[x: i, y: 15, channel: 3] == 0 && framed[x: 15, y: i, channel: 3] == 0)
        }
        #expect(framed[x: 2, y: 2, channel: 3] < 128)  // inside the rounded corner's cut
        #expect(framed[x: 8, y: 8, channel: 3] == 255)
        #expect(throws: PixelError.self) { try wide.thumbnail(side: 4, border: 2) }
        #expect(throws: PixelError.self) { try wide.thumbnail(side: 0) }
    }

    @Test("rounded corners remove exactly the corner area outside the arcs")
    func roundedCornerArea() throws {
        for format in [PixelFormat.rgb8, .gray16] {
            let square = try makeBuffer(width: 40, height: 30, format: format) { _, _, _ in format.depth.maxValue }
            let rounded = try square.roundedCorners(radius: 10)
            #expect(rounded.format == format.with(layout: format.layout.withAlpha))
            let c = rounded.channelCount
            let alpha = (0..<30).flatMap { y in (0..<40).map { x in rounded[x: x, y: y, channel: c - 1] } }
            let area = Double(alpha.reduce(0, +)) / Double(format.depth.maxValue)
            let expected = 40.0 * 30 - (4 - Double.pi) * 100
            #expect(abs(area - expected) < 0.1, "\(format): \(area) vs \(expected)")
            // Symmetric under both mirrors, and the straight edges stay fully opaque.
            #expect(
                rounded.applyingOrientation(.topRight) == rounded && rounded.applyingOrientation(.bottomLeft) == rounded
            )
            #expect(rounded[x: 20, y: 0, channel: c - 1] == format.depth.maxValue)
            #expect(rounded[x: 0, y: 0, channel: c - 1] == 0 && rounded.pixel(x: 0, y: 0).allSatisfy { $0 == 0 })
        }
    }

    @Test("a circle: the centred square with anti-aliased edge and the disc's area")
    func circle() throws {
        let image = try makeBuffer(width: 41, height: 31, format: .rgba8) { _, _, c in c == 3 ? 255 : 90 }
        let circle = try image.circleCropped()
        #expect(circle.width == 31 && circle.height == 31)
        let area =
            Double((0..<31).flatMap { y in (0..<31).map { x in circle[x: x, y: y, channel: 3] } }.reduce(0, +)) / 255
        #expect(abs(area - Double.pi * 15.5 * 15.5) < 0.1)
        #expect(circle[x: 15, y: 15, channel: 3] == 255 && circle[x: 0, y: 0, channel: 3] == 0)
        // Edge pixels are partly covered (anti-aliased), and colour is untouched where alpha remains.
        #expect((0..<31).contains { circle[x: $0, y: 2, channel: 3] > 0 && circle[x: $0, y: 2, channel: 3] < 255 })
        #expect(circle[x: 15, y: 0, channel: 0] == 90)
        let bordered = try image.circleCropped(border: 3)
        #expect(bordered[x: 15, y: 2, channel: 3] == 0 && bordered[x: 15, y: 3, channel: 3] > 200)
        #expect(throws: PixelError.self) { try image.roundedCorners(radius: -1) }
        #expect(throws: PixelError.self) { try image.roundedCorners(radius: 3, border: 16) }
    }

    @Test("disc coverage integrates exactly")
    func discArea() throws {
        #expect(abs(RoundedRectCoverage.discArea(radius: 3, u: (0, 3), v: (0, 3)) - Double.pi * 9 / 4) < 1e-12)
        #expect(abs(RoundedRectCoverage.discArea(radius: 3, u: (0, 1), v: (0, 1)) - 1) < 1e-12)
        #expect(RoundedRectCoverage.discArea(radius: 3, u: (2.5, 3), v: (2.5, 3)) == 0)
        // The unit square [0,1]² in a unit-radius disc's quadrant holds a quarter disc.
        #expect(abs(RoundedRectCoverage.discArea(radius: 1, u: (1, 0), v: (0, 1)) - Double.pi / 4) < 1e-12)
    }

    // MARK: Alpha

    @Test("alpha helpers: has alpha, is opaque, add alpha, transparent border, flatten")
    func alphaHelpers() throws {
        let rgb = try randomBuffer(width: 5, height: 4, format: .rgb8, seed: 9)
        #expect(!rgb.hasAlpha && rgb.isOpaque)
        let rgba = rgb.addingAlpha()
        #expect(rgba.format == .rgba8 && rgba.isOpaque && rgba.hasAlpha)
        #expect(rgba.pixel(x: 3, y: 2) == rgb.pixel(x: 3, y: 2) + [255])
        var holed = rgba
        holed[x: 4, y: 3, channel: 3] = 254
        #expect(!holed.isOpaque)
        let gray16 = try randomBuffer(width: 3, height: 3, format: .gray16, seed: 2).addingAlpha()
        #expect(gray16.format == .grayAlpha16 && gray16[x: 1, y: 1, channel: 1] == 65535)

        let framed = try rgb.addingTransparentBorder(3)
        #expect(framed.width == 11 && framed.height == 10 && framed.format == .rgba8)
        #expect(framed.pixel(x: 0, y: 0) == [0, 0, 0, 0] && framed.pixel(x: 10, y: 9) == [0, 0, 0, 0])
        #expect(
            framed.pixel(x: 3, y: 3) == rgba.pixel(x: 0, y: 0) && framed.pixel(x: 7, y: 6) == rgba.pixel(x: 4, y: 3))
        #expect(throws: PixelError.self) { try rgb.addingTransparentBorder(-1) }

        let halfWhite = try makeBuffer(width: 2, height: 1, format: .rgba8) { x, _, c in
            c == 3 ? (x == 0 ? 128 : 0) : 255
        }
        let flat = halfWhite.flattened(over: PixelColor(red: 0, green: 0, blue: 100))
        #expect(flat.format == .rgb8)
        #expect(flat.pixel(x: 0, y: 0) == [128, 128, 178] && flat.pixel(x: 1, y: 0) == [0, 0, 100])
        let grayAlpha = try makeBuffer(width: 1, height: 1, format: .grayAlpha16) { _, _, c in c == 0 ? 65535 : 0 }
        let grayFlat = grayAlpha.flattened(over: PixelColor(red: 255, green: 0, blue: 0))
        #expect(
            grayFlat.format == .gray16
                && grayFlat.pixel(x: 0, y: 0) == [Int(PixelColor(red: 255, green: 0, blue: 0).luminance)])
        #expect(rgb.flattened(over: .white) == rgb)
    }

    @Test("colours convert to each format's samples")
    func colorSamples() throws {
        let c = PixelColor(red: 10, green: 200, blue: 30, alpha: 128)
        #expect(c.samples(for: .rgba8) == [10, 200, 30, 128])
        #expect(c.samples(for: .rgb16) == [2570, 51400, 7710])
        let luma: Double = 0.2126 * 10 + 0.7152 * 200 + 0.0722 * 30
        #expect(c.samples(for: .grayAlpha8) == [Int(luma.rounded()), 128])
        #expect(PixelColor.transparent.samples(for: .rgba16) == [0, 0, 0, 0] && !PixelColor.transparent.isOpaque)
    }

    @Test("16-bit buffers stay 16-bit and gray stays gray through every operation")
    func depthAndLayoutKept() throws {
        for format in [PixelFormat.gray16, .rgb16, .grayAlpha16, .gray8] {
            let image = try randomBuffer(width: 23, height: 17, format: format, seed: 4)
            let results: [PixelBuffer] = [
                try image.cropped(to: Rect(x: 1.5, y: 2, width: 7, height: 5)),
                try image.resized(width: 9, height: 30),
                try image.resized(width: 10, height: 10, mode: .fit),
                try image.resized(width: 10, height: 10, mode: .fill(gravity: .bottomRight)),
                try image.resized(width: 10, height: 10, mode: .pad(background: .black, alignment: .center)),
                try image.thumbnail(side: 8),
                image.applyingOrientation(.rightTop),
            ]
            for r in results { #expect(r.format == format) }
            let withAlpha = [
                try image.roundedCorners(radius: 3), try image.addingTransparentBorder(1), image.addingAlpha(),
                try image.thumbnail(side: 8, border: 1),
            ]
            for r in withAlpha { #expect(r.format == format.with(layout: format.layout.withAlpha)) }
            #expect(
                image.addingAlpha().flattened(over: .white).format == format.with(layout: format.layout.withoutAlpha))
        }
    }
}
