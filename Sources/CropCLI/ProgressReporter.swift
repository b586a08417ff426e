import CropKit
import CropPixels

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reports a batch's progress, safely from many threads.
///
/// - `bar`: one line redrawn in place on standard output (at most ten times a second):
///   `[██████████░░░░░░░░░░] 12/40 files  3.1 files/s  ETA 9 s`. An error first clears the bar, goes to standard
///   error, and the bar is drawn again under it.
/// - `lines`: one line per finished file on standard output, for logs and pipes:
///   `[12/40] a.jpg → thumbs/a.jpg 256×256 18 KB 41 ms`.
/// - `none`: only the errors.
///
/// Errors always go to standard error as `cropkit NAME: FILE: problem`.
package final class ProgressReporter: @unchecked Sendable {
    // @unchecked Sendable: the counters and the terminal output are only touched with its lock held.
    /// How progress is shown.
    package enum Style {
        case bar, lines, none
    }

    private let command: String
    private let total: Int
    private let style: Style
    private let lock = Lock()
    private let clock = Stopwatch()
    private var done = 0
    private var failed = 0
    private var lastDraw = -1.0
    private static let barWidth = 24

    /// - Parameter style: how to show progress (see the type's documentation).
    package init(command: String, total: Int, style: Style) {
        self.command = command
        self.total = total
        self.style = style
        if style == .bar { draw(force: true) }
    }

    /// The style for a `--progress` choice: `auto` is a bar on a terminal, lines otherwise; `--quiet` is none.
    package static func style(for choice: ProgressArgument, quiet: Bool) -> Style {
        if quiet { return .none }
        switch choice {
        case .auto: return Console.stdoutIsTerminal ? .bar : .lines
        case .bar: return .bar
        case .lines: return .lines
        case .none: return .none
        }
    }

    /// Records a finished file (`outcome`) or a failed one (`error`).
    package func finished(_ job: FileJob, outcome: FileOutcome?, error: (any Error)?) {
        lock.locked {
            done += 1
            var errorLines: [String] = []
            if let error {
                failed += 1
                errorLines.append("cropkit \(command): \(job.input): \(describe(error))")
            }
            for warning in outcome?.warnings ?? [] {
                errorLines.append("cropkit \(command): warning: \(job.input): \(warning)")
            }
            if style == .bar && !errorLines.isEmpty { Console.out("\r\u{1B}[K") }
            for line in errorLines { printError(line) }
            switch style {
            case .bar:
                draw(force: !errorLines.isEmpty || done == total)
            case .lines:
                let counter =
                    "[\(String(repeating: " ", count: max(0, "\(total)".count - "\(done)".count)))\(done)/\(total)]"
                if let outcome {
                    Console.out(
                        "\(counter) \(job.input) → \(job.output) \(outcome.sizeDescription) "
                            + "\(Console.bytes(outcome.byteCount)) \(Console.duration(outcome.seconds))\n")
                } else {
                    Console.out("\(counter) \(job.input) failed\n")
                }
            case .none:
                break
            }
        }
    }

    /// Ends the report with a summary line (unless the style is `none`) and returns the number of failed files.
    package func finish() -> Int {
        lock.locked {
            let seconds = clock.elapsed
            if style == .bar { Console.out("\n") }
            if style != .none {
                let rate = seconds > 0 ? (Double(done) / seconds).decimal(places: 1) : "–"
                let outcome = failed == 0 ? "\(done - failed) written" : "\(done - failed) written, \(failed) failed"
                Console.out(
                    "\(total) \(total == 1 ? "file" : "files"): \(outcome) in \(Console.duration(seconds)) "
                        + "(\(rate) files/s)\n")
            }
            return failed
        }
    }

    /// Redraws the bar; called with the lock held.
    private func draw(force: Bool) {
        let now = clock.elapsed
        guard force || now - lastDraw >= 0.1 else { return }
        lastDraw = now
        let filled = total == 0 ? Self.barWidth : Self.barWidth * done / total
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: Self.barWidth - filled)
        var line = "\r[\(bar)] \(done)/\(total) files"
        if done > 0 && now > 0 {
            let rate = Double(done) / now
            line += "  \(rate.decimal(places: 1)) files/s"
            if done < total { line += "  ETA \(Self.clockTime(Double(total - done) / rate))" }
        }
        if failed > 0 { line += "  \(failed) failed" }
        Console.out(line + "\u{1B}[K")
    }

    /// `9 s`, `2:05`, `1:02:03`.
    package static func clockTime(_ seconds: Double) -> String {
        let s = Int(seconds.rounded(.up))
        if s < 60 { return "\(s) s" }
        func twoDigits(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        if s < 3600 { return "\(s / 60):\(twoDigits(s % 60))" }
        return "\(s / 3600):\(twoDigits(s / 60 % 60)):\(twoDigits(s % 60))"
    }
}
