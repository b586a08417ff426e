import ArgumentParser
import CropCLI
import CropCodecs
import CropKit
import CropServer
import Foundation

/// `cropkit sign TARGET`: prints TARGET with its signature appended.
struct SignCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: "Sign an image URL for cropkit serve: prints it with &sig=… appended.",
        discussion: """
            TARGET is the path and query as the client will send them, e.g. "/img/a.jpg?width=500". The key is the \
            first of CROPKIT_SIGNING_KEY or --key-file.

            Examples:
              export CROPKIT_SIGNING_KEY=$(openssl rand -hex 32)
              cropkit sign "/img/beach.jpg?width=500&format=auto"
              openssl rand -hex 32 > keys
              cropkit sign --key-file keys "/img/team/ada.jpg?size=256x256&mode=fill"
            """)

    @Argument(help: "The path and query to sign (starting with /img/).")
    var target: String

    @Option(help: ArgumentHelp("A file of hex signing keys, one per line (the first signs).", valueName: "file"))
    var keyFile: String?

    func run() throws {
        var text = ProcessInfo.processInfo.environment["CROPKIT_SIGNING_KEY"] ?? ""
        if let keyFile { text = String(decoding: try FileIO.readFile(atPath: keyFile), as: UTF8.self) + "\n" + text }
        do {
            print(try URLSigner(hexKeys: text).signed(target))
        } catch {
            printError("cropkit sign: \(error): set CROPKIT_SIGNING_KEY or --key-file")
            throw ExitCode.failure
        }
    }
}
