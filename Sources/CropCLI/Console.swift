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

/// Writes to the terminal's two streams with plain `write(2)` calls, so that lines from parallel jobs never
/// interleave mid-line, and formats the figures the commands print.
package enum Console {
    /// Writes `text` to standard output as it is.
    package static func out(_ text: String) {
        write(STDOUT_FILENO, text)
    }

    /// Writes `text` to standard error as it is.
    package static func err(_ text: String) {
        write(STDERR_FILENO, text)
    }

    /// Whether standard output is a terminal (not a pipe or a file).
    package static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// The number of cores this process may use.
    package static var coreCount: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    private static func write(_ fd: Int32, _ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = posixWrite(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n <= 0 { return }
                offset += n
            }
        }
    }

    /// Creates the folder `path` and any missing parents.
    ///
    /// - Throws: a `CommandError` naming the folder and the system's reason ("cannot create the folder out: Not a
    ///   directory").
    package static func createFolder(_ path: String) throws(CommandError) {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            let reason = ((error as? CocoaError)?.underlying as? POSIXError).map {
                String(cString: strerror($0.code.rawValue))
            }
            throw CommandError("cannot create the folder \(path)" + (reason.map { ": " + $0 } ?? ""))
        }
    }

    /// `text` cut or filled with spaces to `width` characters, for columns (Foundation's `padding(toLength:…)`).
    package static func padded(_ text: String, to width: Int) -> String {
        String(text.prefix(width)) + String(repeating: " ", count: Swift.max(0, width - text.count))
    }

    /// `1.4 MB`, `312 KB`, `87 B`.
    package static func bytes(_ count: Int) -> String {
        if count >= 1_000_000 { return "\((Double(count) / 1_000_000).decimal(places: 1)) MB" }
        if count >= 1_000 { return "\(Int((Double(count) / 1_000).rounded())) KB" }
        return "\(count) B"
    }

    /// `38 ms`, `1.25 s`.
    package static func duration(_ seconds: Double) -> String {
        seconds < 1 ? "\(Int((seconds * 1000).rounded())) ms" : "\(seconds.decimal(places: 2)) s"
    }

    /// `1800×1200`.
    package static func size(_ size: PixelSize) -> String { "\(size.width)×\(size.height)" }

    /// `3.24° counter-clockwise`, `0.5° clockwise`, `0°`: an angle to two places, with its sense.
    package static func degrees(_ angle: Double) -> String {
        let rounded = (angle * 100).rounded() / 100
        guard rounded != 0 else { return "0°" }
        return "\(abs(rounded).compact)° \(rounded > 0 ? "counter-clockwise" : "clockwise")"
    }

    /// `0.71`: a fraction to two places.
    package static func fraction(_ value: Double) -> String { value.decimal(places: 2) }
}

/// `write(2)`, named so that it does not clash with `Console.write`.
private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}

/// Writes one line to standard error.
package func printError(_ message: String) {
    Console.err(message + "\n")
}
