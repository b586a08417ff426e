import ArgumentParser
import CropKit
import Foundation

/// One input turned into one output, and what happened.
struct FileJob: Sendable {
    /// The input file.
    let input: String
    /// The output file.
    let output: String
}

/// What a finished job reports.
struct FileOutcome: Sendable {
    /// The output's size in pixels.
    var size: PixelSize
    /// The bytes written.
    var byteCount: Int
    /// Seconds taken.
    var seconds: Double
    /// Recoverable problems (codec warnings, a clipped rectangle …).
    var warnings: [String]
}

extension FileJob {
    /// Refuses an output that is the input (unless `force`); the output's folder must exist.
    func checkPaths(force: Bool) throws {
        if !force && Self.sameFile(input, output) {
            throw CommandError("the output \(output) is the input; use another name, or --force to replace it")
        }
    }

    /// Runs `work`, timing it, and converts its result.
    func run(force: Bool, _ work: () throws -> Written) throws -> FileOutcome {
        try checkPaths(force: force)
        let clock = Stopwatch()
        let result = try work()
        return FileOutcome(
            size: result.size, byteCount: result.byteCount, seconds: clock.elapsed, warnings: result.warnings)
    }

    /// Whether two paths name the same existing file (same device and inode, so links and `./a` vs `a` count).
    static func sameFile(_ a: String, _ b: String) -> Bool {
        var sa = stat(), sb = stat()
        guard stat(a, &sa) == 0, stat(b, &sb) == 0 else { return false }
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino
    }
}

/// The one-line description of an error, with hints for the common ones.
func describe(_ error: any Error) -> String {
    switch error {
    case CropKitError.codec(.fileExists(let path)), CodecError.fileExists(let path):
        "\(path) already exists; use --force to replace it"
    default:
        String(describing: error)
    }
}

/// Runs a single-file command: checks the paths, runs `work`, prints `wrote OUT (W×H, N KB) in T` unless `quiet`,
/// and turns any failure into one line on standard error (`cropkit NAME: IN: problem`) and exit status 1.
func runSingleFile(
    _ command: String, _ job: FileJob, options: CommonOptions, _ work: () throws -> Written
) throws {
    do {
        let outcome = try job.run(force: options.force, work)
        for warning in outcome.warnings { printError("cropkit \(command): warning: \(job.input): \(warning)") }
        if !options.quiet {
            Console.out(
                "wrote \(job.output) (\(Console.size(outcome.size)), \(Console.bytes(outcome.byteCount))) in "
                    + "\(Console.duration(outcome.seconds))\n")
        }
    } catch {
        printError("cropkit \(command): \(job.input): \(describe(error))")
        throw ExitCode.failure
    }
}
