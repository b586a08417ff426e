import CropCodecs
import CropTestSupport
import Foundation
import Testing

@testable import CropKit

/// `ImagePipeline.transcode`: re-encoding as stored, rows streaming from decoder to encoder.
@Suite("Transcode")
struct TranscodeTests {
    @Test("JPEG → JPEG keeps the stored pixels and the metadata, orientation included; the output decodes close")
    func jpegToJPEG() throws {
        try withScratchFolder { dir throws in
            let input = Fixtures.path("landscape-6-mm.jpg")
            let written = try ImagePipeline().transcode(
                .file(input), to: .file(dir + "/out.jpg", options: SaveOptions(quality: 95)))
            #expect(written.format == .jpeg && written.size == PixelSize(validWidth: 43, height: 64))
            let source = try Image(source: .file(input), appliesOrientation: false)
            let output = try Image(source: .file(dir + "/out.jpg"), appliesOrientation: false)
            #expect(output.metadata.orientation == .rightTop)
            #expect(output.metadata.exif == source.metadata.exif)
            #expect(meanDifference(output.pixels, source.pixels) < 2)
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["out.jpg"])
        }
    }

    @Test(
        "a JPEG of a megapixel or more, re-encoded with threads, is encoded in stripes (a restart marker every stripe) with the pixels of one thread's encode, in memory and in a file"
    )
    func stripedEncode() throws {
        let picture = try makeBuffer(width: 1400, height: 900, format: .rgb8) { x, y, c in
            (x * (c + 1) / 7 + y / 3 + (x * y) % 13) % 256
        }
        let png = try ImageCodec.encode(picture, as: .png)
        let options = SaveOptions(format: .jpeg, quality: 90)
        let striped = try ImagePipeline().transcode(.data(png), to: .data(options)).bytes
        let single = try ImagePipeline(maxThreads: 1).transcode(.data(png), to: .data(options)).bytes
        func hasRestartInterval(_ bytes: [UInt8]) -> Bool {
            (0..<(bytes.count - 1)).contains { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDD }
        }
        #expect(hasRestartInterval(striped) && !hasRestartInterval(single))
        #expect(striped.count > single.count && striped.count - single.count < 200)
        let pixels = try Image(source: .data(single)).pixels
        #expect(try Image(source: .data(striped)).pixels == pixels)
        try withScratchFolder { dir throws in
            _ = try ImagePipeline().transcode(.data(png), to: .file(dir + "/striped.jpg", options: options))
            #expect(try FileIO.readFile(atPath: dir + "/striped.jpg") == striped)
        }
    }

    @Test("format from the extension or the option; PNG keeps 16 bits; strip drops all metadata")
    func formats() throws {
        var rgba16 = try PixelBuffer(width: 9, height: 7, format: .rgba16)
        for y in 0..<7 {
            for x in 0..<9 { for c in 0..<4 { rgba16[x: x, y: y, channel: c] = (x * 7001 + y * 313 + c * 97) % 65536 } }
        }
        let png16 = try ImageCodec.encode(rgba16, as: .png)
        try withScratchFolder { dir throws in
            _ = try ImagePipeline().transcode(.data(png16), to: .file(dir + "/a.png"))
            #expect(try Image(source: .file(dir + "/a.png")).pixels == rgba16)
            _ = try ImagePipeline().transcode(
                .data(png16), to: .file(dir + "/b.out", options: SaveOptions(format: .jpeg)))
            #expect(try ImageSource.file(dir + "/b.out").info().format == .jpeg)
            #expect(throws: CropKitError.self) {
                try ImagePipeline().transcode(.data(png16), to: .file(dir + "/c.out"))
            }
            let stripped = try ImagePipeline().transcode(
                Fixtures.landscape(8), to: .data(SaveOptions(format: .png, stripMetadata: true)))
            #expect(try Image(source: .data(stripped.bytes), appliesOrientation: false).metadata == .none)
        }
    }

    @Test(
        "with no quality, each lossy format gets its own default (JPEG and WebP 80, AVIF and HEIC 50): the same bytes as asking for it, and not those of 90; an asked quality wins",
        arguments: [(ImageFormat.jpeg, 80), (.webp, 80), (.avif, 50), (.heif, 50)])
    func defaultQuality(_ format: ImageFormat, _ expected: Int) throws {
        #expect(format.defaultQuality == expected)
        let source = ImageSource.file(Fixtures.path("landscape-6-mm.jpg"))
        func encoded(_ quality: Int?) throws -> [UInt8] {
            try ImagePipeline().run(source, [], to: .data(SaveOptions(format: format, quality: quality))).bytes
        }
        let byDefault = try encoded(nil)
        #expect(byDefault == (try encoded(expected)))
        #expect(byDefault != (try encoded(90)))
        #expect(SaveOptions(quality: 90).quality(for: format) == 90 && SaveOptions().quality(for: format) == expected)
        #expect(ImageFormat.png.defaultQuality == nil && ImageFormat.bmp.defaultQuality == nil)
    }

    @Test("JPEG scale: 1/8 decodes to the size rounded up; PNG is never scaled")
    func scaled() throws {
        let eighth = try ImagePipeline().transcode(Fixtures.landscape(1), scale: .eighth, to: .image)
        #expect(eighth.size == PixelSize(validWidth: 8, height: 6) && eighth.report.decodeScale == 8)
        let png = try ImageCodec.encode(try PixelBuffer(width: 20, height: 10, format: .rgb8), as: .png)
        let unscaled = try ImagePipeline().transcode(.data(png), scale: .eighth, to: .image)
        #expect(unscaled.size == PixelSize(validWidth: 20, height: 10) && unscaled.report.decodeScale == 1)
    }

    @Test("an existing output is refused before any work; overwrite replaces it")
    func existing() throws {
        try withScratchFolder { dir throws in
            let out = dir + "/out.jpg"
            try Data([1, 2, 3]).write(to: URL(fileURLWithPath: out))
            #expect(throws: CropKitError.codec(.fileExists(path: out))) {
                try ImagePipeline().transcode(Fixtures.landscape(1), to: .file(out))
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == Data([1, 2, 3]))
            _ = try ImagePipeline().transcode(
                Fixtures.landscape(1), to: .file(out, options: SaveOptions(overwrite: true)))
            #expect(try ImageSource.file(out).info().width == 64)
        }
    }

    @Test("a truncated input fails and leaves no output file")
    func truncatedInput() throws {
        let png = try ImageCodec.encode(try PixelBuffer(width: 120, height: 80, format: .rgb8), as: .png)
        try withScratchFolder { dir throws in
            #expect(throws: CropKitError.self) {
                try ImagePipeline().transcode(.data(Array(png.prefix(png.count / 2))), to: .file(dir + "/out.jpg"))
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
        }
    }

    @Test(
        "a JPEG transcoded to JPEG XL with nothing changed is recompressed losslessly and says so; asking a quality re-encodes it"
    )
    func jpegToJPEGXL() throws {
        let input = Fixtures.path("landscape-6-mm.jpg")
        try withScratchFolder { dir throws in
            let written = try ImagePipeline().transcode(.file(input), to: .file(dir + "/out.jxl"))
            #expect(written.format == .jxl && written.size == PixelSize(validWidth: 43, height: 64))
            let recompression = try #require(written.report.jpegRecompression)
            #expect(recompression.jpegBytes == (try FileIO.readFile(atPath: input)).count)
            #expect(recompression.jxlBytes == written.byteCount && written.byteCount > 0)
            let info = try ImageSource.file(dir + "/out.jxl").info()
            #expect(info.format == .jxl && info.colorModel.contains("JPEG reconstruction data"))
            #expect(info.orientation == .rightTop)  // the JPEG's EXIF orientation, in the codestream
            // A quality asked for: the pixels are re-encoded (lossy, XYB), no recompression.
            let lossy = try ImagePipeline().transcode(
                .file(input), to: .file(dir + "/q.jxl", options: SaveOptions(quality: 60)))
            #expect(lossy.report.jpegRecompression == nil)
            #expect(try !ImageSource.file(dir + "/q.jxl").info().colorModel.contains("JPEG reconstruction"))
            // In memory too; a stripped output is re-encoded (the JPEG's EXIF would otherwise stay).
            let encoded = try ImagePipeline().transcode(.file(input), to: .data(SaveOptions(format: .jxl)))
            #expect(encoded.format == .jxl && encoded.report.jpegRecompression?.jxlBytes == encoded.bytes.count)
            let stripped = try ImagePipeline().transcode(
                .file(input), to: .data(SaveOptions(format: .jxl, stripMetadata: true)))
            #expect(stripped.report.jpegRecompression == nil)
            #expect(try Image(source: .data(stripped.bytes)).metadata.exif == nil)
        }
    }
}
