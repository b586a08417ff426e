import CropCodecs
import CropKit
import CropTestSupport
import Foundation
import Testing

/// `cropkit resize`, `round`, `orient` and `convert` on real files.
@Suite struct ResizeCommandTests {
    private func positionPicture(in dir: String) throws -> String {
        let path = dir + "/in.png"
        try CLI.writePicture(path, width: 240, height: 160, color: positionColor)
        return path
    }

    @Test(
        "resize: every target and mode gives its exact size, never enlarged without --allow-upscale",
        arguments: [
            (["--width", "120"], 120, 80),
            (["--height", "40"], 60, 40),
            (["--size", "120x120", "--mode", "fit"], 120, 80),
            (["--size", "120x120", "--mode", "fill"], 120, 120),
            (["--size", "120x120", "--mode", "pad"], 120, 120),
            (["--size", "60x100", "--mode", "stretch"], 60, 100),
            (["--size", "1000x1000"], 240, 160),
            (["--width", "480"], 240, 160),
            (["--width", "480", "--allow-upscale"], 480, 320),
        ])
    func resizeSizes(arguments: [String], width: Int, height: Int) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = try positionPicture(in: dir)
        let run = try CLI.run(["resize", input, "-o", "out.png"] + arguments, in: dir)
        #expect(run.status == 0, "\(run)")
        let out = try CLI.load(dir + "/out.png")
        #expect(out.width == width && out.height == height, "\(arguments): \(out.width)×\(out.height)")
    }

    @Test(
        "the rules between resize's flags are ResizeRequest's, in the flags' words",
        arguments: [
            (
                ["--width", "10", "--height", "10"],
                "--height: give one of width, height or size, not width and height."
            ),
            (
                ["--size", "10x10", "--mode", "fill", "--background", "white"],
                "--background: applies only with mode pad."
            ),
            (["--size", "10x10", "--focus", "0.5,0.5"], "--focus: applies only with mode fill."),
            (
                ["--size", "10x10", "--mode", "pad", "--gravity", "entropy"],
                "--gravity: mode pad places the picture by an alignment"
            ),
            (["--width", "0"], "--width: 0 must be at least 1."),
        ])
    func ruleWords(_ flags: [String], _ words: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let run = try CLI.run(["resize", CLI.samples + "/watercolor-rgba.png", "-o", "x.png"] + flags, in: dir)
        #expect(run.status != 0 && run.stderr.contains(words), "\(run)")
    }

    @Test(
        "an animated GIF: resize keeps its 10 frames and says so; --frames first writes one, silently; a PNG output warns that 9 frames were dropped"
    )
    func animation() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = CLI.root + "/Tests/CropKitTests/Fixtures/dispose_bgnd_transparency.gif"  // 38×32, 10 frames
        let all = try CLI.run(["resize", input, "-o", "all.webp", "--width", "19"], in: dir)
        #expect(all.status == 0 && all.stdout.contains("wrote all.webp (19×16, 10 frames, "), "\(all)")
        #expect(try ImageSource.file(dir + "/all.webp").info().frameCount == 10)
        let first = try CLI.run(["resize", input, "-o", "first.gif", "--width", "19", "--frames", "first"], in: dir)
        #expect(first.status == 0 && first.stderr.isEmpty && first.stdout.contains("(19×16, "), "\(first)")
        #expect(try ImageSource.file(dir + "/first.gif").info().frameCount == nil)
        let png = try CLI.run(["convert", input, "-o", "still.png"], in: dir)
        #expect(
            png.status == 0 && png.stderr.contains("the first of the animation's 10 frames is written, 9 are dropped"),
            "\(png)")
        let wrong = try CLI.run(["resize", input, "-o", "x.gif", "--width", "19", "--frames", "some"], in: dir)
        #expect(wrong.status != 0 && wrong.stderr.contains("--frames"), "\(wrong)")
    }

    @Test("resize: --gravity picks the side a fill keeps")
    func fillGravity() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = try positionPicture(in: dir)
        for (gravity, red) in [("left", 80), ("center", 120), ("right", 160)] {
            let run = try CLI.run(
                ["resize", input, "-o", "\(gravity).png", "--size", "80x80", "--mode", "fill", "--gravity", gravity],
                in: dir)
            #expect(run.status == 0, "\(run)")
            // The 80 px output covers 160 source columns: its centre column shows source x = offset + 80.
            let out = try CLI.load(dir + "/\(gravity).png")
            expectPixel(out.pixel(x: 40, y: 40), [red, 80, 128], tolerance: 3, "gravity \(gravity)")
        }
    }

    @Test(
        "resize and thumbnail: --gravity attention and entropy keep an off-centre object, --focus keeps a point; pad refuses them, fit refuses any gravity"
    )
    func smartGravity() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let scene = try ImageCodec.encode(redDiscScene(x: 550, y: 150), as: .png)
        try Data(scene).write(to: URL(fileURLWithPath: dir + "/in.png"))
        let box = ["--size", "100x100", "--mode", "fill"]
        for (name, extra) in [
            ("attention", ["--gravity", "attention"]), ("entropy", ["--gravity", "entropy"]),
            ("focus", ["--focus", "0.9,0.5"]), ("center", []),
        ] {
            let run = try CLI.run(["resize", "in.png", "-o", "\(name).png"] + box + extra, in: dir)
            #expect(run.status == 0, "\(run)")
            let red = redPixels(try CLI.load(dir + "/\(name).png"))
            if name == "center" { #expect(red == 0) } else { #expect(red > 250, "\(name): \(red) red pixels") }
        }
        let thumbnail = try CLI.run(
            ["thumbnail", "in.png", "-o", "t.png", "--size", "64", "--gravity", "attention"], in: dir)
        #expect(thumbnail.status == 0, "\(thumbnail)")
        #expect(redPixels(try CLI.load(dir + "/t.png")) > 90)
        let pad = try CLI.run(
            ["resize", "in.png", "-o", "pad.png", "--size", "100x100", "--mode", "pad", "--gravity", "attention"],
            in: dir)
        #expect(pad.status == 64 && pad.stderr.contains("alignment"), "\(pad)")
        let badFocus = try CLI.run(["resize", "in.png", "-o", "f.png"] + box + ["--focus", "2,0.5"], in: dir)
        #expect(badFocus.status == 64, "\(badFocus)")
        // A fit keeps the whole picture: a gravity with it would be ignored, so it is refused, not dropped.
        let fit = try CLI.run(["resize", "in.png", "-o", "fit.png", "--size", "100x100", "--gravity", "face"], in: dir)
        #expect(fit.status == 64 && fit.stderr.contains("--gravity: applies only with mode fill or pad"), "\(fit)")
        #expect(
            !FileManager.default.fileExists(atPath: dir + "/pad.png")
                && !FileManager.default.fileExists(atPath: dir + "/f.png"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/fit.png"))
    }

    @Test("resize: pad is transparent by default and takes --background")
    func padBackground() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = try positionPicture(in: dir)
        let clear = try CLI.run(["resize", input, "-o", "clear.png", "--size", "120x120", "--mode", "pad"], in: dir)
        #expect(clear.status == 0, "\(clear)")
        let c = try CLI.load(dir + "/clear.png")
        #expect(c.channelCount == 4)
        #expect(c.pixel(x: 0, y: 0)[3] == 0)
        #expect(c.pixel(x: 60, y: 60)[3] == 255)

        let red = try CLI.run(
            ["resize", input, "-o", "red.png", "--size", "120x120", "--mode", "pad", "--background", "#ff0000"],
            in: dir)
        #expect(red.status == 0, "\(red)")
        expectPixel(try CLI.load(dir + "/red.png").pixel(x: 0, y: 0), [255, 0, 0])
    }

    @Test("The command lines Benchmarks/compare.py runs keep working")
    func benchmarkCommandLines() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let photo = CLI.samples + "/waterfall-orientation6.jpg"
        let common = ["-o", "out.jpg", "--force", "--quiet", "--quality", "85"]
        for (task, command, size) in [
            ("T0", ["convert", photo], (1200, 1800)),
            ("T1", ["resize", photo, "--size", "256x256", "--mode", "fit"], (256, 171)),
            ("T2", ["resize", photo, "--width", "1920", "--filter", "lanczos3"], (1800, 1200)),
            ("T3", ["crop", photo, "--straighten", "7.5"], (1515, 1010)),
        ] {
            let run = try CLI.run(command + common, in: dir)
            #expect(run.status == 0 && run.stdout.isEmpty && run.stderr.isEmpty, "\(task): \(run)")
            let info = try ImageSource.file(dir + "/out.jpg").info()
            #expect(info.width == size.0 && info.height == size.1, "\(task): \(info.width)×\(info.height)")
        }
    }

    @Test("round: corners and circles become transparent")
    func round() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = try positionPicture(in: dir)

        let circle = try CLI.run(["round", input, "-o", "circle.png", "--radius", "circle"], in: dir)
        #expect(circle.status == 0, "\(circle)")
        let c = try CLI.load(dir + "/circle.png")
        #expect(c.width == 160 && c.height == 160)
        #expect(c.pixel(x: 0, y: 0)[3] == 0 && c.pixel(x: 159, y: 159)[3] == 0)
        // The largest centred square starts at x = 40.
        expectPixel(c.pixel(x: 80, y: 80), [120, 80, 128, 255])

        let rounded = try CLI.run(["round", input, "-o", "rounded.png", "--radius", "20", "--border", "4"], in: dir)
        #expect(rounded.status == 0, "\(rounded)")
        let r = try CLI.load(dir + "/rounded.png")
        #expect(r.width == 240 && r.height == 160)
        #expect(r.pixel(x: 6, y: 6)[3] == 0, "inside the corner's curve")
        #expect(r.pixel(x: 2, y: 80)[3] == 0, "in the border")
        expectPixel(r.pixel(x: 120, y: 80), [120, 80, 128, 255])
    }

    @Test("orient: the pixels are turned upright and the orientation reset to 1")
    func orient() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try CLI.writePicture(dir + "/in.png", width: 240, height: 160, orientation: .leftBottom, color: positionColor)
        let run = try CLI.run(["orient", "in.png", "-o", "up.png"], in: dir)
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.hasPrefix("wrote up.png (240×160"), "\(run)")
        let info = try ImageSource.file(dir + "/up.png").info()
        #expect(info.orientation == .up && info.width == 240 && info.height == 160)
        let raw = try Image(contentsOfFile: dir + "/up.png", appliesOrientation: false).pixels
        expectPixel(raw.pixel(x: 10, y: 20), [10, 20, 128])
        expectPixel(raw.pixel(x: 239, y: 159), [239, 159, 128])
    }
}
