import CropCodecs
import CropKit
import CropTestSupport
import Foundation
import Testing

/// `cropkit edit`'s start flags (a proposal or a recipe) and a host's constraints, checked before the server starts.
@Suite("cropkit edit: starting from a proposal or a recipe")
struct EditCommandTests {
    /// A folder holding `disc.jpg`: 900×300, a red disc at (700, 150).
    static func discFolder() throws -> String {
        let folder = try CLI.temporaryDirectory()
        let jpeg = try ImageCodec.encode(redDiscScene(x: 700, y: 150, width: 900, height: 300), as: .jpeg)
        try Data(jpeg).write(to: URL(fileURLWithPath: folder + "/disc.jpg"))
        return folder
    }

    @Test("bad start flags exit 64 naming the conflict; an unreadable recipe exits 1 before any server starts")
    func refusals() throws {
        let folder = try Self.discFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (arguments, expected) in [
            (["--gravity", "attention"], "--gravity and --focus place an --aspect W:H crop"),
            (["--aspect", "original", "--focus", "0.5,0.5"], "--gravity and --focus place an --aspect W:H crop"),
            (["--recipe", "r.json", "--aspect", "1:1"], "--recipe says the whole crop"),
            (["--focus", "2,2"], "--focus"),
            (["--lock-aspect"], "--lock-aspect locks an --aspect W:H"),
            (["--aspect", "original", "--lock-aspect"], "--lock-aspect locks an --aspect W:H"),
            (["--min-size", "0"], "--min-size must be at least 1"),
            (
                ["--aspect", "4:3", "--output-size", "200x200"],
                "--aspect 4:3 is not the ratio of --output-size 200x200"
            ),
            (["--output-size", "200"], "--output-size"),
            (["--embed-origin", "https://*.example.com"], "invalid embed-origin: 'https://*.example.com'"),
        ] {
            let run = try CLI.run(["edit", "disc.jpg"] + arguments, in: folder)
            #expect(run.status == 64, "\(arguments): \(run)")
            #expect(run.stderr.contains(expected), "\(arguments): \(run.stderr)")
        }
        try Data("{".utf8).write(to: URL(fileURLWithPath: folder + "/broken.json"))
        let broken = try CLI.run(["edit", "disc.jpg", "--recipe", "broken.json", "--port", "0"], in: folder)
        #expect(broken.status == 1, "\(broken)")
        #expect(broken.stderr.contains("cannot edit") && broken.stderr.contains("broken.json"), "\(broken.stderr)")
    }

    @Test("--aspect 1:1 --gravity attention starts the editor at the proposal and prints what it is")
    func printsTheProposal() throws {
        let folder = try Self.discFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let text = try Self.startupLines(
            ["edit", folder + "/disc.jpg", "--port", "0", "--aspect", "1:1", "--gravity", "attention"],
            in: folder)
        #expect(text.contains("editing disc.jpg (900×300)"), "\(text)")
        #expect(text.contains("\nProposed: the 1:1 crop with the most attention ("), "\(text)")
        #expect(
            text.contains("Crops are saved beside each photo as NAME.cropkit.json; Export all writes to "), "\(text)")
    }

    @Test("a folder is edited as its photos, with where crops are saved and exported; a folder without photos exits 1")
    func folders() throws {
        let folder = try Self.discFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(atPath: folder + "/disc.jpg", toPath: folder + "/disc2.jpg")
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/notes.txt"))
        let text = try Self.startupLines(
            ["edit", folder, "--port", "0", "--export-dir", folder + "/square"], in: folder)
        #expect(text.contains("cropkit edit: editing 2 photos at http://127.0.0.1:"), "\(text)")
        #expect(
            text.contains(
                "Crops are saved beside each photo as NAME.cropkit.json; Export all writes to \(folder)/square."),
            "\(text)")
        let empty = folder + "/empty"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let refused = try CLI.run(["edit", "empty"], in: folder)
        #expect(refused.status == 1 && refused.stderr.contains("empty holds no photos"), "\(refused)")
        let mixed = try CLI.run(["edit", "disc.jpg", "empty"], in: folder)
        #expect(mixed.status == 1 && mixed.stderr.contains("empty is a folder: give one folder, or files"), "\(mixed)")
        let missing = try CLI.run(["edit", "disc.jpg", "nope.jpg"], in: folder)
        #expect(missing.status == 1 && missing.stderr.contains("nope.jpg: no such file"), "\(missing)")
    }

    /// Starts `cropkit` with `arguments`, waits for its startup lines (up to 20 s) and stops it.
    static func startupLines(_ arguments: [String], in folder: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(CLI.binary))
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        let outPath = folder + "/edit-\(UUID()).out"
        FileManager.default.createFile(atPath: outPath, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: outPath) }
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        process.standardOutput = out
        process.standardError = out
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        var text = ""
        for _ in 0..<400 where !text.contains("Press Ctrl-C") && process.isRunning {
            Thread.sleep(forTimeInterval: 0.05)
            text = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        }
        return text
    }
}
