// swift-format-ignore-file
// (its examples are the README's Swift blocks, line for line, as the README shows them to a reader)
import Foundation
import Testing

import CropInteraction
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

    /// The two classic crop screens over `folder/photo.jpg`, each rendered at full resolution.
    func nativeCropScreens(in folder: String) throws {
        let pipeline = ImagePipeline()
        let photo = ImageSource.file(folder + "/photo.jpg")
        let shown = try photo.info().displayedSize  // after the EXIF orientation

        // The picture zoomed and panned under a fixed 300×200 frame in a 400×300 view.
        var viewport = try ZoomViewport(imageSize: shown, viewportSize: Size(width: 400, height: 300),
                                        cropFrame: Rect(x: 50, y: 50, width: 300, height: 200))
        try viewport.handle(.zoom(factor: 2, anchor: Point(x: 200, y: 150)))  // a double tap
        try viewport.handle(.began(anchor: Point(x: 200, y: 150)))            // a one-finger drag to the right
        try viewport.handle(.changed(translation: Point(x: 40, y: 0), scale: 1))
        try viewport.handle(.ended)
        try pipeline.run(photo, [.crop(viewport.cropRect)], to: .file(folder + "/framed.png"))

        // A rectangle drawn with a finger over the picture, fitted into the same view.
        var selection = try RectangleSelection(imageSize: shown, viewBounds: Rect(x: 0, y: 0, width: 400, height: 300))
        try selection.handle(.began(Point(x: 120, y: 80)))
        try selection.handle(.moved(Point(x: 260, y: 200)))
        try selection.handle(.ended(Point(x: 260, y: 200)))
        if let drawn = selection.selection {
            try pipeline.run(photo, [.crop(drawn)], to: .file(folder + "/drawn.png"))
        }
    }

    @Test("the crop-screen sample renders what each screen showed: the framed and the drawn region of the upright photo, at full resolution")
    func runsCropScreenSample() throws {
        try withScratchFolder { dir throws in
            // A photo stored 384×254 with EXIF orientation 8: 254×384 shown.
            try FileManager.default.copyItem(
                atPath: Fixtures.path("smartcrop/leica-t-4928x3264-orient8.jpg"), toPath: dir + "/photo.jpg")
            try nativeCropScreens(in: dir)
            let upright = try Image(contentsOfFile: dir + "/photo.jpg").pixels
            let (w, h) = (Double(upright.width), Double(upright.height))
            #expect(upright.width == 254 && upright.height == 384)
            // The 300×200 frame covers the picture at max(300/w, 200/h) points a pixel; the double tap about the
            // frame's centre doubles that, so the frame shows 300/s × 200/s pixels about the picture's centre, and
            // the 40-point drag to the right shows those 40/s pixels further left.
            let s = 2 * Swift.max(300 / w, 200 / h)
            let framedRect = Rect(x: w / 2 - 150 / s - 40 / s, y: h / 2 - 100 / s, width: 300 / s, height: 200 / s)
            // The 400×300 view fits the picture at f = min(400/w, 300/h) points a pixel, centred: the drag from
            // (120, 80) to (260, 200) covers those points of the picture.
            let f = Swift.min(400 / w, 300 / h), left = (400 - w * f) / 2, top = (300 - h * f) / 2
            let drawnRect = Rect(x: (120 - left) / f, y: (80 - top) / f, width: 140 / f, height: 120 / f)
            for (name, rect) in [("framed.png", framedRect), ("drawn.png", drawnRect)] {
                let out = try Image(contentsOfFile: dir + "/" + name).pixels
                // Full resolution: one output pixel per picture pixel, the fractional rectangle's size rounded.
                #expect(abs(Double(out.width) - rect.width) <= 1 && abs(Double(out.height) - rect.height) <= 1,
                        "\(name): \(out.width)×\(out.height) for \(rect)")
                // A crop keeps whole pixels: the output is exactly the upright photo's pixels from a corner within a
                // pixel of the rectangle's (the engine snaps a fractional crop to the pixel grid), and from nowhere
                // else near it.
                let (x, y) = (Int(rect.minX.rounded()), Int(rect.minY.rounded()))
                var exact: [(dx: Int, dy: Int)] = []
                for dy in -2...2 {
                    for dx in -2...2 {
                        let region = try upright.cropped(x: x + dx, y: y + dy, width: out.width, height: out.height)
                        if meanDifference(out, region) == 0 { exact.append((dx, dy)) }
                    }
                }
                #expect(exact.count == 1 && exact.allSatisfy { abs($0.dx) <= 1 && abs($0.dy) <= 1 },
                        "\(name) \(rect): exact at offsets \(exact)")
            }
        }
    }

    /// The README's install snippet (`.ci/downstream-test` builds a package from it by path, in CI).
    static let packageSnippet = """
        // Package.swift
        platforms: [.macOS(.v14), .iOS(.v17)],
        dependencies: [.package(url: "https://github.com/cropkit/cropkit.git", from: "0.9.0")],
        targets: [.executableTarget(name: "MyApp", dependencies: [.product(name: "CropKit", package: "cropkit"),
                                                                .product(name: "CropGeometry", package: "cropkit")])]
        """

    @Test("the install snippet names the published release; between releases the version says -dev")
    func installSnippetVersion() throws {
        #expect(Self.packageSnippet.contains("from: \"\(CropKitRelease.published)\")"))
        let changelog = try String(
            contentsOf: Self.readme.deletingLastPathComponent().appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let release = try Regex(#"\n## \[(\d+\.\d+\.\d+)\] - "#)
        let newest = changelog.firstMatch(of: release).flatMap { $0.output[1].substring.map(String.init) }
        #expect(newest == CropKitRelease.published, "CHANGELOG.md's newest release: \(newest ?? "none")")
        let unreleased = changelog.components(separatedBy: "## [Unreleased]").dropFirst().first?
            .components(separatedBy: "\n## [").first ?? ""
        if unreleased.contains("\n- ") {
            #expect(CropKitRelease.version.hasSuffix("-dev") && CropKitRelease.version != CropKitRelease.published + "-dev")
        } else {
            #expect(CropKitRelease.version == CropKitRelease.published)
        }
        let readme = try String(contentsOf: Self.readme, encoding: .utf8)
        #expect(readme.contains("`\(CropKitRelease.version)`"), "the README does not name the version main builds")
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
                .filter { !$0.isEmpty && !$0.hasPrefix("import ") }
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
