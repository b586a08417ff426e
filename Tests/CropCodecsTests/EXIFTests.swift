import CropGeometry
import CropPixels
import Testing

@testable import CropCodecs

@Suite("EXIF orientation")
struct EXIFTests {
    /// Orientations 0…8 from the recurser sample set, in both TIFF byte orders.
    @Test(
        "orientation 0–8 is read from real files, big- and little-endian",
        arguments: 0...8, ["mm", "ii"])
    func readsFixtures(_ value: Int, _ byteOrder: String) throws {
        let data = try Fixtures.bytes("exif/landscape-\(value)-\(byteOrder).jpg")
        let tiff = try #require(exifBlock(of: data))
        #expect(tiff.starts(with: byteOrder == "mm" ? [0x4D, 0x4D] : [0x49, 0x49]))
        let info = try ImageInfo.read(data)
        let expected = Orientation(exifValue: value) ?? .up
        #expect(info.orientation == expected)
        #expect(info.hasEXIF)
        #expect(info.displayedSize == PixelSize(validWidth: 64, height: 43))
        let decoded = try JPEGDecoder.decode(data)
        #expect(decoded.metadata.orientation == expected)
        // Value 0 is invalid: read as 1 with a warning.
        #expect(decoded.warnings.contains { $0.source == .exif } == (value == 0))
    }

    @Test("every sample displays as the upright picture once its orientation is applied, and no other way")
    func orientationMatchesPixels() throws {
        let upright = try JPEGDecoder.decode(Fixtures.bytes("exif/landscape-1-mm.jpg")).pixels
        for value in 2...8 {
            let decoded = try JPEGDecoder.decode(Fixtures.bytes("exif/landscape-\(value)-ii.jpg"))
            var differences: [Orientation: Double] = [:]
            for candidate in Orientation.allCases {
                let shown = try Measure.displayed(decoded.pixels, orientation: candidate)
                guard shown.width == upright.width, shown.height == upright.height else { continue }
                differences[candidate] = Measure.meanAbsoluteDifference(shown, upright)
            }
            let best = try #require(differences.min { $0.value < $1.value })
            #expect(best.key == decoded.metadata.orientation, "file \(value): \(differences)")
            // Each sample was shrunk separately from a 1800-px JPEG, so they match within a few levels, while a
            // wrong orientation is tens of levels off.
            #expect(best.value < 6, "file \(value) differs by \(best.value) on average")
        }
    }

    @Test(
        "PNG eXIf chunks written by Pillow are read, both byte orders, and match the JPEG's pixels",
        arguments: [(6, "mm"), (8, "ii"), (3, "ii")])
    func pngEXIf(_ value: Int, _ byteOrder: String) throws {
        let png = try PNGDecoder.decode(Fixtures.bytes("exif/landscape-\(value)-\(byteOrder).png"))
        let jpeg = try JPEGDecoder.decode(Fixtures.bytes("exif/landscape-\(value)-\(byteOrder).jpg"))
        #expect(png.metadata.orientation == Orientation(exifValue: value))
        #expect(png.metadata.exif == jpeg.metadata.exif)
        #expect(png.pixels == jpeg.pixels)
        #expect(png.warnings.isEmpty)
    }

    @Test("an eXIf chunk after the image data is picked up when decoding finishes")
    func lateEXIf() throws {
        let png = try Fixtures.bytes("exif/landscape-6-mm.png")
        // Split into chunks and move eXIf behind the last IDAT.
        var chunks: [(type: String, bytes: ArraySlice<UInt8>)] = []
        var at = 8
        while at + 12 <= png.count {
            let length = png[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: png[at + 4..<at + 8], as: UTF8.self)
            chunks.append((type, png[at..<at + 12 + length]))
            at += 12 + length
        }
        let exif = try #require(chunks.first { $0.type == "eXIf" })
        var reordered = chunks.filter { $0.type != "eXIf" }
        let lastIDAT = try #require(reordered.lastIndex { $0.type == "IDAT" })
        reordered.insert(exif, at: lastIDAT + 1)
        let moved = Array(png.prefix(8)) + reordered.flatMap { Array($0.bytes) }
        #expect(moved.count == png.count)
        #expect(try ImageInfo.read(moved).orientation == .up, "the header alone does not see it")
        let decoded = try PNGDecoder.decode(moved)
        #expect(decoded.metadata.orientation == .rightTop)
        #expect(decoded.metadata.exif != nil)
    }

    @Test("a real camera's little-endian EXIF (Leica T, orientation 8) is read")
    func leica() throws {
        let info = try ImageInfo.read(Fixtures.bytes("exif/leica-orient8-ii.jpg"))
        #expect(info.orientation == .leftBottom)
        #expect(info.storedSize == PixelSize(validWidth: 64, height: 42))
        #expect(info.displayedSize == PixelSize(validWidth: 42, height: 64))
    }

    @Test("a block without an orientation tag is orientation 1 without a warning")
    func missingTag() throws {
        var block = EXIF.minimalBlock(orientation: .rightTop)
        block[10] = 0x01
        block[11] = 0x1A  // retag the entry as XResolution
        let reading = EXIF.readOrientation(tiff: block)
        #expect(reading == EXIF.OrientationReading(orientation: .up, rawValue: nil, warning: nil))
    }

    @Test("malformed blocks give orientation 1 and a warning")
    func malformed() throws {
        let good = EXIF.minimalBlock(orientation: .rightTop)
        var badOrder = good
        badOrder[0] = 0x58
        var badMagic = good
        badMagic[3] = 0x2B
        var offsetOutside = good
        offsetOutside[7] = 0xF0
        var tooManyEntries = good
        tooManyEntries[9] = 0x50
        var wrongType = good
        wrongType[13] = 0x02  // ASCII
        var valueOutside = good
        valueOutside[17] = 0x09  // 9 SHORTs: stored at an offset
        valueOutside[21] = 0xFF
        for block in [
            [], Array(good.prefix(7)), badOrder, badMagic, offsetOutside, tooManyEntries, wrongType, valueOutside,
        ] {
            let reading = EXIF.readOrientation(tiff: block)
            #expect(reading.orientation == .up)
            #expect(reading.warning != nil, "no warning for \(block)")
        }
        #expect(EXIF.readOrientation(tiff: good).orientation == .rightTop)
    }

    @Test("rewriting the orientation keeps every other byte, in both byte orders", arguments: ["mm", "ii"])
    func rewriteInPlace(_ byteOrder: String) throws {
        let tiff = try #require(exifBlock(of: Fixtures.bytes("exif/landscape-6-\(byteOrder).jpg")))
        for target in Orientation.allCases {
            let rewritten = try #require(EXIF.settingOrientation(target, in: tiff))
            #expect(rewritten.count == tiff.count)
            #expect(EXIF.readOrientation(tiff: rewritten).orientation == target)
            let changed = (0..<tiff.count).filter { tiff[$0] != rewritten[$0] }
            #expect(changed.count <= 1, "changed bytes \(changed)")
        }
    }

    @Test("a tag is added to a block that has none, keeping the other entries readable")
    func addTag() throws {
        var block = EXIF.minimalBlock(orientation: .rightTop)
        block[10] = 0x01
        block[11] = 0x28  // ResolutionUnit instead of Orientation
        let rewritten = try #require(EXIF.settingOrientation(.leftBottom, in: block))
        #expect(EXIF.readOrientation(tiff: rewritten).orientation == .leftBottom)
        let reader = try TIFFReader(rewritten)
        let entries = try reader.entries(ofIFDAt: reader.ifd0Offset)
        #expect(entries.map(\.tag) == [0x0112, 0x0128])
        #expect(EXIF.settingOrientation(.up, in: block) == block)
    }

    @Test("seeded random corruption never crashes and rewriting stays consistent")
    func fuzz() throws {
        let seeds = [
            try #require(exifBlock(of: Fixtures.bytes("exif/landscape-6-mm.jpg"))),
            try #require(exifBlock(of: Fixtures.bytes("exif/landscape-3-ii.jpg"))),
            EXIF.minimalBlock(orientation: .bottomRight),
        ]
        var rng = SplitMix64(seed: 2024)
        for round in 0..<3000 {
            var block = seeds[round % seeds.count]
            for _ in 0..<(1 + Int(rng.next() % 4)) {
                let at = Int(rng.next() % UInt64(block.count))
                block[at] = UInt8(truncatingIfNeeded: rng.next())
            }
            if rng.next() % 4 == 0 { block = Array(block.prefix(Int(rng.next() % UInt64(block.count + 1)))) }
            let reading = EXIF.readOrientation(tiff: block)
            if reading.rawValue.map({ !(1...8).contains($0) }) ?? false { #expect(reading.orientation == .up) }
            let target = Orientation.allCases[Int(rng.next() % 8)]
            if let rewritten = EXIF.settingOrientation(target, in: block) {
                #expect(EXIF.readOrientation(tiff: rewritten).orientation == target, "\(block) → \(rewritten)")
            }
        }
    }

    @Test(
        "encoding writes EXIF back with the orientation the metadata carries",
        arguments: ImageFormat.writable.filter(\.holdsMetadata))
    func encodeRewrites(_ format: ImageFormat) throws {
        let source = try JPEGDecoder.decode(Fixtures.bytes("exif/landscape-6-ii.jpg"))
        let original = try #require(source.metadata.exif)
        // Kept as stored: orientation 6 stays (HEIC and AVIF are written upright instead: the pixels turned, tag 1).
        let kept = try ImageCodec.decode(ImageCodec.encode(source.pixels, as: format, metadata: source.metadata))
        if format == .heif || format == .avif {
            #expect(kept.metadata.orientation == .up)
            #expect(kept.pixels.width == source.pixels.height && kept.pixels.height == source.pixels.width)
            #expect(kept.metadata.exif.map { EXIF.readOrientation(tiff: $0).orientation } == .up)
        } else {
            #expect(kept.metadata.orientation == .rightTop)
            #expect(kept.metadata.exif == original)
        }
        // Turned upright: the tag becomes 1, the rest of the block is unchanged.
        let upright = try ImageCodec.decode(
            ImageCodec.encode(source.pixels, as: format, metadata: source.metadata.uprighted()))
        #expect(upright.metadata.orientation == .up)
        let exif = try #require(upright.metadata.exif)
        #expect(exif.count == original.count)
        #expect((0..<exif.count).filter { exif[$0] != original[$0] }.count == 1)
        // Stripped: nothing.
        let stripped = try ImageCodec.decode(ImageCodec.encode(source.pixels, as: format, metadata: .none))
        #expect(stripped.metadata == .none)
    }

    /// The TIFF bytes of the first EXIF APP1 segment.
    private func exifBlock(of jpeg: [UInt8]) -> [UInt8]? {
        for segment in Bytes.jpegSegments(jpeg) where segment.marker == 0xE1 {
            if let tiff = EXIF.tiffBytes(fromAPP1: Array(jpeg[(segment.start + 4)..<segment.end])) { return tiff }
        }
        return nil
    }
}
