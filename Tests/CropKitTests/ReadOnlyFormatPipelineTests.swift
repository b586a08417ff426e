import CropCodecs
import CropTestSupport
import Foundation
import Testing

@testable import CropKit

/// GIF and TIFF, which CropKit reads but does not write, through the pipeline. The fixtures are copies of
/// CropCodecsTests' `gif/transparent-offset.gif` (a 21×13 frame at (6, 5) on a 40×30 screen, colour 3 transparent)
/// and `tiff/gray16-be-orientation6.tif` (6×4 big-endian 16-bit gray, Orientation 6).
@Suite("Pipelines from GIF and TIFF")
struct ReadOnlyFormatPipelineTests {
    static let gif = ImageSource.file(Fixtures.path("transparent-offset.gif"))
    static let tiff = ImageSource.file(Fixtures.path("gray16-be-orientation6.tif"))

    @Test(
        "the TIFF Orientation tag is applied once: upright 4×6, each pixel from where orientation 6 puts it, 16-bit kept"
    )
    func tiffOrientation() throws {
        let image = try ImagePipeline().run(Self.tiff, [])
        #expect(image.size == PixelSize(validWidth: 4, height: 6) && image.pixels.format == .gray16)
        #expect(image.image.metadata.orientation == .up)
        // Orientation 6 (turn 90° clockwise): displayed (x, y) comes from stored (y, height − 1 − x).
        for y in 0..<6 {
            for x in 0..<4 {
                let storedX = y, storedY = 3 - x
                #expect(image.pixels.pixel(x: x, y: y) == [(storedX * 9000 + storedY * 3000 + 17) % 65536])
            }
        }
    }

    @Test(
        "a GIF crops with its transparency and is written as PNG or GIF as the name says; TIFF output is refused early")
    func gifToPNG() throws {
        try withScratchFolder { folder in
            let output = folder + "/out.png"
            let written = try ImagePipeline().run(
                Self.gif, [.crop(Rect(x: 4, y: 4, width: 20, height: 10))], to: .file(output))
            #expect(written.report.size == PixelSize(validWidth: 20, height: 10))
            let decoded = try ImageCodec.decode(FileIO.readFile(atPath: output))
            #expect(decoded.pixels.format == .rgba8)
            // (4, 4) on the canvas is outside the frame: transparent. (12, 8) is the frame's (6, 3), palette index
            // (6 / 3 + 3 / 2 + 2 × (6 ^ 3)) mod 8 = 5, the yellow (250, 200, 20).
            #expect(decoded.pixels.pixel(x: 0, y: 0)[3] == 0)
            #expect(decoded.pixels.pixel(x: 8, y: 4) == [250, 200, 20, 255])
            // As GIF: the same pixels (8 colours need no quantising), the transparency kept.
            try ImagePipeline().run(
                Self.gif, [.crop(Rect(x: 4, y: 4, width: 20, height: 10))], to: .file(folder + "/out.gif"))
            let gif = try ImageCodec.decode(FileIO.readFile(atPath: folder + "/out.gif"))
            #expect(gif.pixels.width == 20 && gif.pixels.height == 10 && gif.pixels.format == .rgba8)
            #expect(gif.pixels.pixel(x: 0, y: 0)[3] == 0)
            #expect(gif.pixels.pixel(x: 8, y: 4) == [250, 200, 20, 255])
            #expect(throws: CropKitError.self) {
                try ImagePipeline().run(Self.gif, [], to: .data(SaveOptions(format: .tiff)))
            }
            // The same rule for a loaded image, in memory and to a file, with the same words.
            let image = try Image(contentsOfFile: Fixtures.path("transparent-offset.gif"))
            let refusal = CropKitError.invalidOption(
                .format,
                reason: "CropKit reads TIFF but does not write it; write JPEG, PNG, WebP, HEIF, AVIF, GIF or JPEG XL")
            #expect(throws: refusal) { try image.encoded(options: SaveOptions(format: .tiff)) }
            #expect(throws: refusal) { try image.write(toFile: folder + "/again.tif") }
            #expect(!FileManager.default.fileExists(atPath: folder + "/again.tif"))
        }
    }
}
