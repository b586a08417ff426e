import CropPixels
import Foundation
import Testing

@testable import CropCodecs

/// GIF through giflib. The fixtures (Fixtures/gif) are written by make-gif-tiff.py's own small encoder, each with the
/// structure its test is about; the `-vips.png` references are libvips 8.14's decodes (its own GIF reader, libnsgif,
/// not giflib). See Fixtures/README.md.
@Suite("GIF through giflib: first frame composited, transparency, interlacing, animation, bad input")
struct GIFTests {
    static func fixture(_ name: String) throws -> [UInt8] { try Fixtures.bytes("gif/" + name) }

    static func png(_ name: String) throws -> PixelBuffer { try PNGDecoder.decode(fixture(name)).pixels }

    /// The pattern make-gif-tiff.py draws: palette indices.
    static func pattern(width: Int, height: Int, colors: Int, seed: Int) -> [Int] {
        (0..<height).flatMap { y in (0..<width).map { x in (x / 3 + y / 2 + seed * (x ^ y)) % colors } }
    }

    static let palette: [[Int]] = [
        [0, 0, 0], [255, 255, 255], [220, 40, 30], [30, 160, 60], [40, 70, 200], [250, 200, 20], [128, 128, 128],
        [90, 30, 120],
    ]

    /// The largest sample difference between two 8-bit RGB or RGBA pictures of one size, a missing alpha read as 255.
    static func largestDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Int {
        precondition(a.width == b.width && a.height == b.height)
        var largest = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a.pixel(x: x, y: y), q = b.pixel(x: x, y: y)
                for c in 0..<4 {
                    let u = c < p.count ? p[c] : 255, v = c < q.count ? q[c] : 255
                    largest = max(largest, abs(u - v))
                }
            }
        }
        return largest
    }

    @Test("an interlaced GIF decodes row for row as the plain one, as drawn and as libvips decodes it")
    func interlaced() throws {
        let decoder = try GIFDecoder(data: Self.fixture("interlaced.gif"))
        #expect(decoder.info.isInterlaced && decoder.info.format == .gif)
        #expect(decoder.info.colorModel == "GIF89a palette of 8")
        let pixels = try decoder.decodeAll()
        #expect(pixels.width == 37 && pixels.height == 29 && pixels.format == .rgb8)
        let plain = try GIFDecoder(data: Self.fixture("plain.gif")).decodeAll()
        #expect(!(try GIFDecoder(data: Self.fixture("plain.gif")).info.isInterlaced))
        #expect(maxDifference(pixels, plain) == 0)
        let indices = Self.pattern(width: 37, height: 29, colors: 8, seed: 1)
        for y in 0..<29 {
            for x in 0..<37 {
                #expect(pixels.pixel(x: x, y: y) == Self.palette[indices[y * 37 + x]], "(\(x), \(y))")
            }
        }
        let vips = try Self.png("interlaced-vips.png")
        #expect(vips.width == 37 && vips.height == 29)
        #expect(Self.largestDifference(pixels, vips) == 0)
    }

    @Test("a frame smaller than the screen with a transparent colour: RGBA, transparent around it and at that colour")
    func transparentOffset() throws {
        let decoder = try GIFDecoder(data: Self.fixture("transparent-offset.gif"))
        #expect(decoder.info.hasAlpha && decoder.warnings.isEmpty)
        let pixels = try decoder.decodeAll()
        #expect(pixels.width == 40 && pixels.height == 30 && pixels.format == .rgba8)
        let indices = Self.pattern(width: 21, height: 13, colors: 8, seed: 2)
        var transparentInside = 0
        for y in 0..<30 {
            for x in 0..<40 {
                let inside = (6..<27).contains(x) && (5..<18).contains(y)
                let index = inside ? indices[(y - 5) * 21 + (x - 6)] : 3
                let expected = index == 3 ? [0, 0, 0, 0] : Self.palette[index] + [255]
                if inside && index == 3 { transparentInside += 1 }
                #expect(pixels.pixel(x: x, y: y) == expected, "(\(x), \(y))")
            }
        }
        #expect(transparentInside > 10)
        // libvips agrees wherever a pixel is visible (it may keep another colour under alpha 0).
        let vips = try Self.png("transparent-offset-vips.png")
        #expect(vips.format == .rgba8)
        for y in 0..<30 {
            for x in 0..<40 where vips.pixel(x: x, y: y)[3] == 255 || pixels.pixel(x: x, y: y)[3] == 255 {
                #expect(vips.pixel(x: x, y: y) == pixels.pixel(x: x, y: y))
            }
        }
    }

    @Test("a first frame past the screen grows the canvas, as browsers do, and says so; its own colour table is used")
    func pastScreen() throws {
        let decoder = try GIFDecoder(data: Self.fixture("past-screen-local-table.gif"))
        #expect(decoder.info.width == 18 && decoder.info.height == 13)
        #expect(decoder.warnings.contains { $0.source == .gif && $0.message.contains("canvas grows to 18×13") })
        let pixels = try decoder.decodeAll()
        #expect(pixels.format == .rgba8)
        #expect(pixels.pixel(x: 0, y: 0) == [0, 0, 0, 0] && pixels.pixel(x: 1, y: 12) == [0, 0, 0, 0])
        let indices = Self.pattern(width: 16, height: 12, colors: 12, seed: 3)
        for (x, y) in [(2, 1), (17, 12), (9, 7)] {
            let i = indices[(y - 1) * 16 + (x - 2)]
            #expect(pixels.pixel(x: x, y: y) == [10 * i, 255 - 20 * i, 7 * i, 255])
        }
        #expect(throws: CodecError.self) {
            try GIFDecoder(data: Self.fixture("past-screen-local-table.gif"), options: DecodeOptions(strict: true))
        }
    }

    @Test(
        "an animation gives frame one and counts its frames (no warning: the pipeline gives it): the real 3-frame file matches libvips's frame one"
    )
    func animation() throws {
        let decoder = try GIFDecoder(data: Self.fixture("animated-3-frames.gif"))
        #expect(decoder.info.frameCount == 3)
        #expect(decoder.warnings.isEmpty)  // the pipeline, which knows the output, says what becomes of the frames
        let pixels = try decoder.decodeAll()
        let vips = try Self.png("animated-3-frames-vips.png")
        #expect(pixels.width == 320 && pixels.height == 240 && vips.width == 320 && vips.height == 240)
        #expect(Self.largestDifference(pixels, vips) == 0)

        let five = try GIFDecoder(data: Self.fixture("animated-5.gif"))
        #expect(five.info.frameCount == 5)
        let first = try five.decodeAll()
        let indices = Self.pattern(width: 24, height: 16, colors: 8, seed: 0)
        #expect(first.pixel(x: 5, y: 3) == Self.palette[indices[3 * 24 + 5]])
    }

    @Test("a file broken after its first frames still gives frame one, and says where counting stopped")
    func brokenAfterFirstFrame() throws {
        let decoder = try GIFDecoder(data: Self.fixture("animated-broken-after-2.gif"))
        #expect(decoder.info.frameCount == 2)
        #expect(decoder.warnings.contains { $0.message.contains("breaks after frame 2") })
        let pixels = try decoder.decodeAll()
        #expect(pixels.width == 24 && pixels.height == 16)
        #expect(throws: CodecError.self) {
            try GIFDecoder(data: Self.fixture("animated-broken-after-2.gif"), options: DecodeOptions(strict: true))
        }
    }

    @Test("truncated and garbage GIFs are typed errors, never pixels; a table-less one reads as a grey ramp")
    func badInput() throws {
        // Cut in the middle of the first frame's LZW data: the header reads, the pixels do not.
        let truncated = try GIFDecoder(data: Self.fixture("truncated.gif"))
        do {
            _ = try truncated.decodeAll()
            Issue.record("a truncated GIF decoded")
        } catch {
            guard case .truncated(.gif, let detail) = error else { throw error }
            #expect(detail.hasPrefix("decoding the first frame: "))
        }
        #expect(throws: CodecError.self) { try truncated.decodeAll() }
        // Without a colour table the indices read as a grey ramp, as Pillow reads them (issue 45), with a warning.
        let tableless = try ImageCodec.decode(Self.fixture("no-color-table.gif"))
        #expect(tableless.warnings.contains { $0.message.hasPrefix("no colour table") })
        #expect(throws: CodecError.self) {
            try ImageCodec.decode(Self.fixture("no-color-table.gif"), options: DecodeOptions(strict: true))
        }
        var rng = SplitMix64(seed: 12)
        for length in [6, 10, 13, 20, 40] {
            let garbage = Array("GIF89a".utf8) + (6..<length).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            #expect(throws: CodecError.self) { try ImageCodec.decode(garbage) }
        }
        // Every prefix of a small file is an error or a picture of the full size, never a crash.
        let whole = try Self.fixture("transparent-offset.gif")
        for length in 0..<whole.count {
            if let decoded = try? ImageCodec.decode(Array(whole.prefix(length))) {
                #expect(decoded.pixels.width == 40 && decoded.pixels.height == 30)
            }
        }
    }

    @Test("a GIF claiming more pixels than the limit is refused before decoding")
    func pixelLimit() throws {
        let bytes = try Self.fixture("plain.gif")
        #expect(throws: CodecError.tooManyPixels(width: 37, height: 29, limit: 1000)) {
            try GIFDecoder(data: bytes, options: DecodeOptions(limits: PixelLimits(maxPixels: 1000)))
        }
    }
}
