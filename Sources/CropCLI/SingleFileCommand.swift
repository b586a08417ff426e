import ArgumentParser
import CropKit

/// The one-line description of an error, with hints for the common ones.
package func describe(_ error: any Error) -> String {
    switch error {
    case CropKitError.codec(.fileExists(let path)), CodecError.fileExists(let path):
        "\(path) already exists; use --force to replace it"
    case let error as CropKitError where error.isInvalidOption:
        commandLine(error)
    default:
        String(describing: error)
    }
}

/// Runs a single-file command: checks the paths, runs `work`, prints what it decided by itself and
/// `wrote OUT (W×H, N KB) in T` unless `quiet`,
/// and turns any failure into one line on standard error (`cropkit NAME: IN: problem`) and exit status 1.
package func runSingleFile(
    _ command: String, _ job: FileJob, options: CommonOptions, _ work: () throws -> Written
) throws {
    do {
        let outcome = try job.run(force: options.force, work)
        for warning in outcome.warnings { printError("cropkit \(command): warning: \(job.input): \(warning)") }
        if !options.quiet {
            for note in outcome.notes { Console.out("\(job.input): \(note)\n") }
            Console.out(
                "wrote \(job.output) (\(outcome.sizeDescription), \(Console.bytes(outcome.byteCount))) in "
                    + "\(Console.duration(outcome.seconds))\n")
        }
    } catch {
        printError("cropkit \(command): \(job.input): \(describe(error))")
        throw ExitCode.failure
    }
}
