import CropPixels
import CropTestSupport
import Foundation
import Testing

@testable import CropCodecs

/// The BMP reader against bmpsuite's reference pictures, seeded random pictures written as BMP, and bad files.
@Suite struct BMPTests {
    static func file(_ name: String) throws -> [UInt8] { try Fixtures.bytes("bmp/" + name) }

    static func decode(_ bytes: [UInt8], strict: Bool = false) throws -> DecodedImage {
        try ImageCodec.decode(bytes, options: DecodeOptions(strict: strict))
    }

    @Test(
        "bmpsuite's good files decode to its reference pictures, exactly (where alpha is 0 the colour is not compared; the 8-bit ones to Pillow's palette lookup, since bmpsuite's pal8.png has 42 where the palette says 43)",
        arguments: [
            ("pal1.bmp", "pal1", "BMP 3, 1-bit palette of 2"), ("pal2.bmp", "pal2", "BMP 3, 2-bit palette of 4"),
            ("pal4rle.bmp", "pal4", "BMP 3, 4-bit palette of 12, RLE4"),
            ("pal8rle.bmp", "pal8-pillow", "BMP 3, 8-bit palette of 252, RLE8"),
            ("pal8os2.bmp", "pal8-pillow", "OS/2 1.x BMP, 8-bit palette of 256"),
            ("pal8topdown.bmp", "pal8-pillow", "BMP 3, 8-bit palette of 252, top-down"),
            ("pal8v5.bmp", "pal8-pillow", "BMP 5, 8-bit palette of 252"),
            ("rgb16-565.bmp", "rgb16-565", "BMP 3, 16-bit BGR 5-6-5, bit fields"),
            ("rgb24.bmp", "rgb24", "BMP 3, 24-bit BGR"),
            ("rgba32.bmp", "rgba32", "BMP 5, 32-bit BGRA 8-8-8-8, bit fields"),
            ("rgba16-4444.bmp", "rgba16-4444", "BMP 5, 16-bit BGRA 4-4-4-4, bit fields"),
        ])
    func bmpsuite(_ name: String, _ reference: String, _ model: String) throws {
        let decoded = try Self.decode(try Self.file(name))
        let expected = try PNGDecoder.decode(
            try Self.file(reference.hasSuffix("-pillow") ? reference + ".png" : reference + "-reference.png")
        ).pixels
        #expect(decoded.info.format == .bmp && decoded.info.colorModel == model)
        #expect(decoded.pixels.width == 127 && decoded.pixels.height == 64)
        #expect(decoded.warnings.isEmpty, "\(decoded.warnings)")
        let alpha = decoded.pixels.format.hasAlpha
        #expect(alpha == name.hasPrefix("rgba"))
        var differing = 0
        for y in 0..<64 {
            for x in 0..<127 {
                let ours = decoded.pixels.pixel(x: x, y: y), theirs = expected.pixel(x: x, y: y)
                let rgb = theirs.count >= 3 ? Array(theirs.prefix(3)) : [theirs[0], theirs[0], theirs[0]]
                let theirAlpha = theirs.count == 4 || theirs.count == 2 ? theirs.last! : 255
                if alpha && ours[3] != theirAlpha {
                    differing += 1
                    continue
                }
                if theirAlpha != 0 && Array(ours.prefix(3)) != rgb { differing += 1 }
            }
        }
        #expect(differing == 0, "\(differing) pixels differ from bmpsuite's reference")
    }

    @Test("a version 5 header's embedded ICC profile is kept; a JPEG inside a BMP is refused by name")
    func profileAndEmbedded() throws {
        var bytes = Self.bmp(
            width: 3, height: 2, bits: 24, topDown: false,
            rows: [[UInt8]](repeating: [0, 0, 255, 0, 255, 0, 255, 0, 0], count: 2))
        let profile = Array("a profile of 24 bytes....".utf8.prefix(24))
        bytes = Self.withV5Profile(bytes, profile: profile)
        let decoded = try Self.decode(bytes)
        #expect(decoded.metadata.iccProfile == profile)
        #expect(decoded.pixels.pixel(x: 0, y: 0) == [255, 0, 0] && decoded.pixels.pixel(x: 2, y: 1) == [0, 0, 255])
        #expect(throws: CodecError.unsupportedFeature(format: .bmp, feature: "a JPEG inside the BMP")) {
            try Self.decode(try Self.file("rgb24jpeg.bmp"))
        }
    }

    @Test(
        "bad files: a short file decodes with its missing rows black and a warning (strict refuses it); RLE runs past the edge are clipped; pixels said to start inside the headers are read after the colour table, as Pillow reads them"
    )
    func badFiles() throws {
        let short = try Self.decode(try Self.file("shortfile.bmp"))
        #expect(short.warnings.map(\.message) == ["the file ends after 13 of 64 rows: the rest are black"])
        // Rows are stored from the bottom: the 13 bottom rows are there, the rest black.
        let full = try Self.decode(try Self.file("pal1.bmp")).pixels
        for y in 0..<64 {
            let row = (0..<127).map { short.pixels.pixel(x: $0, y: y) }
            #expect(y < 51 ? row.allSatisfy { $0 == [0, 0, 0] } : row == (0..<127).map { full.pixel(x: $0, y: y) })
        }
        #expect(throws: CodecError.self) { try Self.decode(try Self.file("shortfile.bmp"), strict: true) }
        let rle = try Self.decode(try Self.file("badrle.bmp"))
        #expect(rle.warnings.map(\.message).contains("RLE runs past the edge of the picture were clipped"))
        let offset = try Self.decode(try Self.file("pal8_offset.bmp"))
        let reference = try PNGDecoder.decode(try Self.file("pal8-pillow.png")).pixels
        #expect(
            offset.warnings.map(\.message) == [
                "the pixels are said to start at byte 54, inside the headers: read from byte 1062"
            ])
        #expect(offset.pixels == reference)
    }

    @Test(
        "200 seeded random pictures written as BMP (1, 4, 8-bit palettes, 24 and 32-bit, bottom-up and top-down, every row padding) decode to exactly their pixels"
    )
    func randomPictures() throws {
        var rng = SplitMix64(seed: 2026)
        for _ in 0..<200 {
            let width = 1 + Int(rng.next() % 37), height = 1 + Int(rng.next() % 9)
            let bits = [1, 4, 8, 24, 32][Int(rng.next() % 5)], topDown = rng.next() % 2 == 0
            let colors = bits <= 8 ? (0..<(1 << bits)).map { _ in (0..<3).map { _ in UInt8(rng.next() % 256) } } : []
            var expected: [[UInt8]] = []
            var rows: [[UInt8]] = []
            for _ in 0..<height {
                var row: [UInt8] = [], pixels: [[UInt8]] = []
                var bitsInRow = 0, accumulator = 0
                for _ in 0..<width {
                    if bits <= 8 {
                        let index = Int(rng.next() % UInt64(1 << bits))
                        pixels.append(colors[index])
                        accumulator = accumulator << bits | index
                        bitsInRow += bits
                        if bitsInRow % 8 == 0 {
                            row.append(UInt8(accumulator & 255))
                            accumulator = 0
                        }
                    } else {
                        let rgb = (0..<3).map { _ in UInt8(rng.next() % 256) }
                        pixels.append(rgb)
                        row += [rgb[2], rgb[1], rgb[0]] + (bits == 32 ? [UInt8(rng.next() % 256)] : [])
                    }
                }
                if bits <= 8 && bitsInRow % 8 != 0 { row.append(UInt8(accumulator << (8 - bitsInRow % 8) & 255)) }
                rows.append(row)
                expected.append(pixels.flatMap { $0 })
            }
            let bytes = Self.bmp(
                width: width, height: height, bits: bits, topDown: topDown, rows: rows, palette: colors)
            let decoded = try Self.decode(bytes)
            #expect(decoded.pixels.format == .rgb8, "32-bit BI_RGB has no alpha")
            let got = (0..<height).map { y in (0..<width).flatMap { decoded.pixels.pixel(x: $0, y: y) } }
            #expect(
                got == expected.map { $0.map(Int.init) },
                "\(width)×\(height) \(bits)-bit \(topDown ? "top-down" : "bottom-up")")
        }
    }

    @Test(
        "rows read a few at a time (uncompressed: straight from the file's bytes, no whole picture) equal the whole decode, warnings included; strict mode refuses a short file at its first row",
        arguments: [
            "pal1.bmp", "pal2.bmp", "pal8topdown.bmp", "pal8v5.bmp", "rgb16-565.bmp", "rgb24.bmp", "rgba32.bmp",
            "rgba16-4444.bmp", "pal4rle.bmp", "pal8rle.bmp", "shortfile.bmp", "pal8_offset.bmp",
        ])
    func rowByRow(_ name: String) throws {
        let bytes = try Self.file(name)
        let whole = try BMPDecoder(data: bytes)
        let expected = try whole.decodeAll()
        let streaming = try BMPDecoder(data: bytes)
        #expect(streaming.info.decoderMemory == (name.contains("rle") ? DecoderMemory(perStoredPixel: 3) : .rows))
        var rows = try PixelBuffer(
            width: streaming.outputWidth, height: streaming.outputHeight, format: streaming.outputFormat)
        var start = 0
        while start < rows.height {
            let read = try streaming.readRows(into: &rows, startRow: start, maxRows: min(7, rows.height - start))
            #expect(read > 0)
            start += read
        }
        try streaming.finish()
        #expect(rows == expected)
        #expect(streaming.warnings == whole.warnings)
        if name == "shortfile.bmp" {
            let strict = try BMPDecoder(data: bytes, options: DecodeOptions(strict: true))
            #expect(throws: CodecError.self) { _ = try strict.readRows(into: &rows, startRow: 0, maxRows: 1) }
        }
    }

    @Test(
        "every prefix and 2,000 seeded single-byte changes of four files end in a picture or a CodecError, never a trap"
    )
    func hostile() throws {
        var rng = SplitMix64(seed: 7)
        for name in ["pal4rle.bmp", "pal8rle.bmp", "rgba16-4444.bmp", "pal8v5.bmp"] {
            let bytes = try Self.file(name)
            for length in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 300)) {
                _ = try? Self.decode(Array(bytes.prefix(length)))
            }
            for _ in 0..<500 {
                var changed = bytes
                changed[Int(rng.next() % UInt64(min(bytes.count, 1200)))] = UInt8(rng.next() % 256)
                if let decoded = try? Self.decode(changed) {
                    #expect(decoded.pixels.width >= 1 && decoded.pixels.height >= 1)
                }
            }
        }
    }

    /// A BMP with a 40-byte header (uncompressed), `rows` from the top, each padded here.
    static func bmp(width: Int, height: Int, bits: Int, topDown: Bool, rows: [[UInt8]], palette: [[UInt8]] = [])
        -> [UInt8]
    {
        let stride = (width * bits + 31) / 32 * 4
        let tableSize = palette.count * 4, offset = 14 + 40 + tableSize
        var out: [UInt8] = Array("BM".utf8)
        func u16(_ v: Int) { out += [UInt8(v & 255), UInt8(v >> 8 & 255)] }
        func u32(_ v: Int) { out += [UInt8(v & 255), UInt8(v >> 8 & 255), UInt8(v >> 16 & 255), UInt8(v >> 24 & 255)] }
        u32(offset + stride * height)
        u32(0)
        u32(offset)
        u32(40)
        u32(width)
        u32(topDown ? -height : height)
        u16(1)
        u16(bits)
        u32(0)
        u32(stride * height)
        u32(2835)
        u32(2835)
        u32(palette.count)
        u32(0)
        for color in palette { out += [color[2], color[1], color[0], 0] }
        let stored = topDown ? rows : rows.reversed()
        for row in stored { out += row + [UInt8](repeating: 0, count: stride - row.count) }
        return out
    }

    /// `bytes` (a 40-byte-header BMP without a palette) with a version 5 header that embeds `profile` after the pixels.
    static func withV5Profile(_ bytes: [UInt8], profile: [UInt8]) -> [UInt8] {
        let pixels = Array(bytes[54...])
        var header = Array(bytes[14..<54]) + [UInt8](repeating: 0, count: 84)
        func put(_ v: Int, at: Int) { for k in 0..<4 { header[at + k] = UInt8(v >> (8 * k) & 255) } }
        put(124, at: 0)
        put(0x4D42_4544, at: 56)  // 'MBED'
        put(124 + pixels.count, at: 112)  // profile offset from the header's start
        put(profile.count, at: 116)
        var out = Array(bytes[0..<14]) + header + pixels + profile
        let offset = 14 + 124
        for k in 0..<4 { out[10 + k] = UInt8(offset >> (8 * k) & 255) }
        return out
    }
}
