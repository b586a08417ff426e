import ArgumentParser
import CropEditor

/// `--embed-origin ORIGIN` (repeatable), shared by `cropkit edit` and `cropkit serve --editor`: the web pages that
/// may frame the editor and hear its messages (`HostPageOrigins`).
struct EmbedOriginOptions: ParsableArguments {
    @Option(
        name: .customLong("embed-origin"),
        help: ArgumentHelp(
            "A web page origin (https://host[:port]) that may frame the editor and hear its ready, change, done and cancel messages; repeatable.",
            valueName: "origin"))
    var origins: [String] = []

    func validate() throws {
        do { _ = try HostPageOrigins(origins) } catch { throw ValidationError("\(error.description).") }
    }

    /// The checked origins.
    var hostPages: HostPageOrigins {
        get throws { try HostPageOrigins(origins) }
    }
}
