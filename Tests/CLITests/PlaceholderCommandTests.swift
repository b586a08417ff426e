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

    @Test("the JSON is the library's placeholder of the same steps, byte for byte, for every kind", arguments: Placeholder.Kind.allCases)
    func matchesLibrary(_ kind: Placeholder.Kind) throws {
        let dir = try setUp()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let run = try CLI.run(
            ["placeholder", "in.jpg", "--kind", kind.rawValue, "--aspect", "4:3", "--straighten", "5", "--width", "120"],
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
        var run = try CLI.run(["placeholder", "in.jpg", "--kind", "thumbhash", "--size", "64x64", "--mode", "fill", "-o", "p.json"], in: dir)
        #expect(run.status == 0 && run.stdout.isEmpty, "\(run)")
        let written = try String(contentsOfFile: dir + "/p.json", encoding: .utf8)
        #expect(written.hasPrefix(#"{"kind":"thumbhash","value":""#) && written.hasSuffix(#","width":64,"height":64}"# + "\n"))
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
        let size: [String] = switch command {
        case "crop": ["--max-size", "120"]
        case "resize": ["--width", "120"]
        case "thumbnail": ["--size", "96"]
        default: []
        }
        let flags = ["--watermark", "mark.png", "--watermark-gravity", "top-right", "--watermark-scale", "0.4", "--watermark-opacity", "0.8"]
        let run = try CLI.run([command, "in.png", "-o", "out.png"] + size + flags, in: dir)
        #expect(run.status == 0, "\(run)")
        let mark = try Watermark(contentsOfFile: dir + "/mark.png", gravity: .topRight, scale: 0.4, opacity: 0.8)
        let steps: [ImageOperation] = switch command {
        case "crop": [.fit(within: PixelSize(validWidth: 120, height: 120))]
        case "resize": [.resize(ResizeRequest(.width(120)))]
        case "thumbnail": [.thumbnail(ThumbnailRequest(side: 96))]
        default: []
        }
        let expected = try ImagePipeline().run(.file(dir + "/in.png"), steps + [.watermark(mark)])
        #expect(try CLI.load(dir + "/out.png") == expected.pixels)
    }

    @Test("watermark options without a mark, or out of range, are usage errors; a missing mark file fails with its name")
    func errors() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try CLI.writePicture(dir + "/in.png", width: 60, height: 40, color: positionColor)
        for flags in [["--watermark-tile"], ["--watermark", "in.png", "--watermark-scale", "0"], ["--watermark", "in.png", "--watermark-opacity", "2"]] {
            let run = try CLI.run(["resize", "in.png", "-o", "o.png", "--width", "30"] + flags, in: dir)
            #expect(run.status == 64, "\(flags): \(run)")
        }
        let run = try CLI.run(["resize", "in.png", "-o", "o.png", "--width", "30", "--watermark", "nope.png"], in: dir)
        #expect(run.status == 1 && run.stderr.contains("nope.png"), "\(run)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/o.png"))
    }
}
