import Foundation
import Testing

@testable import CropCodecs

@Suite("Whole-image files")
struct ImageFileTests {
    @Test("whole images are written to and read from files, format from the extension")
    func files() throws {
        let dir = try FileIOTests.scratchDirectory()
        let image = try TestImages.random(width: 9, height: 7, format: .rgba16, seed: 3)
        try ImageCodec.write(image, toPath: dir + "/a.png", metadata: ImageMetadata(orientation: .leftTop))
        let back = try ImageCodec.decode(fileAtPath: dir + "/a.png")
        #expect(back.pixels == image)
        #expect(back.metadata.orientation == .leftTop)
        #expect(throws: CodecError.fileExists(path: dir + "/a.png")) {
            try ImageCodec.write(image, toPath: dir + "/a.png")
        }
        #expect(throws: CodecError.self) { try ImageCodec.write(image, toPath: dir + "/a.tiff") }
        try ImageCodec.write(image, toPath: dir + "/a.tiff", format: .jpeg)
        #expect(try ImageCodec.decode(fileAtPath: dir + "/a.tiff").pixels.format == .rgb8)
    }
}
