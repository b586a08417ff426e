import CropGeometry
import CropPixels
import Foundation
import Testing

@testable import CropCodecs

/// JPEG 2000 through OpenJPEG. The fixtures (Fixtures/jp2, made by make-jp2.sh with Debian's libopenjp2-tools 2.5)
/// come with opj_decompress's decodes (`-opj.png`), the reference every test compares CropKit's pixels with.
@Suite(
    "JPEG 2000 through OpenJPEG: JP2 and J2K, lossless and lossy, tiles, 16-bit, alpha, sYCC 4:2:0, reduced decoding")
struct JP2Tests {
    static func fixture(_ name: String) throws -> [UInt8] { try Fixtures.bytes("jp2/" + name) }

    static func reference(_ name: String) throws -> PixelBuffer {
        try PNGDecoder.decode(fixture(name + "-opj.png")).pixels
    }

    static let cases: [(file: String, format: PixelFormat, width: Int, height: Int, tolerance: Int)] = [
        ("photo-lossless.jp2", .rgb8, 128, 85, 0),
        ("photo-lossy.j2k", .rgb8, 128, 85, 0),
        ("rgba.jp2", .rgba8, 110, 52, 0),
        ("gray16.jp2", .gray16, 128, 85, 0),
        ("sycc420.j2k", .rgb8, 128, 84, 1),
    ]

    @Test("each file decodes to opj_decompress's pixels", arguments: cases)
    func matchesOpenJPEG(_ file: String, _ format: PixelFormat, _ width: Int, _ height: Int, _ tolerance: Int) throws {
        let decoder = try JP2Decoder(data: Self.fixture(file))
        #expect(decoder.info.format == .jp2 && decoder.warnings.isEmpty)
        #expect(decoder.info.width == width && decoder.info.height == height && decoder.info.largestShrinkOnLoad == 8)
        let pixels = try decoder.decodeAll()
        let reference = try Self.reference(String(file.prefix { $0 != "." }))
        #expect(pixels.format == format && reference.format == format)
        #expect(pixels.width == width && pixels.height == height)
        #expect(maxDifference(pixels, reference) <= tolerance)
    }

    @Test("lossless files give back their sources exactly; the header says what the file is")
    func lossless() throws {
        let photo = try JP2Decoder(data: Self.fixture("photo-lossless.jp2"))
        #expect(photo.info.colorModel == "JP2, sRGB, 3 components, 6 resolution levels")
        #expect(
            maxDifference(try photo.decodeAll(), try PNGDecoder.decode(Fixtures.bytes("photo-128.png")).pixels) == 0)
        let rgba = try JP2Decoder(data: Self.fixture("rgba.jp2"))
        #expect(rgba.info.colorModel == "JP2, sRGB, 4 components, 6 resolution levels" && rgba.outputFormat == .rgba8)
        let tiled = try JP2Decoder(data: Self.fixture("photo-lossy.j2k"))
        #expect(tiled.info.colorModel == "J2K codestream, RGB, 3 components, 6 resolution levels, 12 tiles of 32×32")
        let sycc = try JP2Decoder(data: Self.fixture("sycc420.j2k"))
        #expect(sycc.info.colorModel.contains("subsampled"))
    }

    @Test(
        "shrink-on-load: 1/2, 1/4 and 1/8 decode only the levels they need, as opj_decompress -r 1, 2, 3 does",
        arguments: [(JPEGScale.half, 1), (.quarter, 2), (.eighth, 3)])
    func reduced(_ scale: JPEGScale, _ levels: Int) throws {
        let decoder = try JP2Decoder(data: Self.fixture("photo-lossless.jp2"), options: DecodeOptions(jpegScale: scale))
        let s = scale.rawValue
        #expect(decoder.outputWidth == (128 + s - 1) / s && decoder.outputHeight == (85 + s - 1) / s)
        let small = try decoder.decodeAll()
        #expect(maxDifference(small, try Self.reference("photo-lossless-r\(levels)")) == 0)
    }

    @Test("a cut file, a bare signature and noise are typed errors, never a crash; the detection and the names")
    func badInputAndDetection() throws {
        for bytes in [
            try Self.fixture("truncated.jp2"), [0xFF, 0x4F, 0xFF, 0x51],
            [0, 0, 0, 0x0C, 0x6A, 0x50, 0x20, 0x20, 0x0D, 0x0A, 0x87, 0x0A] + (0..<300).map { UInt8($0 * 37 % 256) },
        ] {
            do {
                _ = try JP2Decoder(data: bytes).decodeAll()
                Issue.record("\(bytes.count) bytes decoded")
            } catch {
                switch error {
                case .corruptData(.jp2, _), .truncated(.jp2, _): break
                default: Issue.record("\(bytes.count) bytes: \(error)")
                }
            }
        }
        #expect(try ImageFormat.detect(Self.fixture("photo-lossless.jp2")) == .jp2)
        #expect(try ImageFormat.detect(Self.fixture("photo-lossy.j2k")) == .jp2)
        #expect(ImageFormat(pathExtensionOf: "scan.J2K") == .jp2 && !ImageFormat.jp2.isWritable)
        #expect(ImageFormat.jp2.defaultOutput == .png && ImageFormat.jp2.displayName == "JPEG 2000")
    }
}
