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

    @Test(
        "the iPhone 13 Pro photo: 4032×3024 from 512-px grid tiles, its Display P3 profile, as heif-convert decodes it")
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

    @Test(
        "10-bit HEIC: 16-bit rows within 0.1% of heif-convert's, more than 256 levels, a 16-bit PNG round trip is exact"
    )
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
            for _ in 0..<rng.int(1...4) {
                edited[rng.int(0...(edited.count - 1))] = UInt8(truncatingIfNeeded: rng.next())
            }
            if let decoded = try? ImageCodec.decode(edited) {
                #expect(decoded.pixels.width == decoded.info.width && decoded.pixels.height == decoded.info.height)
            }
        }
    }

    @Test(
        "FuzzHEIF's find stays fixed: a grid claiming more than its 64×48 ispe no longer makes libheif allocate gigabytes"
    )
    func gridLargerThanIspe() throws {
        // The fuzzer's first byte is its control byte; the rest is the file (a mutated ten-bit.heic whose grid
        // descriptor outgrew its ispe). libheif is now held to the checked size, so it refuses the grid at once.
        let file = Array(try Self.fixture("crashers/grid-larger-than-ispe.bin").dropFirst())
        let decoder = try HEIFDecoder(data: file, options: DecodeOptions(limits: PixelLimits(maxPixels: 1_000_000)))
        #expect(decoder.outputWidth * decoder.outputHeight <= 1_000_000)
        do {
            let pixels = try decoder.decodeAll()
            #expect(pixels.width == decoder.outputWidth && pixels.height == decoder.outputHeight)
        } catch {
            #expect(error.description.contains("HEIF"), "\(error)")
        }
    }

    @Test("FuzzHEIF's nclx find: a colour box libheif rejects is read without a leak (LeakSanitizer guards the seed)")
    func nclxRejectedByLibheif() throws {
        // libheif 1.15 hands out the nclx structure together with an error for invalid code points; the shim now
        // frees it either way. The file still opens: its colour is just not described.
        let file = Array(try Self.fixture("crashers/nclx-error-leak.bin").dropFirst())
        do {
            let decoder = try HEIFDecoder(data: file)
            #expect(decoder.info.colorModel.contains("nclx colour"), "\(decoder.info.colorModel)")
            #expect(decoder.metadata.iccProfile == nil)
        } catch {
            #expect(error.description.contains("HEIF"), "\(error)")
        }
    }

    @Test("FuzzHEIF's abort: a primary image with an undefined bit depth is refused before libheif decodes it")
    func undefinedBitDepth() throws {
        // A mutated alpha.heic (control byte first) whose decoder configuration gives no depth: heif-info aborts on
        // it (std::system_error from thread creation) and heif-convert refuses it; CropKit refuses it by name.
        let file = Array(try Self.fixture("crashers/undefined-bit-depth.bin").dropFirst())
        #expect(
            throws: CodecError.corruptData(
                format: .heif, message: "the primary image's bit depth is undefined (no pixi or decoder configuration)")
        ) {
            try HEIFDecoder(data: file)
        }
    }

    @Test("a HEIC past the pixel limit is refused before decoding")
    func limits() throws {
        #expect(throws: CodecError.tooManyPixels(width: 4032, height: 3024, limit: 12_000_000)) {
            try HEIFDecoder(
                data: Self.fixture("pug.heic"), options: DecodeOptions(limits: PixelLimits(maxPixels: 12_000_000)))
        }
    }

    @Test(
        "HEIC and AVIF encode: the right size, within the stated PSNR of the source, profile and EXIF orientation back",
        arguments: [(ImageFormat.heif, 34.0), (.avif, 34.0)])
    func encodeRoundTrip(_ format: ImageFormat, _ floor: Double) throws {
        let image = try TestImages.smooth(width: 96, height: 64, seed: 21)
        let icc = try #require(ImageCodec.decode(Fixtures.bytes("webp/p3-icc.webp")).metadata.iccProfile)
        let bytes = try HEIFEncoder.encode(
            image, as: format,
            metadata: ImageMetadata(orientation: .up, iccProfile: icc, exif: EXIF.minimalBlock(orientation: .rightTop)),
            options: HEIFEncodeOptions(quality: 90))
        #expect(try ImageFormat.detect(bytes) == format)
        let decoded = try ImageCodec.decode(bytes)
        #expect(decoded.pixels.width == 96 && decoded.pixels.height == 64 && decoded.pixels.format == .rgb8)
        #expect(decoded.metadata.orientation == .up)  // EXIF inside HEIF is informative; pixels are written upright
        #expect(decoded.metadata.iccProfile == icc)
        #expect(decoded.metadata.exif.map { EXIF.readOrientation(tiff: $0).orientation } == .up)
        let psnr = Measure.psnr(decoded.pixels, image)
        #expect(psnr >= floor, "\(format): PSNR \(psnr) dB")
    }

    /// The Sony ILCE-7SM3 original from the shared test data (2.6 MB, too big for the repo's fixtures), when the
    /// checkout sits beside it as on the team's machines.
    static let sonyCat: String? = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let path = root.appendingPathComponent("shared/testdata/heif/cat.hif").path
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }()

    @Test(
        "the 10-bit Sony cat.hif decodes to 16-bit rows with 10 bits of precision that a 16-bit PNG round trip keeps",
        .enabled(if: sonyCat != nil, "needs ../shared/testdata/heif/cat.hif beside the checkout"))
    func sonyTenBit() throws {
        let decoded = try ImageCodec.decode(FileIO.readFile(atPath: try #require(Self.sonyCat)))
        #expect(decoded.info.bitDepth == 10 && decoded.pixels.format == .rgb16)
        #expect(decoded.pixels.width == 4240 && decoded.pixels.height == 2832)
        let crop = try decoded.pixels.cropped(x: 1800, y: 1200, width: 256, height: 192)
        // Ten bits: samples are not all 8-bit values widened (× 257), and they use more than 256 levels.
        #expect(crop.samples.contains { $0 % 257 != 0 })
        #expect(Set(crop.samples).count > 256)
        let back = try PNGDecoder.decode(PNGEncoder.encode(crop)).pixels
        #expect(back.format == .rgb16 && maxDifference(back, crop) == 0)
    }

    @Test(
        "10-bit HEIC (libheif) and 10-bit AVIF (libavif 0.11) keep more than 8 bits of a 16-bit source",
        arguments: [ImageFormat.heif, .avif])
    func tenBitEncode(_ format: ImageFormat) throws {
        var wide = try PixelBuffer(width: 64, height: 32, format: .rgb16)
        for y in 0..<32 {
            for x in 0..<64 { for c in 0..<3 { wide[x: x, y: y, channel: c] = (x * 1000 + y * 37 + c * 5000) % 65536 } }
        }
        let bytes = try HEIFEncoder.encode(wide, as: format, options: HEIFEncodeOptions(quality: 95, bitDepth: 10))
        let decoded = try ImageCodec.decode(bytes)
        #expect(decoded.info.bitDepth == 10 && decoded.pixels.format == .rgb16)
        #expect(decoded.pixels.samples.contains { $0 % 257 != 0 })
        #expect(meanDifference(decoded.pixels, wide) < 700, "mean \(meanDifference(decoded.pixels, wide)) of 65535")
    }

    @Test(
        "10-bit AVIF through libavif: alpha, ICC and EXIF kept, a smooth 16-bit picture within 0.2%, heif-convert agrees"
    )
    func tenBitAVIFWithAlpha() throws {
        var image = try PixelBuffer(width: 48, height: 40, format: .rgba16)
        for y in 0..<40 {
            for x in 0..<48 {
                image.setPixel(
                    x: x, y: y, [x * 1300 + 100, y * 1500 + 200, (x + y) * 700 + 50, x < 24 ? 65535 : 30000])
            }
        }
        let profile = try #require(ColorTransform.sRGBProfile)
        let metadata = ImageMetadata(orientation: .up, iccProfile: profile, exif: EXIF.minimalBlock(orientation: .up))
        let bytes = try HEIFEncoder.encode(
            image, as: .avif, metadata: metadata, options: HEIFEncodeOptions(quality: 98, bitDepth: 10))
        #expect(try ImageFormat.detect(bytes) == .avif)
        let decoded = try ImageCodec.decode(bytes)
        #expect(decoded.info.bitDepth == 10 && decoded.pixels.format == .rgba16)
        #expect(decoded.pixels.width == 48 && decoded.pixels.height == 40)
        #expect(decoded.metadata.iccProfile == profile && decoded.metadata.exif != nil)
        let mean = meanDifference(decoded.pixels, image)
        #expect(mean < 131, "mean \(mean) of 65535")
        #expect(
            abs(decoded.pixels.pixel(x: 5, y: 5)[3] - 65535) <= 128
                && abs(decoded.pixels.pixel(x: 40, y: 5)[3] - 30000) <= 128)
        // Another decoder: heif-convert (libheif with dav1d or libaom) reads the same size and depth.
        if let heifConvert = ["/usr/bin/heif-convert", "/usr/local/bin/heif-convert"].first(where: {
            FileManager.default.isExecutableFile(atPath: $0)
        }) {
            let dir = NSTemporaryDirectory() + "cropkit-avif10-\(UInt32.random(in: 0...UInt32.max))"
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: dir) }
            try Data(bytes).write(to: URL(fileURLWithPath: dir + "/a.avif"))
            let process = Process()
            process.executableURL = URL(fileURLWithPath: heifConvert)
            process.arguments = [dir + "/a.avif", dir + "/a.png"]
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            let other = try PNGDecoder.decode(FileIO.readFile(atPath: dir + "/a.png")).pixels
            #expect(other.width == 48 && other.height == 40 && other.format.depth == .sixteen)
            #expect(maxDifference(other, decoded.pixels) <= 64)
        }
    }

    @Test("alpha is written as an alpha plane and comes back", arguments: [ImageFormat.avif, .heif])
    func alphaEncode(_ format: ImageFormat) throws {
        var image = try TestImages.smooth(width: 64, height: 32, layout: .rgba, seed: 3)
        for y in 0..<32 { for x in 0..<64 { image[x: x, y: y, channel: 3] = x < 32 ? 255 : 80 } }
        let decoded = try ImageCodec.decode(
            HEIFEncoder.encode(image, as: format, options: HEIFEncodeOptions(quality: 95)))
        #expect(decoded.pixels.format == .rgba8)
        #expect(abs(decoded.pixels[x: 10, y: 10, channel: 3] - 255) <= 3)
        #expect(abs(decoded.pixels[x: 50, y: 10, channel: 3] - 80) <= 3)
    }

    @Test(
        "a stored picture with an orientation is written upright, for all 8: no transform properties to misread",
        arguments: [ImageFormat.avif, .heif])
    func orientationApplied(_ format: ImageFormat) throws {
        let image = try TestImages.smooth(width: 48, height: 32, seed: 6)
        for orientation in Orientation.allCases {
            let bytes = try HEIFEncoder.encode(
                image, as: format, metadata: ImageMetadata(orientation: orientation),
                options: HEIFEncodeOptions(quality: 95))
            let decoded = try ImageCodec.decode(bytes)
            let expected = image.applyingOrientation(orientation)
            #expect(decoded.metadata.orientation == .up, "\(format) \(orientation)")
            #expect(decoded.pixels.width == expected.width && decoded.pixels.height == expected.height)
            #expect(meanDifference(decoded.pixels, expected) < 3, "\(format) \(orientation)")
        }
    }

    @Test("encoder arguments outside their ranges are refused")
    func invalidEncodeArguments() throws {
        #expect(throws: CodecError.invalidArgument(name: "bit depth", reason: "12 is not 8 or 10")) {
            try HEIFEncoder(
                format: .avif, width: 4, height: 4, inputFormat: .rgb8, options: HEIFEncodeOptions(bitDepth: 12))
        }
        #expect(throws: CodecError.invalidArgument(name: "effort", reason: "10 is outside AVIF's 0…9")) {
            try HEIFEncoder(
                format: .avif, width: 4, height: 4, inputFormat: .rgb8, options: HEIFEncodeOptions(effort: 10))
        }
        #expect(throws: CodecError.self) { try HEIFEncoder(format: .heif, width: 0, height: 4, inputFormat: .rgb8) }
    }
}
