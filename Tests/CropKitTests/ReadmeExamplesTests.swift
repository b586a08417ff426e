import Foundation
import Testing

import CropKit
import CropTestSupport

/// Keeps the README honest: every ```swift block in README.md must appear, line for line, in this file, where it is
/// compiled and run on a real photo.
@Suite("README examples")
struct ReadmeExamplesTests {
    static let thisFile = URL(fileURLWithPath: #filePath)
    static let readme = thisFile.deletingLastPathComponent().appendingPathComponent("../../README.md").standardized

    /// The five common calls, on `folder/photo.jpg`.
    func fiveCommonCalls(in folder: String) throws {
        let pipeline = ImagePipeline()
        let photo = ImageSource.file(folder + "/photo.jpg")

        // 1. A 256 px square thumbnail with rounded corners, written atomically.
        try pipeline.run(photo, [.thumbnail(256, cornerRadius: 32)], to: .file(folder + "/thumb.png"))

        // 2. A rectangle of the picture as it is shown (after its EXIF orientation), at full resolution.
        try pipeline.run(photo, [.crop(Rect(x: 8, y: 6, width: 40, height: 30))], to: .file(folder + "/crop.jpg"))

        // 3. Straightened by 7.5°: the largest 3:2 crop with no fill pixels, exactly 3:2, in the photo's own pixels.
        let straight = try pipeline.run(photo, [.aspect(.ratio(3, 2)), .straighten(7.5)],
                                        to: .file(folder + "/straight.jpg", options: SaveOptions(quality: 90)))
        print(straight.size)

        // 4. Resized to fit in 1024×1024 (never enlarged), as JPEG bytes in memory.
        let small = try pipeline.run(photo, [.fit(1024, 1024)], to: .data())
        print(small.bytes.count)

        // 5. The straightened crop as a recipe: replay it on any copy of the photo, at any resolution.
        let recipe = straight.report.cropState.recipe
        try pipeline.run(.data(small.bytes), [.recipe(recipe)], to: .file(folder + "/straight-small.png"))
    }

    @Test("the API sample runs and does what its comments say")
    func runsApiSample() throws {
        try withScratchFolder { dir throws in
            // A small real photo stored sideways (64×43 shown, EXIF orientation 6, applied by the pipeline).
            try FileManager.default.copyItem(atPath: Fixtures.path("landscape-6-mm.jpg"), toPath: dir + "/photo.jpg")
            try fiveCommonCalls(in: dir)
            func size(_ name: String) throws -> PixelSize { try ImageSource.file(dir + "/" + name).info().storedSize }
            #expect(try size("thumb.png") == PixelSize(validWidth: 256, height: 256))
            #expect(try size("crop.jpg") == PixelSize(validWidth: 40, height: 30))
            let straight = try size("straight.jpg")
            #expect(straight.width * 2 == straight.height * 3)
            // The recipe replayed on the same picture (the in-memory resize kept its 64×43 size) gives the same size.
            #expect(try size("straight-small.png") == straight)
            // The crop is the displayed picture's region: compare with the upright picture cut by hand.
            let upright = try Image(contentsOfFile: dir + "/photo.jpg").pixels
            let crop = try Image(contentsOfFile: dir + "/crop.jpg").pixels
            let expected = try upright.cropped(x: 8, y: 6, width: 40, height: 30)
            // JPEG at its default quality (80, 4:2:0) on a 40×30 crop: about 5 levels; a crop shifted by one pixel
            // differs by more than 10.
            #expect(meanDifference(crop, expected) < 7)
        }
    }

    /// The README's install snippet (`.ci/downstream-test` builds a package from it by path, in CI).
    static let packageSnippet = """
        // Package.swift
        dependencies: [.package(url: "https://github.com/cropkit/cropkit.git", from: "0.9.0")],
        targets: [.executableTarget(name: "MyApp", dependencies: [.product(name: "CropKit", package: "cropkit")])]
        """

    @Test("the install snippet names this release")
    func installSnippetVersion() {
        #expect(Self.packageSnippet.contains("from: \"\(CropKitRelease.version)\")"))
    }

    @Test("every Swift block of the README is in this file")
    func readmeBlocksAreCompiled() throws {
        let readme = try String(contentsOf: Self.readme, encoding: .utf8)
        let source = try String(contentsOf: Self.thisFile, encoding: .utf8)
        let sourceLines = source.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        let blocks = readme.components(separatedBy: "```swift\n").dropFirst()
            .compactMap { $0.components(separatedBy: "```").first }
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
