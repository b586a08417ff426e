import CropGeometry
import CropPixels
import Foundation
import Testing

@testable import CropCodecs

@Suite("HEIF/HEIC through libheif: iPhone grid photo, 10-bit, alpha, bad files")
struct HEIFTests {
    static func fixture(_ name: String) throws -> [UInt8] { try Fixtures.bytes("heif/" + name) }

    @Test("brands detect as HEIF; AVIF brands, as major or compatible brand of mif1, as AVIF")
    func detection() throws {
        func ftyp(_ major: String, _ compatible: [String]) -> [UInt8] {
            let size = 16 + 4 * compatible.count
            return [0, 0, 0, UInt8(size)] + Array("ftyp".utf8) + Array(major.utf8) + [0, 0, 0, 0]
                + compatible.flatMap { Array($0.utf8) }
        }
        for brand in ["heic", "heix", "hevc", "mif1", "msf1"] {
            #expect(try ImageFormat.detect(ftyp(brand, ["mif1", "heic"])) == .heif, "\(brand)")
        }
        for bytes in [ftyp("avif", ["mif1"]), ftyp("avis", []), ftyp("mif1", ["miaf", "avif"])] {
            #expect(try ImageFormat.detect(bytes) == .avif)
        }
        #expect(try ImageFormat.detect(Self.fixture("pug.heic")) == .heif)
    }

    @Test("the iPhone 13 Pro photo: 4032×3024 from 512-px grid tiles, its Display P3 profile, as heif-convert decodes it")
    func iPhoneGrid() throws {
        let decoded = try ImageCodec.decode(Self.fixture("pug.heic"))
        #expect(decoded.info.format == .heif && decoded.info.storedSize == PixelSize(validWidth: 4032, height: 3024))
        #expect(decoded.pixels.width == 4032 && decoded.pixels.height == 3024 && decoded.pixels.format == .rgb8)
        #expect(decoded.metadata.orientation == .up)
        let icc = try #require(decoded.metadata.iccProfile)
        #expect(String(decoding: icc[36..<40], as: UTF8.self) == "acsp")
        #expect(decoded.metadata.exif != nil)
        // heif-convert's decode, shrunk 8×8 by vips: our decode shrunk the same way must match it.
        let reference = try PNGDecoder.decode(Self.fixture("pug-heif-convert-shrink8.png")).pixels
        let ours = try decoded.pixels.resized(width: 504, height: 378, options: ResampleOptions(filter: .box))
        let mean = meanDifference(ours, reference)
        #expect(mean < 0.6, "mean difference \(mean)")
        #expect(maxDifference(ours, reference) <= 3)
    }

    @Test("10-bit HEIC: 16-bit rows within 0.1% of heif-convert's, more than 256 levels, a 16-bit PNG round trip is exact")
    func tenBit() throws {
        let decoded = try ImageCodec.decode(Self.fixture("ten-bit.heic"))
        #expect(decoded.info.bitDepth == 10 && decoded.pixels.format == .rgb16)
        let reference = try PNGDecoder.decode(Self.fixture("ten-bit-heif-convert.png")).pixels
        #expect(reference.format == .rgb16)
        #expect(maxDifference(decoded.pixels, reference) <= 64, "max \(maxDifference(decoded.pixels, reference))")
        #expect(Set(decoded.pixels.samples).count > 256)
        #expect(decoded.pixels.samples.contains { $0 % 257 != 0 })
        let png = try PNGEncoder.encode(decoded.pixels)
        #expect(try PNGDecoder.decode(png).pixels == decoded.pixels)
    }

    @Test("an alpha plane comes back as RGBA, as heif-convert decodes it")
    func alpha() throws {
        let decoded = try ImageCodec.decode(Self.fixture("alpha.heic"))
        #expect(decoded.pixels.format == .rgba8 && decoded.pixels.width == 110 && decoded.pixels.height == 52)
        let reference = try PNGDecoder.decode(Self.fixture("alpha-heif-convert.png")).pixels
        #expect(maxDifference(decoded.pixels, reference) <= 1)
        #expect(decoded.pixels.samples.enumerated().contains { $0.offset % 4 == 3 && $0.element < 255 })
    }

    @Test("rows handed out in bands of any height equal the whole decode")
    func rowsInBands() throws {
        let bytes = try Self.fixture("alpha.heic")
        let whole = try ImageCodec.decode(bytes).pixels
        let decoder = try HEIFDecoder(data: bytes)
        var buffer = try PixelBuffer(width: whole.width, height: whole.height, format: whole.format)
        var rng = SplitMix64(seed: 8)
        while decoder.rowsRead < decoder.outputHeight {
            _ = try decoder.readRows(
                into: &buffer, startRow: decoder.rowsRead,
                maxRows: min(rng.int(1...13), decoder.outputHeight - decoder.rowsRead))
        }
        try decoder.finish()
        #expect(buffer == whole)
    }

    @Test("corrupted.heic, truncated.heic, every cut and random edits: a typed error naming HEIF, never a crash")
    func badFiles() throws {
        for name in ["corrupted.heic", "truncated.heic"] {
            let error = #expect(throws: CodecError.self) { try ImageCodec.decode(Self.fixture(name)) }
            #expect(error?.description.contains("HEIF") == true, "\(String(describing: error))")
        }
        let bytes = try Self.fixture("alpha.heic")
        var refused = 0
        for cut in stride(from: 0, to: bytes.count, by: 97) {
            do {
                let decoded = try ImageCodec.decode(Array(bytes.prefix(cut)))
                #expect(decoded.pixels.width == 110)
            } catch {
                refused += 1
            }
        }
        #expect(refused > 0)
        var rng = SplitMix64(seed: 41)
        for _ in 0..<150 {
            var edited = bytes
            for _ in 0..<rng.int(1...4) { edited[rng.int(0...(edited.count - 1))] = UInt8(truncatingIfNeeded: rng.next()) }
            if let decoded = try? ImageCodec.decode(edited) {
                #expect(decoded.pixels.width == decoded.info.width && decoded.pixels.height == decoded.info.height)
            }
        }
    }

    @Test("a HEIC past the pixel limit is refused before decoding; writing HEIF is refused with a clear error")
    func limitsAndWriting() throws {
        #expect(throws: CodecError.tooManyPixels(width: 4032, height: 3024, limit: 12_000_000)) {
            try HEIFDecoder(data: Self.fixture("pug.heic"), options: DecodeOptions(limits: PixelLimits(maxPixels: 12_000_000)))
        }
        let image = try PixelBuffer(width: 4, height: 4, format: .rgb8)
        #expect(throws: CodecError.self) { try ImageCodec.encode(image, as: .heif) }
    }
}
