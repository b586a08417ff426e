import Foundation
import Testing

@testable import CropCodecs

@Suite("Streaming conversion")
struct ConversionTests {
    @Test("JPEG → JPEG streams rows and keeps metadata; the output decodes close to the input")
    func jpegToJPEG() throws {
        let dir = try FileIOTests.scratchDirectory()
        let input = Fixtures.path("exif/landscape-6-ii.jpg")
        let result = try ImageConversion.convert(inputPath: input, outputPath: dir + "/out.jpg",
                                                 options: ConversionOptions(encode: EncodeOptions(jpeg: JPEGEncodeOptions(quality: 95))))
        #expect(result.outputFormat == .jpeg)
        let source = try JPEGDecoder.decode(Fixtures.bytes("exif/landscape-6-ii.jpg"))
        let output = try JPEGDecoder.decode(FileIO.readFile(atPath: dir + "/out.jpg"))
        #expect(output.metadata.orientation == .rightTop)
        #expect(output.metadata.exif == source.metadata.exif)
        #expect(Measure.psnr(output.pixels, source.pixels) > 35)
        #expect(try FileIOTests.contents(dir) == ["out.jpg"])
    }

    @Test("format from the extension or the option; PNG keeps 16 bits; --strip drops metadata")
    func formats() throws {
        let dir = try FileIOTests.scratchDirectory()
        let sixteen = Fixtures.path("pngsuite/png/basn6a16.png")
        _ = try ImageConversion.convert(inputPath: sixteen, outputPath: dir + "/a.png")
        #expect(try PNGDecoder.decode(FileIO.readFile(atPath: dir + "/a.png")).pixels
            == PNGDecoder.decode(Fixtures.bytes("pngsuite/png/basn6a16.png")).pixels)
        _ = try ImageConversion.convert(inputPath: sixteen, outputPath: dir + "/b.out", options: ConversionOptions(format: .jpeg))
        #expect(try ImageInfo.read(fileAtPath: dir + "/b.out").format == .jpeg)
        #expect(throws: CodecError.self) { try ImageConversion.convert(inputPath: sixteen, outputPath: dir + "/c.out") }
        _ = try ImageConversion.convert(
            inputPath: Fixtures.path("exif/landscape-8-mm.jpg"), outputPath: dir + "/d.png",
            options: ConversionOptions(stripMetadata: true))
        let stripped = try PNGDecoder.decode(FileIO.readFile(atPath: dir + "/d.png"))
        #expect(stripped.metadata == .none)
    }

    @Test("an existing output is refused before any work; --force replaces it")
    func existing() throws {
        let dir = try FileIOTests.scratchDirectory()
        let out = dir + "/out.jpg"
        try FileIO.writeAtomically([1, 2, 3], toPath: out)
        #expect(throws: CodecError.fileExists(path: out)) {
            try ImageConversion.convert(inputPath: Fixtures.path("cmyk-adobe.jpg"), outputPath: out)
        }
        #expect(try FileIO.readFile(atPath: out) == [1, 2, 3])
        _ = try ImageConversion.convert(inputPath: Fixtures.path("cmyk-adobe.jpg"), outputPath: out,
                                        options: ConversionOptions(overwrite: true))
        #expect(try ImageInfo.read(fileAtPath: out).width == 64)
    }

    @Test("whole images are written to and read from files, format from the extension")
    func files() throws {
        let dir = try FileIOTests.scratchDirectory()
        let image = try TestImages.random(width: 9, height: 7, format: .rgba16, seed: 3)
        try ImageCodec.write(image, toPath: dir + "/a.png", metadata: ImageMetadata(orientation: .leftTop))
        let back = try ImageCodec.decode(fileAtPath: dir + "/a.png")
        #expect(back.pixels == image)
        #expect(back.metadata.orientation == .leftTop)
        #expect(throws: CodecError.fileExists(path: dir + "/a.png")) { try ImageCodec.write(image, toPath: dir + "/a.png") }
        #expect(throws: CodecError.self) { try ImageCodec.write(image, toPath: dir + "/a.tiff") }
        try ImageCodec.write(image, toPath: dir + "/a.tiff", format: .jpeg)
        #expect(try ImageCodec.decode(fileAtPath: dir + "/a.tiff").pixels.format == .rgb8)
    }

    @Test("a truncated input fails and leaves no output file")
    func truncatedInput() throws {
        let dir = try FileIOTests.scratchDirectory()
        let bytes = try Fixtures.bytes("photo-128.png")
        try FileIO.writeAtomically(Array(bytes.prefix(bytes.count / 2)), toPath: dir + "/cut.png")
        #expect(throws: CodecError.self) {
            try ImageConversion.convert(inputPath: dir + "/cut.png", outputPath: dir + "/out.jpg")
        }
        #expect(try FileIOTests.contents(dir) == ["cut.png"])
    }
}
