import CropGeometry
import CropPixels
import Foundation
import Testing

@testable import CropCodecs

/// `dwebp` (Debian's `webp` package, installed by `.ci/install-deps tools`), the reference decoder for our encoder.
private let dwebp = ["/usr/bin/dwebp", "/usr/local/bin/dwebp", "/opt/homebrew/bin/dwebp"].first {
    FileManager.default.isExecutableFile(atPath: $0)
}

@Suite("WebP through libwebp: decode, shrink-on-load, metadata, animation, encode")
struct WebPTests {
    /// The fixtures (Tests/CropCodecsTests/Fixtures/webp) were made with Debian's cwebp/img2webp 1.2.4; the
    /// `-dwebp.png` references with its dwebp. See Fixtures/README.md.
    static func fixture(_ name: String) throws -> [UInt8] { try Fixtures.bytes("webp/" + name) }

    static func png(_ name: String) throws -> PixelBuffer { try PNGDecoder.decode(fixture(name)).pixels }

    @Test("lossy WebP with EXIF orientation 6: stored 120×180, displayed 180×120, pixels as dwebp's")
    func orientation6() throws {
        let decoded = try ImageCodec.decode(Self.fixture("orientation6.webp"))
        #expect(decoded.info.format == .webp)
        #expect(decoded.pixels.width == 120 && decoded.pixels.height == 180 && decoded.pixels.format == .rgb8)
        #expect(decoded.metadata.orientation == .rightTop)
        #expect(decoded.info.displayedSize == PixelSize(validWidth: 180, height: 120))
        #expect(decoded.info.colorModel == "lossy")
        let reference = try Self.png("orientation6-dwebp.png")
        #expect(maxDifference(decoded.pixels, reference) <= 1)
    }

    @Test("lossless WebP with alpha decodes to exactly the PNG cwebp -lossless -exact was given")
    func losslessAlpha() throws {
        let decoded = try ImageCodec.decode(Self.fixture("rgba-lossless.webp"))
        let source = try Self.png("rgba-lossless-source.png")
        #expect(decoded.pixels.format == .rgba8 && decoded.info.colorModel == "lossless, with alpha")
        #expect(decoded.pixels.width == source.width && decoded.pixels.height == source.height)
        #expect(maxDifference(decoded.pixels, source) == 0)
    }

    @Test("an ICC chunk comes back byte for byte")
    func iccProfile() throws {
        let bytes = try Self.fixture("p3-icc.webp")
        let decoded = try ImageCodec.decode(bytes)
        let profile = try #require(decoded.metadata.iccProfile)
        #expect(profile.count == decoded.info.iccProfileSize)
        // The profile is the chunk's payload: its own header states its size.
        let declared = Int(profile[0]) << 24 | Int(profile[1]) << 16 | Int(profile[2]) << 8 | Int(profile[3])
        #expect(declared == profile.count)
        #expect(String(decoding: profile[36..<40], as: UTF8.self) == "acsp")
    }

    @Test("an animation gives its first frame, as dwebp decodes that frame")
    func animationFirstFrame() throws {
        let decoder = try WebPDecoder(data: Self.fixture("animated.webp"))
        #expect(decoder.info.frameCount == 3)
        #expect(decoder.warnings.isEmpty)  // the pipeline, which knows the output, says what becomes of the frames
        let pixels = try decoder.decodeAll()
        #expect(pixels.width == 64 && pixels.height == 48 && pixels.format == .rgba8)
        let reference = try Self.png("animated-frame1-dwebp.png")
        var opaque = try PixelBuffer(width: 64, height: 48, format: .rgb8)
        for y in 0..<48 {
            for x in 0..<64 { for c in 0..<3 { opaque[x: x, y: y, channel: c] = pixels[x: x, y: y, channel: c] } }
        }
        #expect(maxDifference(opaque, reference) <= 1)
        #expect((0..<48).allSatisfy { y in (0..<64).allSatisfy { x in pixels[x: x, y: y, channel: 3] == 255 } })
    }

    @Test(
        "shrink-on-load: libwebp's rescaler decodes 1/2, 1/4, 1/8 straight to size, close to a full decode resized",
        arguments: [JPEGScale.half, .quarter, .eighth])
    func scaledDecode(_ scale: JPEGScale) throws {
        let bytes = try Self.fixture("orientation6.webp")
        let full = try ImageCodec.decode(bytes).pixels
        let decoder = try WebPDecoder(data: bytes, options: DecodeOptions(jpegScale: scale))
        let size = scale.scaledSize(width: 120, height: 180)
        #expect(decoder.outputWidth == size.width && decoder.outputHeight == size.height)
        let scaled = try decoder.decodeAll()
        let reference = try full.resized(
            width: size.width, height: size.height, options: ResampleOptions(filter: .box))
        #expect(meanDifference(scaled, reference) < 4, "mean difference \(meanDifference(scaled, reference))")
    }

    @Test("rows handed out in bands of any height equal the whole decode")
    func rowsInBands() throws {
        let bytes = try Self.fixture("rgba-lossless.webp")
        let whole = try ImageCodec.decode(bytes).pixels
        var rng = SplitMix64(seed: 71)
        for _ in 0..<5 {
            let decoder = try WebPDecoder(data: bytes)
            var buffer = try PixelBuffer(width: whole.width, height: whole.height, format: whole.format)
            while decoder.rowsRead < decoder.outputHeight {
                let n = try decoder.readRows(
                    into: &buffer, startRow: decoder.rowsRead,
                    maxRows: min(rng.int(1...40), decoder.outputHeight - decoder.rowsRead))
                #expect(n > 0)
            }
            try decoder.finish()
            #expect(maxDifference(buffer, whole) == 0)
        }
    }

    @Test(
        "lossless encode round-trips every pixel format exactly (gray widened to RGB, 16-bit rounded to 8)",
        arguments: [PixelFormat.gray8, .grayAlpha8, .rgb8, .rgba8, .gray16, .grayAlpha16, .rgb16, .rgba16])
    func losslessRoundTrip(_ format: PixelFormat) throws {
        let image = try TestImages.random(width: 37, height: 23, format: format, seed: 5)
        let bytes = try WebPEncoder.encode(image, options: WebPEncodeOptions(quality: 50, lossless: true, exact: true))
        let decoded = try ImageCodec.decode(bytes)
        #expect(decoded.pixels.format == (format.hasAlpha ? .rgba8 : .rgb8))
        for y in 0..<image.height {
            for x in 0..<image.width {
                for c in 0..<decoded.pixels.format.channelCount {
                    let source = c == 3 ? format.channelCount - 1 : (format.layout.isColor ? c : 0)
                    var value = image[x: x, y: y, channel: source]
                    if format.depth == .sixteen { value = (value * 255 + 32_767) / 65_535 }
                    if decoded.pixels[x: x, y: y, channel: c] != value {
                        Issue.record(
                            "\(format) (\(x), \(y)) channel \(c): \(decoded.pixels[x: x, y: y, channel: c]) ≠ \(value)")
                        return
                    }
                }
            }
        }
    }

    @Test(
        "lossy encode: PSNR against the source rises with quality and stays above the stated floor",
        arguments: [(50, 30.0), (80, 34.0), (95, 38.0)])
    func lossyQuality(_ quality: Int, _ floor: Double) throws {
        let image = try TestImages.smooth(width: 96, height: 64, seed: 9)
        let bytes = try WebPEncoder.encode(image, options: WebPEncodeOptions(quality: quality))
        let decoded = try ImageCodec.decode(bytes).pixels
        #expect(decoded.width == 96 && decoded.height == 64)
        let psnr = Measure.psnr(decoded, image)
        #expect(psnr >= floor, "q\(quality): PSNR \(psnr) dB")
    }

    @Test("metadata: ICC and EXIF chunks written in the extended format and read back, orientation tag rewritten")
    func metadataRoundTrip() throws {
        let image = try TestImages.smooth(width: 31, height: 17, layout: .rgba, seed: 4)
        let icc = try #require(ImageCodec.decode(Self.fixture("p3-icc.webp")).metadata.iccProfile)
        let metadata = ImageMetadata(
            orientation: .leftBottom, iccProfile: icc, exif: EXIF.minimalBlock(orientation: .up))
        for lossless in [false, true] {
            let bytes = try WebPEncoder.encode(
                image, metadata: metadata, options: WebPEncodeOptions(lossless: lossless))
            let container = try WebPContainer(bytes)
            #expect(container.chunks.first?.fourCC == "VP8X")
            #expect(container.canvas == PixelSize(validWidth: 31, height: 17))
            #expect(container.warnings.isEmpty)
            let decoded = try ImageCodec.decode(bytes)
            #expect(decoded.metadata.iccProfile == icc)
            #expect(decoded.metadata.orientation == .leftBottom)
            #expect(decoded.pixels.format == .rgba8)
        }
    }

    @Test(
        "our encoder's files decode with dwebp to the right size and within 1 of our decode",
        .enabled(if: dwebp != nil, "dwebp is not installed (.ci/install-deps tools)"))
    func decodesWithDwebp() throws {
        let image = try TestImages.smooth(width: 50, height: 30, layout: .rgba, seed: 12)
        try withScratchFolder { folder in
            for lossless in [false, true] {
                let bytes = try WebPEncoder.encode(
                    image, metadata: ImageMetadata(exif: EXIF.minimalBlock(orientation: .bottomRight)),
                    options: WebPEncodeOptions(lossless: lossless))
                let input = folder + "/in-\(lossless).webp", output = folder + "/out-\(lossless).png"
                try FileIO.writeAtomically(bytes, toPath: input)
                let process = Process()
                process.executableURL = URL(fileURLWithPath: try #require(dwebp))
                process.arguments = ["-quiet", input, "-o", output]
                try process.run()
                process.waitUntilExit()
                #expect(process.terminationStatus == 0)
                let theirs = try PNGDecoder.decode(FileIO.readFile(atPath: output)).pixels
                let ours = try ImageCodec.decode(bytes).pixels
                #expect(theirs.width == 50 && theirs.height == 30)
                #expect(maxDifference(theirs, ours) <= 1)
            }
        }
    }

    @Test("arguments outside their ranges are refused before libwebp runs")
    func invalidArguments() throws {
        #expect(throws: CodecError.self) { try WebPEncoder(width: 16_384, height: 1, inputFormat: .rgb8) }
        #expect(throws: CodecError.self) { try WebPEncoder(width: 0, height: 1, inputFormat: .rgb8) }
        #expect(throws: CodecError.invalidArgument(name: "quality", reason: "101 is outside 1…100")) {
            try WebPEncoder(width: 1, height: 1, inputFormat: .rgb8, options: WebPEncodeOptions(quality: 101))
        }
        #expect(throws: CodecError.invalidArgument(name: "effort", reason: "7 is outside WebP's 0…6")) {
            try WebPEncoder(width: 1, height: 1, inputFormat: .rgb8, options: WebPEncodeOptions(effort: 7))
        }
        // One quality scale for every encoder: libwebp would take 0, CropKit's convention does not.
        #expect(throws: CodecError.invalidArgument(name: "quality", reason: "0 is outside 1…100")) {
            try WebPEncoder(width: 1, height: 1, inputFormat: .rgb8, options: WebPEncodeOptions(quality: 0))
        }
    }

    @Test("a WebP past the pixel limit is refused before decoding")
    func pixelLimit() throws {
        #expect(throws: CodecError.tooManyPixels(width: 120, height: 180, limit: 10_000)) {
            try WebPDecoder(
                data: Self.fixture("orientation6.webp"), options: DecodeOptions(limits: PixelLimits(maxPixels: 10_000)))
        }
    }

    @Test("every cut of a WebP file is a typed error or a picture of the stated size, never a crash")
    func truncations() throws {
        for name in ["orientation6.webp", "rgba-lossless.webp", "animated.webp", "p3-icc.webp"] {
            let bytes = try Self.fixture(name)
            var cuts = Array(stride(from: 0, to: min(bytes.count, 80), by: 1))
            cuts += stride(from: 80, to: bytes.count, by: max(1, bytes.count / 60))
            for cut in cuts {
                do {
                    let decoder = try WebPDecoder(data: Array(bytes.prefix(cut)))
                    let pixels = try decoder.decodeAll()
                    #expect(pixels.width == decoder.outputWidth && pixels.height == decoder.outputHeight)
                } catch {
                    #expect(!error.description.isEmpty)
                }
            }
            // The RIFF size past the data is a repair in lenient mode and an error in strict mode.
            let cut = Array(bytes.prefix(bytes.count - 1))
            #expect(throws: CodecError.self) { try WebPDecoder(data: cut, options: DecodeOptions(strict: true)) }
        }
    }

    @Test("a picture that fails to decode repeats its error on every later call")
    func failureRepeats() throws {
        let bytes = try Self.fixture("rgba-lossless.webp")
        let cut = Array(bytes.prefix(bytes.count / 2))
        let decoder = try WebPDecoder(data: cut)  // the header is there; the bitstream is cut
        let first = #expect(throws: CodecError.self) { try decoder.decodeAll() }
        var row = [UInt8](repeating: 0, count: decoder.outputWidth * 4)
        let again = #expect(throws: CodecError.self) {
            try row.withUnsafeMutableBytes {
                _ = try decoder.readRows(into: $0.baseAddress!, bytesPerRow: $0.count, maxRows: 1)
            }
        }
        #expect(first == again)
        #expect(decoder.rowsRead == 0)
    }

    @Test("random byte edits of WebP files: decoded or refused with a CodecError, 400 seeded cases")
    func mutations() throws {
        var rng = SplitMix64(seed: 2026)
        let files = try ["orientation6.webp", "rgba-lossless.webp", "animated.webp", "p3-icc.webp"].map(Self.fixture)
        var decoded = 0, refused = 0
        for _ in 0..<400 {
            var bytes = rng.pick(files)
            for _ in 0..<rng.int(1...6) {
                bytes[rng.int(0...(bytes.count - 1))] = UInt8(truncatingIfNeeded: rng.next())
            }
            do {
                let decoder = try WebPDecoder(
                    data: bytes, options: DecodeOptions(limits: PixelLimits(maxPixels: 4_000_000)))
                let pixels = try decoder.decodeAll()
                #expect(pixels.width == decoder.outputWidth && pixels.height == decoder.outputHeight)
                decoded += 1
            } catch {
                refused += 1
            }
        }
        #expect(decoded + refused == 400)
        #expect(decoded > 0 && refused > 0, "decoded \(decoded), refused \(refused)")
    }

    @Test("FuzzWebP's finds stay fixed: a RIFF size below the header (it trapped on a reversed range)")
    func fuzzFinds() throws {
        let bytes = try Self.fixture("crashers/riff-size-below-header.bin")
        // The fuzzer's first byte is its control byte; the rest is the file.
        let file = Array(bytes.dropFirst())
        let container = try WebPContainer(file)
        #expect(container.warnings.contains { $0.contains("RIFF size") })
        #expect(throws: CodecError.self) { try WebPDecoder(data: file) }
        #expect(throws: CodecError.self) { try WebPDecoder(data: file, options: DecodeOptions(strict: true)) }
    }

    @Test("the container writer pads odd chunks and the reader finds every chunk it wrote, over 200 seeded cases")
    func containerRoundTrip() throws {
        var rng = SplitMix64(seed: 33)
        let plain = try WebPEncoder.encode(TestImages.smooth(width: 9, height: 7, seed: 1))
        for _ in 0..<200 {
            let icc = rng.bool() ? (0..<rng.int(0...41)).map { _ in UInt8(truncatingIfNeeded: rng.next()) } : nil
            let exif = rng.bool() ? (0..<rng.int(1...29)).map { _ in UInt8(truncatingIfNeeded: rng.next()) } : nil
            let file = try WebPContainer.addingMetadata(
                to: plain, width: 9, height: 7, hasAlpha: false, iccProfile: icc, exif: exif)
            #expect(file.count % 2 == 0)
            let container = try WebPContainer(file)
            #expect(container.warnings.isEmpty)
            #expect(container.iccProfile == icc)
            #expect(container.exif == exif)
            #expect(try ImageCodec.decode(file).pixels.width == 9)
        }
    }
}
