import CropGeometry
import CropPixels
import Foundation
import Testing

@testable import CropCodecs

/// `djxl` (Debian's `libjxl-tools`, installed by `.ci/install-deps tools`): the reference decoder for our encoder.
private let djxlTool = ["/usr/bin/djxl", "/usr/local/bin/djxl", "/opt/homebrew/bin/djxl"].first {
    FileManager.default.isExecutableFile(atPath: $0)
}

/// JPEG XL through libjxl. The fixtures (Fixtures/jxl, made by make-jxl.sh with Debian's libjxl-tools 0.7) come with
/// djxl's decodes (`-djxl.png`, orientation applied), the reference every test compares CropKit's pixels with.
@Suite("JPEG XL through libjxl: lossy and lossless, 8/16-bit, gray, alpha, orientation, Exif, animation, bad input")
struct JXLTests {
    static func fixture(_ name: String) throws -> [UInt8] { try Fixtures.bytes("jxl/" + name) }

    static func djxl(_ name: String) throws -> PixelBuffer { try PNGDecoder.decode(fixture(name + "-djxl.png")).pixels }

    static let cases: [(file: String, format: PixelFormat, width: Int, height: Int, model: String)] = [
        ("photo-lossy", .rgb8, 128, 85, "lossy (XYB)"),
        ("gray-lossy", .gray8, 128, 85, "lossy (XYB)"),
        ("rgba-lossless", .rgba8, 110, 52, "lossless or original colour space, alpha"),
        ("rgb16-lossless", .rgb16, 128, 85, "lossless or original colour space, container"),
    ]

    @Test("each file decodes to djxl's pixels (within 1/255, its 16-bit within 1/65535·257)", arguments: cases)
    func matchesDjxl(_ file: String, _ format: PixelFormat, _ width: Int, _ height: Int, _ model: String) throws {
        let decoder = try JXLDecoder(data: Self.fixture(file + ".jxl"))
        #expect(decoder.info.format == .jxl && decoder.warnings.isEmpty)
        #expect(decoder.info.colorModel == model)
        #expect(decoder.info.width == width && decoder.info.height == height && decoder.info.orientation == .up)
        let pixels = try decoder.decodeAll()
        let reference = try Self.djxl(file)
        #expect(pixels.format == format && reference.format == format)
        #expect(pixels.width == width && pixels.height == height)
        #expect(maxDifference(pixels, reference) <= (format.depth == .sixteen ? 257 : 1))
        // The RGBA source's PNG carries an ICC profile (the 3,144-byte sRGB one), which the lossless file keeps; the
        // others name sRGB and have none, as a JPEG without one.
        let source =
            file == "rgba-lossless" ? try PNGDecoder.decode(Fixtures.bytes("webp/rgba-lossless-source.png")) : nil
        #expect(decoder.metadata.iccProfile == source?.metadata.iccProfile)
    }

    @Test("lossless files give back their sources exactly: the RGBA PNG, and the 16-bit photo (×257)")
    func lossless() throws {
        let rgba = try JXLDecoder(data: Self.fixture("rgba-lossless.jxl")).decodeAll()
        #expect(maxDifference(rgba, try PNGDecoder.decode(Fixtures.bytes("webp/rgba-lossless-source.png")).pixels) == 0)
        let wide = try JXLDecoder(data: Self.fixture("rgb16-lossless.jxl")).decodeAll()
        let photo = try PNGDecoder.decode(Fixtures.bytes("photo-128.png")).pixels
        for y in stride(from: 0, to: 85, by: 7) {
            for x in stride(from: 0, to: 128, by: 5) {
                #expect(wide.pixel(x: x, y: y) == photo.pixel(x: x, y: y).map { $0 * 257 })
            }
        }
    }

    @Test(
        "a JPEG recompressed losslessly: orientation 6 reported and not applied, the Brotli-compressed Exif kept, close to libjpeg's decode"
    )
    func recompressedJPEG() throws {
        let decoder = try JXLDecoder(data: Self.fixture("orientation6.jxl"))
        #expect(decoder.info.colorModel.contains("JPEG reconstruction data"))
        #expect(decoder.info.orientation == .rightTop && decoder.metadata.orientation == .rightTop)
        #expect(decoder.info.storedSize == PixelSize(validWidth: 43, height: 64))
        #expect(decoder.info.displayedSize == PixelSize(validWidth: 64, height: 43))
        let exif = try #require(decoder.metadata.exif)
        #expect(exif.starts(with: Array("MM".utf8)) && EXIF.readOrientation(tiff: exif).orientation == .rightTop)
        let pixels = try decoder.decodeAll()
        // djxl applies the orientation; CropKit leaves it to the pipeline.
        #expect(
            maxDifference(try Measure.displayed(pixels, orientation: .rightTop), try Self.djxl("orientation6")) <= 1)
        // The JPEG it came from, decoded by libjpeg-turbo: libjxl's float IDCT and chroma upsampling differ from
        // libjpeg-turbo's (measured with djxl and Pillow on three fixtures: at most 3 to 5, on average 0.3 to 0.6).
        let jpeg = try ImageCodec.decode(Fixtures.bytes("exif/landscape-6-mm.jpg")).pixels
        #expect(maxDifference(pixels, jpeg) <= 5 && Measure.meanAbsoluteDifference(pixels, jpeg) < 0.7)
    }

    @Test("an animation is counted from its frame headers; its first frame is djxl's; strict mode reads it too")
    func animation() throws {
        let decoder = try JXLDecoder(data: Self.fixture("animated.jxl"), options: DecodeOptions(strict: true))
        #expect(decoder.warnings.isEmpty, "\(decoder.warnings)")
        #expect(decoder.info.frameCount == 3 && decoder.info.isAnimation)
        let pixels = try decoder.decodeAll()
        #expect(pixels.width == 32 && pixels.height == 24 && pixels.format == .rgba8)
        #expect(pixels.pixel(x: 5, y: 5) == [220, 40, 40, 255])
        #expect(maxDifference(pixels, try Self.djxl("animated")) == 0)
        // A still picture has no frame count.
        #expect(try JXLDecoder(data: Self.fixture("photo-lossy.jxl")).info.frameCount == nil)
    }

    @Test(
        "an animation's frames one at a time: as djxl gives them (its frames, exactly), with their delays and play count"
    )
    func frames() throws {
        let bytes = try Self.fixture("animated-disc.jxl")
        let info = try JXLDecoder(data: bytes).info
        // cjxl 0.7 does not carry the APNG's play count (2): the file says for ever (0), as djxl's APNG says.
        #expect(
            info.frameCount == 4 && info.playCount == 0,
            "\(String(describing: info.frameCount)) frames, plays \(String(describing: info.playCount))")
        #expect(abs((info.duration ?? 0) - 0.4) < 1e-9)
        let frames = try JXLFrames(data: bytes)
        #expect(frames.width == 40 && frames.height == 30)
        var delays: [Int] = []
        while let (picture, delay) = try frames.next() {
            let djxl = try PNGDecoder.decode(try Self.fixture("animated-disc-djxl-\(delays.count).png")).pixels
            #expect(picture == djxl, "frame \(delays.count)")
            delays.append(delay)
        }
        #expect(delays == [80, 160, 40, 120])
        #expect(try frames.next() == nil)
    }

    @Test("a cut file, a bare signature and noise are typed errors, never a crash")
    func badInput() throws {
        for bytes in [
            try Self.fixture("truncated.jxl"), [0xFF, 0x0A], [0xFF, 0x0A] + (0..<200).map { UInt8($0 * 37 % 256) },
        ] {
            do {
                _ = try JXLDecoder(data: bytes).decodeAll()
                Issue.record("\(bytes.count) bytes decoded")
            } catch {
                switch error {
                case .truncated(.jxl, _), .corruptData(.jxl, _): break
                default: Issue.record("\(bytes.count) bytes: \(error)")
                }
            }
        }
    }

    @Test("info reads the header only; a picture over the pixel limit is refused before decoding")
    func infoAndLimits() throws {
        let info = try ImageInfo.read(Self.fixture("photo-lossy.jxl"))
        #expect(info.format == .jxl && info.width == 128 && info.height == 85 && info.layout == .rgb)
        #expect(throws: CodecError.tooManyPixels(width: 128, height: 85, limit: 10_000)) {
            try JXLDecoder(
                data: Self.fixture("photo-lossy.jxl"), options: DecodeOptions(limits: PixelLimits(maxPixels: 10_000)))
        }
    }

    // MARK: Encoding

    @Test("lossless files give back every sample: 8-bit RGBA, 16-bit RGB and gray (as RGB)")
    func losslessRoundTrip() throws {
        let rgba = try PNGDecoder.decode(Fixtures.bytes("webp/rgba-lossless-source.png")).pixels
        let wide = try JXLDecoder(data: Self.fixture("rgb16-lossless.jxl")).decodeAll()
        for image in [rgba, wide] {
            let file = try JXLEncoder.encode(image, options: JXLEncodeOptions(lossless: true, effort: 3))
            let back = try JXLDecoder(data: file)
            #expect(back.info.colorModel.hasPrefix("lossless"))
            let pixels = try back.decodeAll()
            #expect(pixels.format == image.format && maxDifference(pixels, image) == 0)
        }
    }

    @Test("lossy files: quality maps to cjxl's distance, lower quality is smaller, and the picture stays close")
    func lossy() throws {
        #expect(
            JXLEncodeOptions(quality: 90).distance == 1 && abs(JXLEncodeOptions(quality: 75).distance - 2.35) < 1e-5)
        #expect(JXLEncodeOptions(quality: 100).distance == 0.1 && JXLEncodeOptions(quality: 1).distance == 25)
        let photo = try PNGDecoder.decode(Fixtures.bytes("photo-128.png")).pixels
        var sizes: [Int] = []
        for quality in [40, 75, 95] {
            let file = try JXLEncoder.encode(photo, options: JXLEncodeOptions(quality: quality, effort: 3))
            sizes.append(file.count)
            let back = try JXLDecoder(data: file)
            #expect(back.info.colorModel == "lossy (XYB)")
            let pixels = try back.decodeAll()
            #expect(pixels.width == 128 && pixels.height == 85 && pixels.format == .rgb8)
            // Measured: 27.6, 31.4 and 37.5 dB (libjxl aims at butteraugli's distance, not at PSNR).
            #expect(Measure.psnr(pixels, photo) > [40: 26.5, 75: 30.5, 95: 36.5][quality]!, "q\(quality)")
        }
        #expect(sizes[0] < sizes[1] && sizes[1] < sizes[2], "\(sizes)")
    }

    @Test("the ICC profile and the EXIF block are written; the EXIF's orientation says upright")
    func metadata() throws {
        let p3 = try #require(try ImageCodec.decode(Fixtures.bytes("webp/p3-icc.webp")).metadata.iccProfile)
        let exif = try #require(try ImageCodec.decode(Fixtures.bytes("exif/landscape-6-mm.jpg")).metadata.exif)
        let photo = try PNGDecoder.decode(Fixtures.bytes("photo-128.png")).pixels
        let file = try JXLEncoder.encode(
            photo, metadata: ImageMetadata(orientation: .up, iccProfile: p3, exif: exif),
            options: JXLEncodeOptions(lossless: true, effort: 2))
        let back = try JXLDecoder(data: file)
        #expect(back.metadata.iccProfile == p3)
        let written = try #require(back.metadata.exif)
        #expect(EXIF.readOrientation(tiff: written).orientation == .up && written.count == exif.count)
        #expect(back.info.orientation == .up)
    }

    @Test("bad settings are refused by name before anything is encoded")
    func badSettings() throws {
        let photo = try PNGDecoder.decode(Fixtures.bytes("photo-128.png")).pixels
        #expect(throws: CodecError.invalidArgument(name: "quality", reason: "0 is outside 1…100")) {
            try JXLEncoder.encode(photo, options: JXLEncodeOptions(quality: 0))
        }
        #expect(throws: CodecError.invalidArgument(name: "effort", reason: "10 is outside JPEG XL's 1…9")) {
            try JXLEncoder.encode(photo, options: JXLEncodeOptions(effort: 10))
        }
    }

    @Test("a JPEG recompressed losslessly is smaller, keeps its orientation and EXIF, and is about what cjxl makes")
    func recompress() throws {
        // A camera's JPEG (orientation 8, maker notes and a thumbnail in its EXIF): measured 22,958 → 6,264 bytes.
        let leica = try Fixtures.bytes("exif/leica-orient8-ii.jpg")
        let smaller = try JXLEncoder.recompress(jpeg: leica)
        #expect(smaller.count * 3 < leica.count, "\(smaller.count) of \(leica.count) bytes")
        let back = try JXLDecoder(data: smaller)
        #expect(back.info.colorModel.contains("JPEG reconstruction data") && back.info.orientation == .leftBottom)
        #expect(back.metadata.exif != nil)
        let (pixels, jpegPixels) = (try back.decodeAll(), try ImageCodec.decode(leica).pixels)
        #expect(maxDifference(pixels, jpegPixels) <= 5 && Measure.meanAbsoluteDifference(pixels, jpegPixels) < 0.7)
        // About what cjxl 0.7 writes at the same effort (a 2 KB file gains a little: the container and its boxes).
        let jpeg = try Fixtures.bytes("exif/landscape-6-mm.jpg")
        let ours = try JXLEncoder.recompress(jpeg: jpeg, effort: 7).count,
            cjxl = try Self.fixture("orientation6.jxl").count
        #expect(abs(ours - cjxl) * 20 < cjxl, "\(ours) against cjxl's \(cjxl) bytes")
        // A JPEG libjxl cannot represent is refused by name.
        #expect(throws: CodecError.self) { try JXLEncoder.recompress(jpeg: Fixtures.bytes("cmyk-adobe.jpg")) }
    }

    @Test(
        "djxl decodes our files to our pixels (within 1/255), and gives back a recompressed JPEG byte for byte",
        .enabled(if: djxlTool != nil, "djxl is not installed (.ci/install-deps tools)"))
    func djxlReadsOurFiles() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "jxl-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        func run(_ arguments: [String]) throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: try #require(djxlTool))
            process.arguments = arguments + ["--quiet"]
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "djxl \(arguments)")
        }
        let photo = try PNGDecoder.decode(Fixtures.bytes("photo-128.png")).pixels
        let ours = try JXLEncoder.encode(photo, options: JXLEncodeOptions(quality: 80, effort: 3))
        try Data(ours).write(to: dir.appendingPathComponent("ours.jxl"))
        try run([dir.appendingPathComponent("ours.jxl").path, dir.appendingPathComponent("ours.png").path])
        let reference = try PNGDecoder.decode(FileIO.readFile(atPath: dir.appendingPathComponent("ours.png").path))
            .pixels
        #expect(maxDifference(try JXLDecoder(data: ours).decodeAll(), reference) <= 1)
        let jpeg = try Fixtures.bytes("exif/landscape-6-mm.jpg")
        try Data(try JXLEncoder.recompress(jpeg: jpeg)).write(to: dir.appendingPathComponent("re.jxl"))
        try run([dir.appendingPathComponent("re.jxl").path, dir.appendingPathComponent("back.jpg").path])
        #expect(try FileIO.readFile(atPath: dir.appendingPathComponent("back.jpg").path) == jpeg)
    }
}
