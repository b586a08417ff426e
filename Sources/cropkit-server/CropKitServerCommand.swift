import ArgumentParser
import CropCLI
import CropKit

/// `cropkit-server`: the faces that run a web server (`serve`, `edit`) and `sign`, which needs the service's signer.
///
/// A binary of its own, so that the command-line tool builds without SwiftNIO, Hummingbird and the HTTP client: `cropkit
/// serve …`, `cropkit edit …` and `cropkit sign …` run this binary, found beside `cropkit`, with the same arguments
/// (``ServerFace``), and it names itself `cropkit` in its help and messages.
@main
struct CropKitServerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cropkit",
        abstract: "The web faces of cropkit: the image service, the crop editor, and URL signing.",
        version: "cropkit \(CropKitRelease.version)",
        subcommands: [ServeCommand.self, EditCommand.self, SignCommand.self])
}
