import Foundation
import Testing

import CropKit

/// Keeps the README honest: every ```swift block in README.md must appear, line for line, in this file, where it is
/// compiled and run on a real photo.
@Suite("README examples", .serialized)
struct ReadmeExamplesTests {
    static let thisFile = URL(fileURLWithPath: #filePath)
    static let readme = thisFile.deletingLastPathComponent().appendingPathComponent("../../README.md").standardized

    /// The README's API sample, verbatim (run in a scratch folder holding `photo.jpg`).
    func apiSample() throws -> (PipelineResult, Data) {
        let pipeline = ImagePipeline()

        // A 256 px square thumbnail with rounded corners: shrink-on-load, one resampling pass, written atomically.
        try pipeline.thumbnail(.file("photo.jpg"), ThumbnailRequest(side: 256, cornerRadius: 32),
                               to: .file("thumb.png"), options: SaveOptions(overwrite: true))

        // Straighten by 7.5° and keep the largest 3:2 crop with no fill pixels, at full source resolution.
        let info = try ImageSource.file("photo.jpg").info()
        let crop = try CropState(sourceSize: info.storedSize, orientation: info.orientation, crop: nil,
                                 straighten: 7.5, aspect: .ratio(AspectRatio(3, 2)))
        let result = try pipeline.render(.file("photo.jpg"), .state(crop), to: .file("straight.jpg"),
                                         options: SaveOptions(quality: 90, overwrite: true))
        print(result.size)   // exactly 3:2, in the photo's own pixels

        // The same crop as a resolution-independent recipe, for a preview in the browser and the original on the server.
        let recipe = try JSONEncoder().encode(crop.recipe)
        return (result, recipe)
    }

    @Test("the API sample runs and does what its comments say")
    func runsApiSample() throws {
        try withScratchFolder { dir throws in
            // A small real photo stored sideways (EXIF orientation 6, applied by the pipeline).
            try FileManager.default.copyItem(
                atPath: Fixtures.path("landscape-6-mm.jpg"), toPath: dir + "/photo.jpg")
            let previous = FileManager.default.currentDirectoryPath
            FileManager.default.changeCurrentDirectoryPath(dir)
            defer { FileManager.default.changeCurrentDirectoryPath(previous) }

            let (result, recipe) = try apiSample()
            #expect(try ImageInfo.read(fileAtPath: dir + "/thumb.png").storedSize == PixelSize(validWidth: 256, height: 256))
            #expect(result.size.width * 2 == result.size.height * 3)
            #expect(try ImageInfo.read(fileAtPath: dir + "/straight.jpg").storedSize == result.size)
            #expect(try JSONDecoder().decode(Recipe.self, from: recipe).angle == 7.5)
        }
    }

    @Test("every Swift block of the README is in this file")
    func readmeBlocksAreCompiled() throws {
        let readme = try String(contentsOf: Self.readme, encoding: .utf8)
        let source = try String(contentsOf: Self.thisFile, encoding: .utf8)
        let sourceLines = source.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        let blocks = readme.components(separatedBy: "```swift\n").dropFirst()
            .map { $0.components(separatedBy: "```").first! }
        #expect(!blocks.isEmpty)
        for block in blocks {
            let lines = block.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && $0 != "import CropKit" }
            let found = sourceLines.indices.contains { start in
                var i = start
                for line in lines {
                    while i < sourceLines.count && sourceLines[i].isEmpty { i += 1 }
                    guard i < sourceLines.count, sourceLines[i] == line else { return false }
                    i += 1
                }
                return true
            }
            #expect(found, "README block not compiled by this test:\n\(block)")
        }
    }
}
