import CropPixels
import Testing

@testable import CropCodecs

/// Files from foreign test corpora (Pillow's, libheif's, libjpeg-turbo's …: `Fixtures/corpus-findings`) that CropKit
/// once misread or described wrongly.
@Suite struct CorpusFindingsTests {
    static func file(_ name: String) throws -> [UInt8] { try Fixtures.bytes("corpus-findings/" + name) }

    @Test("testimgari.jpg (libjpeg-turbo) is described as arithmetic-coded, not baseline, and decodes")
    func arithmeticJPEG() throws {
        let decoded = try JPEGDecoder.decode(try Self.file("testimgari.jpg"))
        #expect(decoded.info.isArithmeticCoded && !decoded.info.isProgressive)
        #expect(InfoReport.line(for: decoded.info, path: "a.jpg").hasSuffix("sequential, arithmetic-coded"))
        #expect(decoded.pixels.width == 227 && decoded.pixels.height == 149)
    }

    @Test("icc-after-SOF.jpg (Pillow): its profile, repeated after SOF, is read (7 bytes 'profile', as Pillow reads it)")
    func iccAfterSOF() throws {
        let decoded = try JPEGDecoder.decode(try Self.file("icc-after-SOF.jpg"))
        #expect(decoded.metadata.iccProfile == Array("profile".utf8))
        #expect(decoded.warnings.isEmpty, "\(decoded.warnings)")
    }

    @Test("circle-trns-before-plte.png (Pillow): a truecolor tRNS before a suggested PLTE keeps its transparency (libpng drops it), streamed and whole")
    func tRNSBeforePLTE() throws {
        let bytes = try Self.file("circle-trns-before-plte.png")
        let decoded = try PNGDecoder.decode(bytes)
        #expect(decoded.pixels.width == 100 && decoded.pixels.height == 60 && decoded.pixels.channelCount == 4)
        // The key is tRNS's colour, (0, 255, 0): exactly those pixels are transparent, every other one opaque.
        var keyed = 0, clear = 0, wrong = 0
        for y in 0..<60 {
            for x in 0..<100 {
                let p = decoded.pixels.pixel(x: x, y: y)
                let isKey = p[0] == 0 && p[1] == 255 && p[2] == 0
                keyed += isKey ? 1 : 0
                clear += p[3] == 0 ? 1 : 0
                wrong += (isKey ? p[3] != 0 : p[3] != 255) ? 1 : 0
            }
        }
        #expect(keyed > 1000 && keyed < 5000 && clear == keyed && wrong == 0, "\(keyed) keyed, \(clear) clear, \(wrong) wrong")
    }

    @Test("a libtiff message's negative byte count is printed as a negative number, not 18446744073709550836")
    func negativeCount() throws {
        let bytes = try Self.file("crash-0c7e0e8e11ce787078f00b5b0ca409a167f070e0.tif")
        #expect {
            _ = try ImageCodec.decode(bytes)
        } throws: { error in
            let text = "\(error)"
            return text.contains("got -780 bytes") && !text.contains("18446744073709550836")
        }
    }

    @Test("an encoder's warning is said to be about the output (a PNG refusing a JPEG's 7-byte profile)")
    func encoderWarningsNameTheOutput() throws {
        let image = try PixelBuffer(width: 4, height: 4, layout: .gray, samples: [UInt8](repeating: 9, count: 16))
        let encoder = try PNGEncoder(
            width: 4, height: 4, inputFormat: image.format, metadata: ImageMetadata(iccProfile: Array("profile".utf8)),
            options: PNGEncodeOptions())
        try encoder.writeRows(from: image, startRow: 0, count: 4)
        try encoder.finish { _ throws(CodecError) in }
        let warning = try #require(encoder.warnings.first)
        #expect(warning.isAboutOutput && warning.description.hasPrefix("png output: "), "\(warning)")
        #expect(!CodecWarning(.png, "x").isAboutOutput && CodecWarning(.png, "x").description == "png: x")
    }
}
