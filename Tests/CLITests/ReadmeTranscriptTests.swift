import Foundation
import Testing

/// The README's command-line transcript is a real session: every command in it runs here on the bundled sample and
/// prints what the README shows, apart from timings and byte counts.
@Suite struct ReadmeTranscriptTests {
    /// One `$ command` of the transcript with the lines it printed.
    struct Step {
        var command: [String]
        var expected: [String]
    }

    /// The ```console block under "On the command line".
    static func transcript() throws -> [Step] {
        let readme = try String(contentsOfFile: CLI.root + "/README.md", encoding: .utf8)
        let section = try #require(readme.range(of: "## On the command line"), "README has no CLI section")
        let rest = readme[section.upperBound...]
        let open = try #require(rest.range(of: "```console\n"), "the CLI section has no console block")
        let close = try #require(rest[open.upperBound...].range(of: "```"))
        var steps: [Step] = []
        for line in rest[open.upperBound..<close.lowerBound].split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("$ ") {
                steps.append(Step(command: line.dropFirst(2).split(separator: " ").map(String.init), expected: []))
            } else if !line.isEmpty, !steps.isEmpty {
                steps[steps.count - 1].expected.append(String(line))
            }
        }
        return steps
    }

    /// Timings, rates and byte sizes vary from run to run; pixel sizes, names and messages do not.
    static func normalised(_ line: String) -> String {
        var line = line
        for (pattern, placeholder) in [
            (#"[0-9.]+ files/s"#, "N files/s"), (#"[0-9.]+ (ms|s)\b"#, "N ms"), (#"[0-9.]+ (KB|MB|B)\b"#, "N bytes"),
        ] {
            line = line.replacingOccurrences(of: pattern, with: placeholder, options: .regularExpression)
        }
        return line
    }

    @Test("every command of the README transcript prints what the README shows, with the same exit status")
    func transcriptIsReal() throws {
        // Given the bundled sample under the name the transcript uses
        let steps = try Self.transcript()
        #expect(steps.count >= 5)
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.copyItem(
            atPath: CLI.samples + "/waterfall-orientation6.jpg", toPath: dir + "/photo.jpg")

        var lastStatus: Int32 = 0
        for step in steps {
            if step.command == ["echo", "$?"] {
                #expect(step.expected == ["\(lastStatus)"])
                continue
            }
            // When each command runs
            try #require(step.command.first == "cropkit", "unexpected command \(step.command)")
            let run = try CLI.run(Array(step.command.dropFirst()), in: dir)
            lastStatus = run.status
            // Then it prints the README's lines
            let printed = (run.stdout + run.stderr).split(separator: "\n").map { Self.normalised(String($0)) }
            #expect(printed == step.expected.map(Self.normalised), "\(step.command.joined(separator: " "))\n\(run)")
        }
    }
}
