import CropKit
import Foundation
import Testing

/// `cropkit placeholder`: the library's placeholder of the picture the crop and resize flags make, as one line of
/// JSON on standard output or in a file.
@Suite struct PlaceholderCommandTests {
    private func setUp() throws -> String {
        let dir = try CLI.temporaryDirectory()
        try CLI.writePicture(dir + "/in.jpg", width: 320, height: 240, orientation: .rightTop, color: positionColor)
        return dir
    }

    @Test(
        "the JSON is the library's placeholder of the same steps, byte for byte, for every kind",
        arguments: Placeholder.Kind.allCases)
    func matchesLibrary(_ kind: Placeholder.Kind) throws {
        let dir = try setUp()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let run = try CLI.run(
            [
                "placeholder", "in.jpg", "--kind", kind.rawValue, "--aspect", "4:3", "--straighten", "5", "--width",
                "120",
            ],
            in: dir)
        #expect(run.status == 0, "\(run)")
        let expected = try ImagePipeline().placeholder(
            .file(dir + "/in.jpg"),
            [.aspect(.ratio(try AspectRatio(4, 3))), .straighten(5), .resize(ResizeRequest(.width(120)))], kind: kind)
        #expect(run.stdout == expected.json + "\n")
        #expect(expected.width == 120 && expected.height == 90)
    }

    @Test("-o writes the JSON atomically and refuses to replace a file without --force; usage errors exit 64")
    func outputAndErrors() throws {
        let dir = try setUp()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var run = try CLI.run(
            ["placeholder", "in.jpg", "--kind", "thumbhash", "--size", "64x64", "--mode", "fill", "-o", "p.json"],
            in: dir)
        #expect(run.status == 0 && run.stdout.isEmpty, "\(run)")
        let written = try String(contentsOfFile: dir + "/p.json", encoding: .utf8)
        #expect(
            written.hasPrefix(#"{"kind":"thumbhash","value":""#)
                && written.hasSuffix(#","width":64,"height":64}"# + "\n"))
        run = try CLI.run(["placeholder", "in.jpg", "-o", "p.json"], in: dir)
        #expect(run.status == 1 && run.stderr.contains("p.json already exists"), "\(run)")
        #expect(try String(contentsOfFile: dir + "/p.json", encoding: .utf8) == written)
        for arguments in [
            ["placeholder", "in.jpg", "--kind", "thumbhash", "--components", "3x3"],
            ["placeholder", "in.jpg", "--kind", "jpeg"],
            ["placeholder", "in.jpg", "--width", "0"],
            ["placeholder", "in.jpg", "--components", "12x3"],
        ] {
            run = try CLI.run(arguments, in: dir)
            #expect(run.status == 64, "\(arguments): \(run)")
        }
        run = try CLI.run(["placeholder", "missing.jpg"], in: dir)
        #expect(run.status == 1 && run.stderr.hasPrefix("cropkit placeholder: missing.jpg: "), "\(run)")
    }
}

/// The watermark flags on `crop`, `resize`, `thumbnail` and `convert`: the library's mark, byte for byte.
@Suite struct WatermarkCommandTests {
    @Test("each command lays the mark as the library does", arguments: ["crop", "resize", "thumbnail", "convert"])
    func commands(_ command: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try CLI.writePicture(dir + "/in.png", width: 200, height: 150, color: positionColor)
        try CLI.writePicture(dir + "/mark.png", width: 40, height: 20, alpha: true) { x, _ in
            [255, 255, 255, UInt8(x * 6)]
        }
        let size: [String] =
            switch command {
            case "crop": ["--max-size", "120"]
            case "resize": ["--width", "120"]
            case "thumbnail": ["--size", "96"]
            default: []
            }
        let flags = [
            "--watermark", "mark.png", "--watermark-gravity", "top-right", "--watermark-scale", "0.4",
            "--watermark-opacity", "0.8",
        ]
        let run = try CLI.run([command, "in.png", "-o", "out.png"] + size + flags, in: dir)
        #expect(run.status == 0, "\(run)")
        let mark = try Watermark(contentsOfFile: dir + "/mark.png", gravity: .topRight, scale: 0.4, opacity: 0.8)
        let steps: [ImageOperation] =
            switch command {
            case "crop": [.fit(within: PixelSize(validWidth: 120, height: 120))]
            case "resize": [.resize(ResizeRequest(.width(120)))]
            case "thumbnail": [.thumbnail(ThumbnailRequest(side: 96))]
            default: []
            }
        let expected = try ImagePipeline().run(.file(dir + "/in.png"), steps + [.watermark(mark)])
        #expect(try CLI.load(dir + "/out.png") == expected.pixels)
    }

    static let fontPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("CropKitTests/Fixtures/text/test-sans-bold.ttf").path

    @Test("a line of text in a font: the library's text mark, byte for byte", arguments: ["resize", "thumbnail"])
    func text(_ command: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try CLI.writePicture(dir + "/in.png", width: 200, height: 150, color: positionColor)
        let size = command == "resize" ? ["--width", "160"] : ["--size", "96"]
        let run = try CLI.run(
            [command, "in.png", "-o", "out.png"] + size
                + [
                    "--watermark-text", "© Ada", "--font", Self.fontPath, "--watermark-color", "#FFCC00",
                    "--watermark-outline", "black", "--watermark-shadow", "#00000080", "--watermark-scale", "0.5",
                ],
            in: dir)
        #expect(run.status == 0, "\(run)")
        let line = try TextMark(
            "© Ada", font: try FontFace(contentsOfFile: Self.fontPath),
            color: PixelColor(red: 255, green: 204, blue: 0),
            outline: .black, shadow: PixelColor(gray: 0, alpha: 128))
        let steps: [ImageOperation] =
            command == "resize"
            ? [.resize(ResizeRequest(.width(160)))] : [.thumbnail(ThumbnailRequest(side: 96))]
        let expected = try ImagePipeline().run(
            .file(dir + "/in.png"), steps + [.watermark(try Watermark(text: line, scale: 0.5))])
        #expect(try CLI.load(dir + "/out.png") == expected.pixels)
    }

    @Test(
        "watermark options without a mark, or out of range, are usage errors; a missing mark file fails with its name")
    func errors() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try CLI.writePicture(dir + "/in.png", width: 60, height: 40, color: positionColor)
        for flags in [
            ["--watermark-tile"], ["--watermark", "in.png", "--watermark-scale", "0"],
            ["--watermark", "in.png", "--watermark-opacity", "2"],
            ["--watermark-text", "Ada"], ["--font", Self.fontPath], ["--watermark-color", "black"],
            ["--watermark", "in.png", "--watermark-text", "Ada", "--font", Self.fontPath],
            ["--watermark-text", "Ada", "--font", Self.fontPath, "--watermark-outline", "purple"],
        ] {
            let run = try CLI.run(["resize", "in.png", "-o", "o.png", "--width", "30"] + flags, in: dir)
            #expect(run.status == 64, "\(flags): \(run)")
        }
        let run = try CLI.run(["resize", "in.png", "-o", "o.png", "--width", "30", "--watermark", "nope.png"], in: dir)
        #expect(run.status == 1 && run.stderr.contains("nope.png"), "\(run)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/o.png"))
        // A picture given as the font, and a character the font lacks: named, nothing written.
        let notFont = try CLI.run(
            ["resize", "in.png", "-o", "o.png", "--width", "30", "--watermark-text", "Ada", "--font", "in.png"], in: dir
        )
        #expect(notFont.status == 1 && notFont.stderr.contains("cannot use the font in.png"), "\(notFont)")
        let missing = try CLI.run(
            ["resize", "in.png", "-o", "o.png", "--width", "30", "--watermark-text", "Жук", "--font", Self.fontPath],
            in: dir)
        #expect(missing.status != 0 && missing.stderr.contains("U+0416"), "\(missing)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/o.png"))
    }
}
