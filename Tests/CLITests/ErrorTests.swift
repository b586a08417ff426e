import CropKit
import CropTestSupport
import Foundation
import Testing

/// Exit statuses (0, 1, 64) and the one-line messages on standard error.
@Suite struct ErrorTests {
    private func setUp() throws -> String {
        let dir = try CLI.temporaryDirectory()
        try CLI.writePicture(dir + "/in.png", width: 120, height: 80, color: positionColor)
        return dir
    }

    @Test(
        "Output settings are refused as the library refuses them, named by their flags", arguments: OutputRuleCase.all)
    func outputRules(_ rule: OutputRuleCase) throws {
        let dir = try setUp()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let output = "out." + (try #require(OptionValue.format(rule.format))).fileExtension
        // With --format the check runs before the command does (a usage error); without it, against the format the
        // output's name gives, before anything is decoded.
        for arguments in [rule.arguments, Array(rule.arguments.dropFirst(2))] {
            let run = try CLI.run(["convert", "in.png", "-o", output] + arguments, in: dir)
            #expect(run.status != 0, "\(arguments): \(run)")
            #expect(run.stderr.contains("--\(rule.key): \(rule.reason)."), "\(arguments): \(run)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/" + output))
        }
    }

    @Test("A missing input: exit 1, one line naming it, no output")
    func missingInput() throws {
        let dir = try setUp()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let run = try CLI.run(["crop", "nope.png", "-o", "out.png"], in: dir)
        #expect(run.status == 1, "\(run)")
        #expect(run.stderr == "cropkit crop: nope.png: cannot open nope.png: No such file or directory\n", "\(run)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.png"))
    }

    @Test("A corrupt input leaves no output and no temporary file")
    func corruptInputLeavesNothing() throws {
        let dir = try setUp()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let png = try Data(contentsOf: URL(fileURLWithPath: dir + "/in.png"))
        try png.prefix(png.count / 2).write(to: URL(fileURLWithPath: dir + "/half.png"))
        for command in [
            ["resize", "half.png", "-o", "out.jpg", "--width", "50"], ["orient", "half.png", "-o", "out.jpg"],
        ] {
            let run = try CLI.run(command, in: dir)
            #expect(run.status == 1, "\(run)")
            #expect(run.stderr.hasPrefix("cropkit \(command[0]): half.png: "), "\(run)")
            #expect(run.stderr.split(separator: "\n").count == 1, "\(run)")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: dir).filter { !$0.hasPrefix(".std") }.sorted()
        #expect(left == ["half.png", "in.png"])
    }

    @Test("An existing output is an error without --force and is left untouched")
    func existingOutput() throws {
        let dir = try setUp()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: dir + "/out.png"))
        let run = try CLI.run(["resize", "in.png", "-o", "out.png", "--width", "60"], in: dir)
        #expect(run.status == 1, "\(run)")
        #expect(run.stderr == "cropkit resize: in.png: out.png already exists; use --force to replace it\n", "\(run)")
        #expect(try String(contentsOfFile: dir + "/out.png", encoding: .utf8) == "keep me")

        let forced = try CLI.run(["resize", "in.png", "-o", "out.png", "--width", "60", "--force"], in: dir)
        #expect(forced.status == 0, "\(forced)")
        #expect(try CLI.load(dir + "/out.png").width == 60)
    }

    @Test("Naming the input as the output is refused without --force, even through another path")
    func outputIsInput() throws {
        let dir = try setUp()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let before = try Data(contentsOf: URL(fileURLWithPath: dir + "/in.png"))
        for output in ["in.png", "./in.png", dir + "/in.png"] {
            let run = try CLI.run(["crop", "in.png", "-o", output, "--rect", "0,0,10,10"], in: dir)
            #expect(run.status == 1, "\(run)")
            #expect(run.stderr.contains("the output \(output) is the input"), "\(run)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/in.png")) == before)

        let forced = try CLI.run(["crop", "in.png", "-o", "in.png", "--rect", "0,0,10,10", "--force"], in: dir)
        #expect(forced.status == 0, "\(forced)")
        #expect(try CLI.load(dir + "/in.png").width == 10)
    }

    @Test("A rect entirely outside the picture: exit 1 and a message naming it")
    func rectOutside() throws {
        let dir = try setUp()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let run = try CLI.run(["crop", "in.png", "-o", "out.png", "--rect", "500,10,20,20"], in: dir)
        #expect(run.status == 1, "\(run)")
        #expect(
            run.stderr == "cropkit crop: in.png: --rect 500,10,20,20 lies entirely outside the 120×80 picture\n",
            "\(run)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.png"))
    }

    @Test(
        "Usage errors exit 64",
        arguments: [
            ["crop", "in.png"],
            ["crop", "in.png", "-o", "o.png", "--rect", "1,2,3"],
            ["crop", "in.png", "-o", "o.png", "--rect", "0,0,-5,5"],
            ["crop", "in.png", "-o", "o.png", "--straighten", "50"],
            ["crop", "in.png", "-o", "o.png", "--turn", "45"],
            ["crop", "in.png", "-o", "o.png", "--aspect", "wide"],
            ["crop", "in.png", "-o", "o.png", "--quality", "0"],
            ["crop", "in.png", "-o", "o.png", "--allow-upscale"],
            ["resize", "in.png", "-o", "o.png"],
            ["resize", "in.png", "-o", "o.png", "--width", "10", "--height", "10"],
            ["resize", "in.png", "-o", "o.png", "--size", "10by10"],
            ["resize", "in.png", "-o", "o.png", "--width", "10", "--mode", "squash"],
            ["thumbnail", "in.png", "--size", "10"],
            ["thumbnail", "in.png", "in.png", "-o", "t.png", "--size", "10"],
            ["thumbnail", "in.png", "-o", "t.png", "--size", "10", "--border", "5"],
            ["round", "in.png", "-o", "o.png", "--radius", "oval"],
            ["apply", "r.json", "--out-dir", "x"],
            ["convert", "in.png", "-o", "o.png", "--jobs", "0"],
            ["frobnicate"],
        ])
    func usageErrors(arguments: [String]) throws {
        let dir = try setUp()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let run = try CLI.run(arguments, in: dir)
        #expect(run.status == 64, "\(arguments): \(run)")
        #expect(run.stderr.hasPrefix("Error: "), "\(run)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/o.png"))
    }
}

/// The inputs in `../shared/testdata/crashers` (copied to CropKitTests' fixtures) once killed `cropkit` with a trap
/// while it tore down a background resize after the decoder's error.
@Suite struct CrasherTests {
    static let crashers = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../CropKitTests/Fixtures/corrupt").standardized.path

    @Test(
        "Each crasher exits 1 with the decoder's message, 25 runs each, and leaves no output",
        arguments: ["png-bad-filter-thumbnail.png", "png-bad-filter-thumbnail-2.png"])
    func crasherExitsOne(_ name: String) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = Self.crashers + "/" + name
        var clean = 0
        for _ in 0..<25 {
            let run = try CLI.run(
                ["thumbnail", input, "-o", "t.jpg", "--size", "32", "--force", "--progress", "none"], in: dir)
            if run.status == 1,
                run.stderr == "cropkit thumbnail: \(input): corrupt PNG data: bad adaptive filter value\n"
            {
                clean += 1
            } else {
                Issue.record("\(run)")
            }
        }
        #expect(clean == 25)
        #expect(!FileManager.default.fileExists(atPath: dir + "/t.jpg"))
    }
}
