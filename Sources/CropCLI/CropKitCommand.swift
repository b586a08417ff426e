import ArgumentParser
import CropKit

/// The `cropkit` command: one subcommand per operation (`serve`, `edit` and `sign` run `cropkit-server`).
package struct CropKitCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "cropkit",
        abstract: "Crop, straighten, rotate and resize photos with the right orientation at full resolution.",
        discussion: """
            Outputs are written atomically (a temporary file in the same folder, renamed into place), an existing \
            output is an error unless --force is given, and an input is never overwritten without --force. Errors \
            are one line on standard error naming the file. Exit status: 0 success, 1 processing error, 64 usage \
            error.

            Start with `cropkit demo`. Shell completion: `cropkit --generate-completion-script bash|zsh|fish`.
            """,
        version: "cropkit \(CropKitRelease.version)",
        subcommands: [
            InfoCommand.self, CropCommand.self, ResizeCommand.self, ThumbnailCommand.self, RoundCommand.self,
            OrientCommand.self, ApplyCommand.self, ConvertCommand.self, PlaceholderCommand.self, DemoCommand.self,
            EditFace.self,
            ServeFace.self, SignFace.self, AnalyzeCommand.self,
        ]
    )

    package init() {}
}
