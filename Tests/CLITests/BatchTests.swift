import CropKit
import Foundation
import Testing

/// `cropkit thumbnail` and `cropkit apply` over many files: parallel jobs, progress output, failures, recipes.
@Suite struct BatchTests {
    /// Writes `names` as small position-coded PNGs in `dir`.
    private func pictures(_ names: [String], in dir: String, width: Int = 96, height: Int = 64) throws {
        for name in names {
            try CLI.writePicture(dir + "/" + name, width: width, height: height, color: positionColor)
        }
    }

    @Test("A corrupt file in a batch is reported by name, the others complete, and the exit status is 1")
    func corruptFileInBatch() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Given two good pictures, a truncated JPEG, a text file and a missing name
        try pictures(["a.png", "c.png"], in: dir)
        try CLI.writePicture(dir + "/big.jpg", width: 400, height: 300, color: positionColor)
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: dir + "/big.jpg"))
        try jpeg.prefix(jpeg.count / 3).write(to: URL(fileURLWithPath: dir + "/broken.jpg"))
        try Data("hello\n".utf8).write(to: URL(fileURLWithPath: dir + "/notes.png"))

        // When thumbnailing them all, two at a time, with output piped
        let run = try CLI.run(
            [
                "thumbnail", "a.png", "broken.jpg", "notes.png", "c.png", "missing.png", "--out-dir", "thumbs",
                "--size", "32", "--jobs", "2",
            ], in: dir)

        // Then the good ones are written at their exact size and each bad one has one error line naming it
        #expect(run.status == 1, "\(run)")
        for name in ["a", "c"] {
            let out = try CLI.load(dir + "/thumbs/\(name).png")
            #expect(out.width == 32 && out.height == 32)
        }
        let errors = run.stderr.split(separator: "\n")
        #expect(errors.count == 3, "\(run)")
        for bad in ["broken.jpg", "notes.png", "missing.png"] {
            #expect(errors.contains { $0.hasPrefix("cropkit thumbnail: \(bad): ") }, "no error line for \(bad)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir + "/thumbs/broken.jpg"))
        #expect(run.stdout.contains("5 files: 2 written, 3 failed"), "\(run)")
    }

    @Test("Piped progress is one line per file, then a summary")
    func progressLinesWhenPiped() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let names = (1...5).map { "p\($0).png" }
        try pictures(names, in: dir)

        let run = try CLI.run(["thumbnail"] + names + ["--out-dir", "t", "--size", "24", "--jobs", "3"], in: dir)

        #expect(run.status == 0, "\(run)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 6, "\(run)")
        #expect(!run.stdout.contains("\r"), "no bar when piped")
        for (i, line) in lines.prefix(5).enumerated() {
            #expect(line.hasPrefix("[\(i + 1)/5] "), "\(line)")
            #expect(line.contains(" 24×24 "), "\(line)")
        }
        for name in names {
            let stem = name.dropLast(4)
            #expect(lines.contains { $0.contains("\(name) → t/\(stem).png") }, "no line for \(name)")
        }
        #expect(lines.last!.hasPrefix("5 files: 5 written in "), "\(lines.last!)")

        // --quiet prints nothing; --progress bar draws the bar even into a pipe.
        let quiet = try CLI.run(["thumbnail"] + names + ["--out-dir", "q", "--size", "24", "--quiet"], in: dir)
        #expect(quiet.status == 0 && quiet.stdout.isEmpty && quiet.stderr.isEmpty, "\(quiet)")
        let bar = try CLI.run(["thumbnail"] + names + ["--out-dir", "b", "--size", "24", "--progress", "bar"], in: dir)
        #expect(bar.status == 0, "\(bar)")
        #expect(bar.stdout.contains("\r[") && bar.stdout.contains("] 5/5 files") && bar.stdout.contains("files/s"))
    }

    @Test("Two inputs with the same name in --out-dir: the second is refused, not overwritten")
    func duplicateOutputNames() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/x", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/y", withIntermediateDirectories: true)
        try pictures(["x/same.png", "y/same.png"], in: dir)
        let run = try CLI.run(["thumbnail", "x/same.png", "y/same.png", "--out-dir", "t", "--size", "16"], in: dir)
        #expect(run.status == 1, "\(run)")
        #expect(run.stderr.contains("y/same.png: its output t/same.png is also the output of x/same.png"), "\(run)")
        #expect(FileManager.default.fileExists(atPath: dir + "/t/same.png"))
    }

    @Test("A recipe applied to two sizes of the same photo selects the same relative crop")
    func recipeOnTwoSizes() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // Given the same smooth picture at 480×320 and 240×160 (red and green encode the relative position)
        for (name, w, h) in [("big.png", 480, 320), ("small.png", 240, 160)] {
            try CLI.writePicture(dir + "/" + name, width: w, height: h) { x, y in
                [UInt8(255 * (Double(x) + 0.5) / Double(w)), UInt8(255 * (Double(y) + 0.5) / Double(h)), 100]
            }
        }

        // When a straightened crop of the big one is saved as a recipe and applied to both
        let crop = try CLI.run(
            [
                "crop", "big.png", "-o", "crop.png", "--rect", "96,64,240,160", "--straighten", "6",
                "--save-recipe", "crop.json",
            ], in: dir)
        #expect(crop.status == 0, "\(crop)")
        let apply = try CLI.run(["apply", "crop.json", "big.png", "small.png", "--out-dir", "applied"], in: dir)
        #expect(apply.status == 0, "\(apply)")

        // Then the big one reproduces the crop, the small one is half its size, and both show the same content
        let direct = try CLI.load(dir + "/crop.png")
        let big = try CLI.load(dir + "/applied/big.png")
        let small = try CLI.load(dir + "/applied/small.png")
        #expect(big.width == direct.width && big.height == direct.height)
        #expect(
            abs(small.width * 2 - big.width) <= 2 && abs(small.height * 2 - big.height) <= 2,
            "\(small.width)×\(small.height) vs \(big.width)×\(big.height)")
        for (u, v) in [(0.5, 0.5), (0.2, 0.3), (0.8, 0.25), (0.3, 0.8), (0.75, 0.7)] {
            let b = big.pixel(x: Int(u * Double(big.width)), y: Int(v * Double(big.height)))
            let s = small.pixel(x: Int(u * Double(small.width)), y: Int(v * Double(small.height)))
            expectPixel(s, Array(b.prefix(3)), tolerance: 4, "at (\(u), \(v))")
            expectPixel(
                big.pixel(x: Int(u * Double(big.width)), y: Int(v * Double(big.height))),
                direct.pixel(x: Int(u * Double(big.width)), y: Int(v * Double(big.height))))
        }
        // The crop is where the rect was: its centre shows the rect's centre (216, 144) of 480×320.
        expectPixel(big.pixel(x: big.width / 2, y: big.height / 2), [115, 115, 100], tolerance: 3)
    }

    @Test("apply: an unreadable recipe is one error line before any file is touched")
    func badRecipe() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try pictures(["a.png"], in: dir)
        try Data(#"{"version": 1, "angle": 99}"#.utf8).write(to: URL(fileURLWithPath: dir + "/r.json"))
        let run = try CLI.run(["apply", "r.json", "a.png", "-o", "out.png"], in: dir)
        #expect(run.status == 1, "\(run)")
        #expect(run.stderr.hasPrefix("cropkit apply: r.json: invalid recipe field 'angle'"), "\(run)")
        #expect(run.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.png"))
    }
}
