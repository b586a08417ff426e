import ArgumentParser
import CropKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One input turned into one output, and what happened.
package struct FileJob: Sendable {
    /// The input file.
    package let input: String
    /// The output file.
    package let output: String
}

extension FileJob {
    /// Refuses an output that is the input (unless `force`); the output's folder must exist.
    package func checkPaths(force: Bool) throws {
        if !force && Self.sameFile(input, output) {
            throw CommandError("the output \(output) is the input; use another name, or --force to replace it")
        }
    }

    /// Runs `work`, timing it, and converts its result.
    package func run(force: Bool, _ work: () throws -> Written) throws -> FileOutcome {
        try checkPaths(force: force)
        let clock = Stopwatch()
        let result = try work()
        return FileOutcome(
            size: result.size, byteCount: result.byteCount, seconds: clock.elapsed, warnings: result.warnings,
            notes: result.notes, frames: result.frames)
    }

    /// Whether two paths name the same existing file (same device and inode, so links and `./a` vs `a` count).
    package static func sameFile(_ a: String, _ b: String) -> Bool {
        var sa = stat(), sb = stat()
        guard stat(a, &sa) == 0, stat(b, &sb) == 0 else { return false }
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino
    }
}
