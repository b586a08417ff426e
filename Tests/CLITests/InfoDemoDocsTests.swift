import CropKit
import Foundation
import Testing

/// `info --json`, `demo`, `--help`, completion scripts and docs/cli.md.
@Suite struct InfoDemoDocsTests {
    static let subcommands = [
        "info", "crop", "resize", "thumbnail", "round", "orient", "apply", "convert", "demo", "analyze", "placeholder",
    ]

    @Test("info --json parses back, with stored and displayed sizes and the orientation")
    func infoJSON() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try CLI.writePicture(dir + "/side.png", width: 60, height: 40, orientation: .rightTop, color: positionColor)
        try CLI.writePicture(dir + "/flat.jpg", width: 30, height: 20, color: positionColor)

        let run = try CLI.run(["info", "--json", "side.png", "flat.jpg", "gone.png"], in: dir)

        #expect(run.status == 1, "one file is missing: \(run)")
        #expect(run.stderr.hasPrefix("cropkit info: gone.png: "), "\(run)")
        let entries = try #require(
            try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]], "\(run.stdout)")
        try #require(entries.count == 2)
        #expect(entries[0]["file"] as? String == "side.png")
        #expect(entries[0]["format"] as? String == "png")
        #expect(entries[0]["width"] as? Int == 40 && entries[0]["height"] as? Int == 60)
        #expect(entries[0]["orientation"] as? Int == 6)
        #expect(entries[0]["displayedWidth"] as? Int == 60 && entries[0]["displayedHeight"] as? Int == 40)
        #expect(entries[1]["format"] as? String == "jpeg")
        #expect(entries[1]["width"] as? Int == 30 && entries[1]["alpha"] as? Bool == false)
    }

    @Test("docs/cli.md names exactly the fields info --json prints")
    func infoJSONFieldsDocumented() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try CLI.writePicture(dir + "/flat.jpg", width: 30, height: 20, color: positionColor)
        let run = try CLI.run(["info", "--json", "flat.jpg"], in: dir)
        let entries = try #require(
            try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]], "\(run)")
        let printed = Set(try #require(entries.first).keys)

        let docs = try String(contentsOfFile: CLI.root + "/docs/cli.md", encoding: .utf8)
        let info = try #require(docs.components(separatedBy: "## cropkit info").dropFirst().first)
        let row = try #require(info.split(separator: "\n").first { $0.hasPrefix("| `--json` |") })
        let documented = Set(
            row.dropFirst("| `--json` |".count).matches(of: /`([A-Za-z]+)`/).map { String($0.output.1) })

        #expect(printed.count >= 20)
        #expect(printed.subtracting(documented).isEmpty, "printed, not documented: \(printed.subtracting(documented))")
        #expect(documented.subtracting(printed).isEmpty, "documented, not printed: \(documented.subtracting(printed))")
    }

    @Test("demo writes every file it promises and lists each with its size and time")
    func demo() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }

        let run = try CLI.run(["demo", "--out-dir", "show"], in: dir)

        #expect(run.status == 0, "\(run)")
        let expected: [(String, (Int, Int)?)] = [
            ("upright.jpg", (1800, 1200)), ("thumbnail-256.png", (256, 256)), ("straightened-7.5.jpg", nil),
            ("avatar-circle.png", (512, 512)), ("fit-800x800.jpg", (800, 533)), ("fill-800x800.jpg", (800, 800)),
            ("watercolor-pad-400x400.png", (400, 400)), ("iphone-thumbnail-256.webp", (256, 256)),
            ("iphone-srgb-1600.jpg", (1600, 1200)),
        ]
        for (name, size) in expected {
            let path = dir + "/show/" + name
            let info = try ImageSource.file(path).info()
            if let size {
                #expect(info.width == size.0 && info.height == size.1, "\(name): \(info.width)×\(info.height)")
            }
            #expect(info.orientation == .up)
            #expect(run.stdout.contains("  \(name) "), "\(name) is not listed")
        }
        // docs/cli.md's table of the demo's files names exactly the files it wrote.
        let docs = try String(contentsOfFile: CLI.root + "/docs/cli.md", encoding: .utf8)
        let demoSection =
            try #require(docs.components(separatedBy: "## cropkit demo").dropFirst().first)
            .components(separatedBy: "\n## ").first ?? ""
        let documented = Set(demoSection.matches(of: /(?m)^\| `([a-z0-9.-]+\.[a-z]+)` \|/).map { String($0.output.1) })
        let written = Set(try FileManager.default.contentsOfDirectory(atPath: dir + "/show"))
        #expect(documented == written, "documented \(documented.sorted()), written \(written.sorted())")
        // The straightened crop: the largest 3:2 rectangle at 7.5°, at full resolution.
        let straight = try ImageSource.file(dir + "/show/straightened-7.5.jpg").info()
        #expect(straight.width * 2 == straight.height * 3 && straight.width > 1400, "\(straight.width)")
        // Its recipe reads back and names the angle.
        let recipe = try Recipe(json: Data(contentsOf: URL(fileURLWithPath: dir + "/show/straightened-7.5.json")))
        #expect(recipe.angle == 7.5)
        // The avatar is a circle: transparent corners, opaque centre.
        let avatar = try CLI.load(dir + "/show/avatar-circle.png")
        #expect(avatar.pixel(x: 0, y: 0)[3] == 0 && avatar.pixel(x: 256, y: 256)[3] == 255)
        // The iPhone HEIC: a WebP thumbnail, and a JPEG converted from Display P3 to sRGB with the sRGB profile.
        #expect(try ImageSource.file(dir + "/show/iphone-thumbnail-256.webp").info().format == .webp)
        let converted = try ImageSource.file(dir + "/show/iphone-srgb-1600.jpg").info()
        #expect(converted.format == .jpeg && converted.iccProfileSize != nil)
        let profile = try #require(try Image(contentsOfFile: dir + "/show/iphone-srgb-1600.jpg").metadata.iccProfile)
        // The description is UTF-16 in lcms2's profile: read it with the zero bytes left out.
        let text = String(decoding: profile.filter { $0 != 0 }, as: UTF8.self)
        #expect(text.contains("sRGB") && !text.contains("Display P3"))
        // The padded RGBA sample keeps transparency around it.
        let pad = try CLI.load(dir + "/show/watercolor-pad-400x400.png")
        #expect(pad.channelCount == 4 && pad.pixel(x: 0, y: 0)[3] == 0)
        let listed = run.stdout.split(separator: "\n").filter { $0.hasPrefix("  ") }
        #expect(listed.count == 10)
        for line in listed { #expect(line.contains(" ms ") || line.contains(" s "), "no time in \(line)") }
        #expect(run.stdout.contains("Wrote 10 files to \(dir)/show"), "\(run)")
    }

    @Test("Every subcommand's --help has examples", arguments: subcommands)
    func helpHasExamples(subcommand: String) throws {
        let run = try CLI.run([subcommand, "--help"], in: NSTemporaryDirectory())
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("Examples:"), "\(run)")
        #expect(run.stdout.contains("cropkit \(subcommand) "), "\(run)")
    }

    @Test("Completion scripts are generated for bash, zsh and fish", arguments: ["bash", "zsh", "fish"])
    func completionScripts(shell: String) throws {
        let run = try CLI.run(["--generate-completion-script", shell], in: NSTemporaryDirectory())
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("thumbnail") && run.stdout.contains("straighten"))
    }

    @Test("docs/cli.md documents every subcommand and every flag its --help lists", arguments: subcommands)
    func docsListEveryFlag(subcommand: String) throws {
        let docs = try String(contentsOfFile: CLI.root + "/docs/cli.md", encoding: .utf8)
        let help = try CLI.run([subcommand, "--help"], in: NSTemporaryDirectory()).stdout
        #expect(docs.contains("## cropkit \(subcommand)"), "no section for \(subcommand)")
        func section(_ heading: String) -> String {
            docs.components(separatedBy: heading).dropFirst().first?.components(separatedBy: "\n## ").first ?? ""
        }
        let own = section("## cropkit \(subcommand)"), common = section("## Common options")
        // The flags the OPTIONS section defines (the discussion above it may mention other commands' flags).
        let options = try #require(help.components(separatedBy: "\nOPTIONS:\n").last)
        let flags = Set(options.matches(of: /(?m)^  (?:-[a-z], )?(--[a-z][a-z0-9-]*)/).map { String($0.output.1) })
        #expect(!flags.isEmpty)
        for flag in flags where flag != "--help" && flag != "--version" {
            #expect(
                own.contains("`\(flag)") || common.contains("`\(flag)"),
                "docs/cli.md does not list \(flag) of \(subcommand)")
        }
    }
}
