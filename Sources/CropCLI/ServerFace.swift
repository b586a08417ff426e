import ArgumentParser
import CropKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The subcommands that run a web server (`serve`, `edit`) or need the service's signer (`sign`) live in a second
/// binary, `cropkit-server`, so that building `cropkit` builds no web stack: `cropkit serve …` replaces itself
/// (`execv`, so signals, the exit status and the process itself stay the caller's) with `cropkit-server serve …`,
/// found beside the running `cropkit` (as SwiftPM, the tarball and the Debian package put it), then on the `PATH`.
package enum ServerFace {
    /// The subcommands `cropkit-server` answers.
    package static let commands: Set<String> = ["serve", "edit", "sign"]

    /// Where `cropkit-server` is: beside this binary (its real path: `/proc/self/exe` on Linux, else the path it was
    /// started by), else on the `PATH`; `nil` when none has it.
    package static func binary() -> String? {
        var folders: [URL] = ResourceBundle.programFolder.map { [$0] } ?? []
        if let first = CommandLine.arguments.first, first.contains("/") {
            folders.append(URL(fileURLWithPath: first).resolvingSymlinksInPath().deletingLastPathComponent())
        }
        folders += (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map {
            URL(fileURLWithPath: String($0))
        }
        return folders.map { $0.appendingPathComponent("cropkit-server").path }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// When `arguments` (as on the command line, the program first) name a server subcommand, runs `cropkit-server`
    /// with them in place of this process; returns only when they do not, or prints why it cannot and exits 1.
    package static func execIfServerCommand(_ arguments: [String]) {
        let asksHelp = arguments.count >= 3 && arguments[1] == "help" && commands.contains(arguments[2])
        guard arguments.count >= 2, commands.contains(arguments[1]) || asksHelp else { return }
        guard let server = binary() else {
            printError(
                """
                cropkit \(asksHelp ? arguments[2] : arguments[1]): the web faces are in a second binary, cropkit-server, which is not beside \
                this cropkit nor on the PATH (swift build builds it; the release tarball and package install it)
                """)
            exit(1)
        }
        var argv = ([server] + arguments.dropFirst()).map { strdup($0) } + [nil]
        execv(server, &argv)
        printError("cropkit \(arguments[1]): cannot run \(server): \(String(cString: strerror(errno)))")
        exit(1)
    }
}

/// `cropkit serve`, `cropkit edit`, `cropkit sign` in `cropkit --help`: each runs `cropkit-server` (``ServerFace``),
/// whose own `--help` gives its options.
package struct ServeFace: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Serve resized, cropped and straightened images from a folder at signed URLs.")
    @Argument(parsing: .captureForPassthrough) var arguments: [String] = []
    package init() {}
    package func run() throws { ServerFace.execIfServerCommand(["cropkit", "serve"] + arguments) }
}

package struct EditFace: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "edit", abstract: "Open the crop editor in the browser on a picture or a folder of photos.")
    @Argument(parsing: .captureForPassthrough) var arguments: [String] = []
    package init() {}
    package func run() throws { ServerFace.execIfServerCommand(["cropkit", "edit"] + arguments) }
}

package struct SignFace: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "sign", abstract: "Sign an image URL for cropkit serve: prints it with &sig=… appended.")
    @Argument(parsing: .captureForPassthrough) var arguments: [String] = []
    package init() {}
    package func run() throws { ServerFace.execIfServerCommand(["cropkit", "sign"] + arguments) }
}
