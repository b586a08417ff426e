import CropCodecs
import CropTestSupport
import Foundation
import Testing

@testable import CropKit

/// `SaveOptions.metadata`: keep, strip, or keep only the ICC profile and the EXIF copyright notice, in every format
/// CropKit writes.
@Suite("Metadata policy: keep, strip, ICC and copyright only")
struct MetadataPolicyTests {
    /// A little-endian EXIF block with Make ("Canon"), Orientation 6 and Copyright ("© 2026 Ada"): IFD0 of three
    /// entries, the two strings after it.
    static func sourceEXIF() -> [UInt8] {
        let make = Array("Canon".utf8) + [0], notice = Array("© 2026 Ada".utf8) + [0]
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16(v >> 16) }
        let strings = 8 + 2 + 3 * 12 + 4
        var block: [UInt8] = [0x49, 0x49, 0x2A, 0x00] + le32(8) + le16(3)
        block += le16(0x010F) + le16(2) + le32(make.count) + le32(strings)
        block += le16(0x0112) + le16(3) + le32(1) + le16(6) + le16(0)
        block += le16(0x8298) + le16(2) + le32(notice.count) + le32(strings + make.count)
        block += le32(0) + make + notice
        return block
    }

    /// The Adobe RGB profile of the colour fixture (kept as it is: no conversion is asked for).
    static let profile: [UInt8] = {
        let bytes = (try? FileIO.readFile(atPath: Fixtures.path("color/canon-adobergb-107x71.jpg"))) ?? []
        return (try? ImageCodec.decode(bytes).metadata.iccProfile ?? []) ?? []
    }()

    static func image() throws -> Image {
        let samples: [UInt8] = (0..<16).flatMap { y in (0..<24).flatMap { x in [UInt8(x * 10), UInt8(y * 15), 128] } }
        let pixels = try PixelBuffer(width: 24, height: 16, layout: .rgb, samples: samples)
        #expect(profile.count > 100)
        return Image(pixels: pixels, metadata: ImageMetadata(orientation: .up, iccProfile: profile, exif: sourceEXIF()))
    }

    @Test("the copyright notice is read from IFD0 and written back alone; an orientation can be added to that block")
    func copyrightBlock() throws {
        #expect(EXIF.readCopyright(tiff: Self.sourceEXIF()) == Array("© 2026 Ada".utf8))
        for notice in [Array("(c)".utf8), Array("© 2026 Ada, all rights reserved".utf8)] {
            let block = EXIF.copyrightBlock(notice)
            #expect(EXIF.readCopyright(tiff: block) == notice)
            #expect(EXIF.readOrientation(tiff: block).rawValue == nil)
            let turned = try #require(EXIF.settingOrientation(.rightTop, in: block))
            #expect(EXIF.readOrientation(tiff: turned).orientation == .rightTop)
            #expect(EXIF.readCopyright(tiff: turned) == notice)
        }
        #expect(EXIF.readCopyright(tiff: EXIF.minimalBlock(orientation: .rightTop)) == nil)
        #expect(EXIF.readCopyright(tiff: [0x49, 0x49, 0x2A, 0x00, 0xFF, 0, 0, 0]) == nil)
    }

    @Test(
        "icc-copyright keeps the profile and only the copyright notice, in every format written",
        arguments: ImageFormat.writable.filter(\.holdsMetadata))
    func iccAndCopyright(_ format: ImageFormat) throws {
        let bytes = try Self.image().encoded(options: SaveOptions(format: format, metadata: .iccAndCopyright))
        let decoded = try ImageCodec.decode(bytes)
        #expect(decoded.metadata.iccProfile == Self.profile)
        let exif = try #require(decoded.metadata.exif)
        #expect(EXIF.readCopyright(tiff: exif) == Array("© 2026 Ada".utf8))
        // Nothing else: no Make, and the orientation (the image is upright) is absent or 1.
        #expect(!exif.contains(Array("Canon".utf8)))
        #expect(decoded.metadata.orientation == .up)
    }

    @Test(
        "keep writes the whole block (orientation reset to 1); strip writes neither profile nor EXIF",
        arguments: ImageFormat.writable.filter(\.holdsMetadata))
    func keepAndStrip(_ format: ImageFormat) throws {
        let kept = try ImageCodec.decode(Self.image().encoded(options: SaveOptions(format: format)))
        #expect(kept.metadata.iccProfile == Self.profile)
        let exif = try #require(kept.metadata.exif)
        #expect(exif.count >= Self.sourceEXIF().count && EXIF.readCopyright(tiff: exif) == Array("© 2026 Ada".utf8))
        let stripped = try ImageCodec.decode(
            Self.image().encoded(options: SaveOptions(format: format, metadata: .strip)))
        #expect(stripped.metadata.iccProfile == nil && stripped.metadata.exif == nil)
        #expect(SaveOptions(metadata: .strip).stripMetadata && SaveOptions(stripMetadata: true).metadata == .strip)
    }

    @Test("a source without a copyright notice keeps no EXIF at all under icc-copyright")
    func noNotice() throws {
        var image = try Self.image()
        image.metadata.exif = EXIF.minimalBlock(orientation: .up)
        let decoded = try ImageCodec.decode(
            image.encoded(options: SaveOptions(format: .png, metadata: .iccAndCopyright)))
        #expect(decoded.metadata.exif == nil && decoded.metadata.iccProfile == Self.profile)
    }
}
