import CropGeometry
import CropPixels
import Foundation
import Testing

@testable import CropCodecs

/// TIFF through libtiff. Most fixtures (Fixtures/tiff) were written by libvips 8.14 from photo-128.png with the
/// compression and layout in their names, and the `-vips.png` references are libvips's decodes; two small ones are
/// written by make-gif-tiff.py for what libvips does not write (an Orientation tag, big-endian 16-bit, planar
/// associated alpha). See Fixtures/README.md.
@Suite("TIFF through libtiff: strips, tiles, 8/16-bit, gray, alpha, planar, orientation, bad input")
struct TIFFTests {
    static func fixture(_ name: String) throws -> [UInt8] { try Fixtures.bytes("tiff/" + name) }

    static func reference(_ name: String) throws -> PixelBuffer { try PNGDecoder.decode(fixture(name)).pixels }

    static let vipsCases: [(file: String, format: PixelFormat, tolerance: Int, model: String)] = [
        ("rgb-lzw-strips", .rgb8, 0, "RGB, LZW, strips"),
        ("rgb16-deflate-tiles", .rgb16, 0, "RGB, Deflate, tiled"),
        ("rgb-jpeg-tiles", .rgb8, 1, "RGB, JPEG, tiled"),
        ("rgba-packbits", .rgba8, 0, "RGB, PackBits, strips, alpha"),
        ("gray-miniswhite", .gray8, 0, "gray (min-is-white), uncompressed, strips"),
    ]

    @Test("libvips's TIFFs decode to libvips's own pixels", arguments: vipsCases)
    func matchesVips(_ file: String, _ format: PixelFormat, _ tolerance: Int, _ model: String) throws {
        let decoder = try TIFFDecoder(data: Self.fixture(file + ".tif"))
        #expect(decoder.info.colorModel == model)
        #expect(decoder.info.format == .tiff && decoder.warnings.isEmpty)
        let pixels = try decoder.decodeAll()
        let vips = try Self.reference(file + "-vips.png")
        #expect(pixels.format == format && vips.format == format)
        #expect(pixels.width == vips.width && pixels.height == vips.height)
        #expect(maxDifference(pixels, vips) <= tolerance)
    }

    @Test("the 16-bit file keeps 16-bit precision: high bytes are the 8-bit photo's, low bytes are not dropped")
    func sixteenBitPrecision() throws {
        let pixels = try TIFFDecoder(data: Self.fixture("rgb16-deflate-tiles.tif")).decodeAll()
        let photo = try PNGDecoder.decode(Fixtures.bytes("photo-128.png")).pixels
        #expect(pixels.width == 128 && pixels.height == 85)
        // `vips cast --shift` puts the 8-bit value in the high byte (and fills the low byte for odd values).
        var lowBytes = Set<Int>()
        for y in 0..<85 {
            for x in 0..<128 {
                let wide = pixels.pixel(x: x, y: y)
                #expect(wide.map { $0 >> 8 } == photo.pixel(x: x, y: y))
                lowBytes.formUnion(wide.map { $0 & 0xFF })
            }
        }
        #expect(lowBytes == [0, 255])
    }

    @Test("big-endian 16-bit gray with orientation 6: samples in native order, the tag reported and not applied")
    func bigEndianOrientation() throws {
        let decoded = try ImageCodec.decode(Self.fixture("gray16-be-orientation6.tif"))
        #expect(decoded.pixels.width == 6 && decoded.pixels.height == 4 && decoded.pixels.format == .gray16)
        #expect(decoded.metadata.orientation == .rightTop && decoded.info.orientation == .rightTop)
        #expect(decoded.info.displayedSize == PixelSize(validWidth: 4, height: 6))
        for y in 0..<4 {
            for x in 0..<6 {
                #expect(decoded.pixels.pixel(x: x, y: y) == [(x * 9000 + y * 3000 + 17) % 65536])
            }
        }
    }

    @Test("planar RGBA with associated alpha is interleaved and unpremultiplied (within rounding)")
    func planarAssociatedAlpha() throws {
        let decoder = try TIFFDecoder(data: Self.fixture("rgba-associated-planar.tif"))
        #expect(decoder.info.colorModel == "RGB, uncompressed, strips, planar, associated alpha")
        let pixels = try decoder.decodeAll()
        #expect(pixels.format == .rgba8 && pixels.width == 6 && pixels.height == 4)
        for y in 0..<4 {
            for x in 0..<6 {
                let alpha = [0, 64, 128, 255][(x + y) % 4]
                let straight = [(x * 40) % 256, (y * 60) % 256, (x * y * 10) % 256]
                let got = pixels.pixel(x: x, y: y)
                #expect(got[3] == alpha)
                // Premultiplying to 8 bits loses up to 255 / (2 × alpha) per sample; alpha 0 keeps no colour.
                let bound = alpha == 0 ? 255 : 255 / alpha + 1
                for c in 0..<3 where alpha > 0 {
                    #expect(abs(got[c] - straight[c]) <= bound, "(\(x), \(y)) channel \(c)")
                }
            }
        }
    }

    @Test("FuzzTIFF's first find: a strip claiming 4 GB is refused at the allocation limit, not allocated")
    func hugeStrip() throws {
        let bytes = try Self.fixture("crashers/huge-strip.bin")
        for limits in [PixelLimits(maxPixels: 4_000_000), .default] {
            do {
                _ = try ImageCodec.decode(bytes, options: DecodeOptions(limits: limits))
                Issue.record("the 4 GB strip decoded")
            } catch {
                guard case .resourceLimit(.tiff, let message) = error else { throw error }
                #expect(message.contains("over the") && message.contains("allocation limit"), "\(message)")
            }
        }
    }

    @Test("a two-page TIFF reads its first page and counts the pages")
    func pages() throws {
        let decoder = try TIFFDecoder(data: Self.fixture("two-pages.tif"))
        #expect(decoder.info.frameCount == 2)
        #expect(decoder.warnings.map(\.message) == ["2 pages: the first is decoded"])
        let pixels = try decoder.decodeAll()
        let photo = try PNGDecoder.decode(Fixtures.bytes("photo-128.png")).pixels
        #expect(maxDifference(pixels, photo) == 0)
        #expect(decoder.info.summary.hasSuffix("2 pages (the first is read)"))
    }

    /// The samples make-gif-tiff.py's `sample_formats` writes: a formula of x, y and the channel on 0…top.
    static func stored(_ x: Int, _ y: Int, _ c: Int, _ top: Int) -> Int {
        (x * 37 + y * 91 + c * 53) * (top + 1) / 400 % (top + 1)
    }

    /// Where the value of `tag`'s entry sits in a little-endian TIFF's first IFD (for a test that alters it).
    static func tagOffset(_ data: [UInt8], _ tag: Int) -> Int? {
        let ifd = Int(data[4]) | Int(data[5]) << 8 | Int(data[6]) << 16 | Int(data[7]) << 24
        let count = Int(data[ifd]) | Int(data[ifd + 1]) << 8
        for entry in 0..<count {
            let at = ifd + 2 + entry * 12
            if Int(data[at]) | Int(data[at + 1]) << 8 == tag { return at }
        }
        return nil
    }

    @Test(
        "other sample formats are converted: 12 and 3-bit unsigned scaled to the full range, signed offset, 32-bit unsigned rounded to 16, half and single floats from 0…1 or their SMin/SMaxSampleValue, clamped",
        arguments: [
            "uint12-rgb", "uint3-gray", "int8-rgba", "uint32-gray", "half-gray", "float-range-planar",
        ])
    func sampleFormats(_ name: String) throws {
        let decoded = try ImageCodec.decode(try Self.fixture(name + ".tif"))
        let pixels = decoded.pixels
        #expect(pixels.width == 6 && pixels.height == 4)
        let halves: [Double] = [-0.5, 0, 0.25, 0.5, 1, 2]
        for y in 0..<4 {
            for x in 0..<6 {
                let got = pixels.pixel(x: x, y: y)
                let expected: [Int] =
                    switch name {
                    case "uint12-rgb": (0..<3).map { (Self.stored(x, y, $0, 4095) * 65535 + 2047) / 4095 }
                    case "uint3-gray": [(Self.stored(x, y, 0, 7) * 255 + 3) / 7]
                    case "int8-rgba": (0..<4).map { Self.stored(x, y, $0, 255) }  // stored − 128, read + 128
                    case "uint32-gray":
                        [min(65535, Self.stored(x, y, 0, 65535) + ((x * 9000) % 65536 >= 32768 ? 1 : 0))]
                    case "half-gray":
                        // Row 0 runs from below 0 to above 1; the first sample of row 1 is NaN.
                        y == 0
                            ? [Int((min(1, max(0, halves[x])) * 65535).rounded())]
                            : y == 1 && x == 0
                                ? [0] : [Int((Double(Float16(Double(x + 6 * y) / 24)) * 65535).rounded())]
                    default: (0..<3).map { Self.stored(x, y, $0, 255) * 257 }  // 0…255 by SMaxSampleValue
                    }
                #expect(got == expected, "\(name) (\(x), \(y)): \(got) vs \(expected)")
            }
        }
        let formats: [String: PixelFormat] = [
            "uint12-rgb": .rgb16, "uint3-gray": .gray8, "int8-rgba": .rgba8, "uint32-gray": .gray16,
            "half-gray": .gray16,
            "float-range-planar": .rgb16,
        ]
        #expect(pixels.format == formats[name])
    }

    @Test("truncated, garbage and float TIFFs are typed errors; a TIFF over the pixel limit is refused first")
    func badInput() throws {
        let truncated = try Self.fixture("truncated.tif")
        do {
            _ = try ImageCodec.decode(truncated)
            Issue.record("a truncated TIFF decoded")
        } catch {
            #expect("\(error)".contains("TIFF"), "\(error)")
        }
        var rng = SplitMix64(seed: 5)
        for length in [4, 8, 16, 100, 1000] {
            let garbage = [0x49, 0x49, 0x2A, 0x00] + (4..<length).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            #expect(throws: CodecError.self) { try ImageCodec.decode(garbage) }
        }
        // A float TIFF libvips writes from the photo cast to float holds 0…255 and says no range, so it reads as
        // floats do (0…1 is black to white): every sample but 0 is white.
        let float = try ImageCodec.decode(try Self.fixture("float.tif")).pixels
        let photo = try PNGDecoder.decode(try Fixtures.bytes("photo-128.png")).pixels
        #expect(float.format == .rgb16 && float.width == 128 && float.height == 85)
        #expect(
            (0..<85).allSatisfy { y in
                (0..<128).allSatisfy { x in
                    float.pixel(x: x, y: y) == photo.pixel(x: x, y: y).map { $0 == 0 ? 0 : 65535 }
                }
            })
        // Complex samples are named; a sample format TIFF does not define is libtiff's to refuse.
        var complex = try Self.fixture("half-gray.tif")
        let at = try #require(Self.tagOffset(complex, 339))
        complex[at + 8] = 6
        #expect(throws: CodecError.unsupportedFeature(format: .tiff, feature: "complex floating-point samples")) {
            try TIFFDecoder(data: complex)
        }
        complex[at + 8] = 9
        #expect(throws: CodecError.self) { try TIFFDecoder(data: complex) }
        let whole = try Self.fixture("rgba-associated-planar.tif")
        for length in stride(from: 0, to: whole.count, by: 7) {
            if let decoded = try? ImageCodec.decode(Array(whole.prefix(length))) {
                #expect(decoded.pixels.width == 6 && decoded.pixels.height == 4)
            }
        }
        #expect(throws: CodecError.tooManyPixels(width: 128, height: 85, limit: 5000)) {
            try TIFFDecoder(
                data: Self.fixture("rgb-lzw-strips.tif"), options: DecodeOptions(limits: PixelLimits(maxPixels: 5000)))
        }
    }

    @Test(
        "a bilevel (CCITT G4) page with a gray ICC profile is read as gray, so the profile stays valid and a PNG keeps it (PIL's pport_g4.tif lost it as RGB); the pixels are Pillow's"
    )
    func bilevelGrayProfile() throws {
        let bytes = try Self.fixture("g4-gray-icc.tif")
        let decoded = try ImageCodec.decode(bytes)
        #expect(decoded.pixels.format == .gray8 && decoded.pixels.width == 96 && decoded.pixels.height == 64)
        let profile = try #require(decoded.metadata.iccProfile)
        #expect(profile.count == 3588)
        #expect(maxDifference(decoded.pixels, try Self.reference("g4-gray-icc-pillow.png")) == 0)
        let png = try ImageCodec.encode(decoded.pixels, as: .png, metadata: decoded.metadata)
        let back = try ImageCodec.decode(png)
        #expect(back.metadata.iccProfile == profile && back.warnings.isEmpty, "\(back.warnings)")
    }
}
