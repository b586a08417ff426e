import CropCodecs
import CropTestSupport
import Foundation
import Testing

@testable import CropKit

/// Colour management through Little CMS, checked against libvips' `icc_transform` (lcms2 underneath) on the same files.
/// Stated bound: mean absolute difference ≤ 0.05/255 and at most 1/255 on any sample (ΔE00 well below 1).
@Suite("Colour: CMYK, Display P3 and Adobe RGB to sRGB")
struct ColorManagementTests {
    static func source(_ name: String) -> ImageSource { .file(Fixtures.path("color/\(name)-107x71.jpg")) }

    static func reference(_ name: String) throws -> PixelBuffer {
        try ImageCodec.decode(FileIO.readFile(atPath: Fixtures.path("color/\(name)-107x71-vips-srgb.png"))).pixels
    }

    static func profileDescription(_ profile: [UInt8]?) -> Bool {
        guard let profile else { return false }
        return ColorTransform.isSRGB(profile) == true
    }

    @Test("a CMYK JPEG is converted through its embedded profile as it decodes, with the sRGB profile in its place")
    func cmyk() throws {
        let image = try ImagePipeline().run(Self.source("canon-cmyk"), [])
        let reference = try Self.reference("canon-cmyk")
        #expect(image.pixels.format == .rgb8 && image.size == PixelSize(validWidth: 107, height: 71))
        #expect(meanDifference(image.pixels, reference) <= 0.05, "mean \(meanDifference(image.pixels, reference))")
        #expect(maxDifference(image.pixels, reference) <= 1)
        #expect(Self.profileDescription(image.image.metadata.iccProfile))
        // The codec converts as it decodes; the pipeline adds nothing.
        let decoded = try ImageCodec.decode(FileIO.readFile(atPath: Fixtures.path("color/canon-cmyk-107x71.jpg")))
        #expect(decoded.pixels == image.pixels)
    }

    @Test("a CMYK TIFF (libvips's copy of the same JPEG, 0 = no ink) converts through its profile to vips' pixels")
    func cmykTIFF() throws {
        let image = try ImagePipeline().run(.file(Fixtures.path("color/canon-cmyk-107x71.tif")), [])
        let reference = try Self.reference("canon-cmyk")
        let info = try ImageCodec.readInfo(FileIO.readFile(atPath: Fixtures.path("color/canon-cmyk-107x71.tif")))
        #expect(info.format == .tiff && info.colorModel == "CMYK, uncompressed, strips" && info.layout == .rgb)
        #expect(image.pixels.format == .rgb8 && image.size == PixelSize(validWidth: 107, height: 71))
        #expect(meanDifference(image.pixels, reference) <= 0.05, "mean \(meanDifference(image.pixels, reference))")
        #expect(maxDifference(image.pixels, reference) <= 1)
        #expect(Self.profileDescription(image.image.metadata.iccProfile))
    }

    @Test(
        "a CMYK JPEG without a profile converts through the default CMYK profile (Ghostscript's SWOP), as vips does",
        .enabled(if: DefaultCMYKProfile.system != nil, "needs libgs-common's default_cmyk.icc (.ci/install-deps build)")
    )
    func cmykDefaultProfile() throws {
        let source = ImageSource.file(Fixtures.path("color/canon-cmyk-107x71-noprofile.jpg"))
        let image = try ImagePipeline().run(source, [])
        let reference = try ImageCodec.decode(
            FileIO.readFile(atPath: Fixtures.path("color/canon-cmyk-107x71-noprofile-vips-srgb.png"))
        ).pixels
        #expect(meanDifference(image.pixels, reference) <= 0.05, "mean \(meanDifference(image.pixels, reference))")
        #expect(maxDifference(image.pixels, reference) <= 1)
        #expect(Self.profileDescription(image.image.metadata.iccProfile))
        #expect(image.report.warnings.contains { "\($0)".contains("default CMYK profile") })
        #expect(DefaultCMYKProfile.isCMYKProfile(DefaultCMYKProfile.system?.bytes ?? []))
        #expect(!DefaultCMYKProfile.isCMYKProfile(ColorTransform.sRGBProfile ?? []))
    }

    @Test(
        "an AVIF with nclx Display P3 gets an ICC profile built from it: kept by default, converted like Apple's P3 profile"
    )
    func nclx() throws {
        let path = Fixtures.path("color/canon-saturated-p3-nclx-107x71.avif")
        let info = try ImageSource.file(path).info()
        #expect(info.colorModel.contains("nclx colour (Display P3 primaries, sRGB curve), described by an ICC profile"))
        let kept = try ImagePipeline().run(.file(path), [])
        let profile = try #require(kept.image.metadata.iccProfile)
        #expect(String(decoding: profile.filter { $0 != 0 }, as: UTF8.self).contains("Display P3"))
        let converted = try ImagePipeline().run(
            .file(path), [], to: .data(SaveOptions(format: .png, colorProfile: .sRGB)))
        let decoded = try ImageCodec.decode(converted.bytes)
        let reference = try ImageCodec.decode(
            FileIO.readFile(atPath: Fixtures.path("color/canon-saturated-p3-nclx-107x71-vips-srgb.png"))
        ).pixels
        #expect(Self.profileDescription(decoded.metadata.iccProfile))
        #expect(meanDifference(decoded.pixels, reference) <= 0.05, "mean \(meanDifference(decoded.pixels, reference))")
        #expect(maxDifference(decoded.pixels, reference) <= 1, "max \(maxDifference(decoded.pixels, reference))")
        // Unconverted, the same pixels are visibly off: the conversion did something.
        #expect(meanDifference(kept.pixels, reference) > 2)
    }

    @Test(
        "--icc srgb converts Display P3 and Adobe RGB and embeds sRGB; the default keeps pixels and profile",
        arguments: ["canon-saturated-p3", "canon-adobergb"])
    func rgbProfiles(_ name: String) throws {
        let reference = try Self.reference(name)
        let kept = try ImagePipeline().run(Self.source(name), [])
        #expect(meanDifference(kept.pixels, reference) > 2, "unconverted pixels differ: the fixture is wide-gamut")
        #expect(kept.image.metadata.iccProfile.map { ColorTransform.isSRGB($0) } == false)
        let converted = try ImagePipeline().run(
            Self.source(name), [], to: .data(SaveOptions(format: .png, colorProfile: .sRGB)))
        let decoded = try ImageCodec.decode(converted.bytes)
        #expect(meanDifference(decoded.pixels, reference) <= 0.05, "mean \(meanDifference(decoded.pixels, reference))")
        #expect(maxDifference(decoded.pixels, reference) <= 1)
        #expect(Self.profileDescription(decoded.metadata.iccProfile))
    }

    @Test("--strip converts to sRGB before dropping the profile, so the colours look the same without it")
    func stripConverts() throws {
        let reference = try Self.reference("canon-saturated-p3")
        let stripped = try ImagePipeline().run(
            Self.source("canon-saturated-p3"), [], to: .data(SaveOptions(format: .png, stripMetadata: true)))
        let decoded = try ImageCodec.decode(stripped.bytes)
        #expect(decoded.metadata.iccProfile == nil && decoded.metadata.exif == nil)
        #expect(maxDifference(decoded.pixels, reference) <= 1)
    }

    @Test("16-bit pixels convert in 16 bits: a widened P3 PNG lands within 32/65535 of vips' 16-bit conversion")
    func sixteenBit() throws {
        let p3 = try ImagePipeline().run(Self.source("canon-saturated-p3"), [])
        var wide = try PixelBuffer(width: 107, height: 71, format: .rgb16)
        for y in 0..<71 {
            for x in 0..<107 {
                for c in 0..<3 { wide[x: x, y: y, channel: c] = p3.pixels[x: x, y: y, channel: c] * 257 }
            }
        }
        let png = try ImageCodec.encode(
            wide, as: .png, metadata: ImageMetadata(iccProfile: p3.image.metadata.iccProfile))
        let converted = try ImagePipeline().run(
            .data(png), [], to: .data(SaveOptions(format: .png, colorProfile: .sRGB)))
        let decoded = try ImageCodec.decode(converted.bytes).pixels
        let reference = try ImageCodec.decode(
            FileIO.readFile(atPath: Fixtures.path("color/canon-saturated-p3-107x71-16bit-vips-srgb.png"))
        ).pixels
        #expect(decoded.format == .rgb16 && reference.format == .rgb16)
        #expect(maxDifference(decoded, reference) <= 32, "max \(maxDifference(decoded, reference)) of 65535")
        #expect(meanDifference(decoded, reference) <= 4, "mean \(meanDifference(decoded, reference)) of 65535")
        #expect(decoded.samples.contains { $0 % 257 != 0 })  // not an 8-bit conversion widened
    }

    @Test("an sRGB-tagged or untagged source is left alone by --icc srgb")
    func srgbUntouched() throws {
        let jpeg = try syntheticJPEG(width: 40, height: 30)
        let plain = try ImagePipeline().run(.data(jpeg), [])
        let converted = try ImagePipeline().run(
            .data(jpeg), [], to: .data(SaveOptions(format: .png, colorProfile: .sRGB)))
        #expect(try ImageCodec.decode(converted.bytes).pixels == plain.pixels)
        #expect(converted.report.warnings.isEmpty)
    }
}
