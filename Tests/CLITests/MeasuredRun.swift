import Foundation
import Testing

extension CLI {
    /// What one run produced, with its peak resident memory as the kernel counted it (`wait4`'s `ru_maxrss`):
    /// measured from outside the process, so it includes every library's allocations, not only Swift's.
    struct MeasuredRun: CustomStringConvertible {
        var run: Run
        /// Peak resident set size in kilobytes.
        var peakKilobytes: Int
        /// Whether the process ended by a signal (a crash) rather than `exit`.
        var signalled: Bool

        var description: String { "\(run)\n--- peak \(peakKilobytes) KB\(signalled ? ", killed by a signal" : "")" }
    }

    /// A launcher between this process and the measured one. A process's peak (`ru_maxrss`) includes the memory
    /// of whatever it was before `exec`: a child spawned by this test process starts as a copy of it (tens of MB),
    /// so it is measured through a small Python process that forks the child and reports the child's own peak. It
    /// needs only built-in modules, so `-I -S` skips the site packages: Python starts in 100 ms here instead of 160,
    /// for each of the hostile-file suite's 330 runs.
    private static let launcher = """
        import os, sys
        pid = os.fork()
        if pid == 0:
            os.execv(sys.argv[2], sys.argv[2:])
        _, status, usage = os.wait4(pid, 0)
        with open(sys.argv[1], "w") as f:
            f.write("%d %d %d" % (usage.ru_maxrss, os.WIFSIGNALED(status), os.waitstatus_to_exitcode(status)))
        """

    /// Runs `cropkit ARGS…` like ``run(_:in:environment:)`` (in `directory`) and reads its peak resident memory when
    /// it ends (`wait4` in the launcher above, Python 3 from the `PATH`).
    static func runMeasured(_ arguments: [String], in directory: String) throws -> MeasuredRun {
        let binary = try #require(binary, "the cropkit binary was not found next to the test bundle")
        let usagePath = directory + "/.usage-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: usagePath) }
        let run = try runProgram(
            "/usr/bin/env", ["python3", "-I", "-S", "-c", launcher, usagePath, binary] + arguments, in: directory)
        let fields = try String(contentsOfFile: usagePath, encoding: .utf8).split(separator: " ").compactMap { Int($0) }
        try #require(fields.count == 3, "the launcher wrote no usage: \(run)")
        #if canImport(Darwin)
            let kilobytes = fields[0] / 1024  // bytes on Darwin
        #else
            let kilobytes = fields[0]
        #endif
        var measured = run
        measured.status = Int32(fields[2] < 0 ? 128 - fields[2] : fields[2])
        return MeasuredRun(run: measured, peakKilobytes: kilobytes, signalled: fields[1] != 0)
    }
}
