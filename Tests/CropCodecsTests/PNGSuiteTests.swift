import CropPixels
import Foundation
import Testing

@testable import CropCodecs

/// PngSuite (Willem van Schaik): every colour type, bit depth, interlacing, tRNS, odd sizes and ancillary chunks,
/// plus 14 deliberately broken `x*` files.
@Suite("PngSuite")
struct PNGSuiteTests {
    static let names: [String] = {
        let folder = Fixtures.url("pngsuite/png")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return files.filter { $0.hasSuffix(".png") }.map { String($0.dropLast(4)) }.sorted()
    }()
    static let valid = names.filter { !$0.hasPrefix("x") }
    static let corrupt = names.filter { $0.hasPrefix("x") }

    @Test("the suite is complete: 161 valid files and 14 broken ones")
    func counts() throws {
        #expect(Self.valid.count == 161)
        #expect(Self.corrupt.count == 14)
    }

    /// The json twins hold `[r, g, b, a, …]` for every pixel, 16-bit values for 16-bit files, no gamma applied.
    @Test("every valid file decodes to exactly the pixels of its json twin", arguments: valid)
    func decodesExactly(_ name: String) throws {
        let data = try Fixtures.bytes("pngsuite/png/\(name).png")
        let decoded = try PNGDecoder.decode(data)
        let expected = try JSONDecoder().decode(
            [Int].self, from: Data(contentsOf: Fixtures.url("pngsuite/json/\(name).json")))
        let pixels = decoded.pixels
        #expect(expected.count == pixels.width * pixels.height * 4)
        let actual = rgba(pixels)
        #expect(actual.count == expected.count)
        let mismatches = zip(actual, expected).enumerated().filter { $0.element.0 != $0.element.1 }
        #expect(
            mismatches.isEmpty, "\(mismatches.count) samples differ, first at \(mismatches.first.map { "\($0)" } ?? "")"
        )
        // 16-bit files stay 16-bit; everything else decodes to 8 bits.
        #expect(pixels.format.depth == (decoded.info.bitDepth == 16 ? .sixteen : .eight))
    }

    @Test(
        "streaming row by row gives the same pixels as a whole decode",
        arguments: ["basn2c08", "basi0g04", "basi6a16", "s39i3p04", "tbbn3p08"])
    func streaming(_ name: String) throws {
        let data = try Fixtures.bytes("pngsuite/png/\(name).png")
        let whole = try PNGDecoder.decode(data).pixels
        let decoder = try PNGDecoder(data: data)
        var buffer = try PixelBuffer(
            width: decoder.outputWidth, height: decoder.outputHeight, format: decoder.outputFormat)
        var y = 0
        while y < decoder.outputHeight {
            let n = try decoder.readRows(into: &buffer, startRow: y, maxRows: min(3, decoder.outputHeight - y))
            #expect(n > 0)
            y += n
        }
        try decoder.finish()
        #expect(buffer == whole)
    }

    @Test("every broken file is rejected with a typed error", arguments: corrupt)
    func rejectsBroken(_ name: String) throws {
        let data = try Fixtures.bytes("pngsuite/png/\(name).png")
        do {
            _ = try ImageCodec.decode(data)
            Issue.record("\(name) was decoded")
        } catch {
            switch error {
            case .notAnImage, .corruptData, .truncated: break
            default: Issue.record("\(name): unexpected \(error)")
            }
            #expect(!error.description.isEmpty)
        }
    }

    /// Samples widened to RGBA the way the json twins are written.
    private func rgba(_ image: PixelBuffer) -> [Int] {
        let opaque = image.format.depth.maxValue
        var out: [Int] = []
        out.reserveCapacity(image.width * image.height * 4)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image.pixel(x: x, y: y)
                switch image.format.layout {
                case .gray: out += [p[0], p[0], p[0], opaque]
                case .grayAlpha: out += [p[0], p[0], p[0], p[1]]
                case .rgb: out += [p[0], p[1], p[2], opaque]
                case .rgba: out += p
                }
            }
        }
        return out
    }
}
