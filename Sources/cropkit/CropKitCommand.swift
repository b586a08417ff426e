import ArgumentParser
import CropKit

@main
struct CropKitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cropkit",
        abstract: "Crop, straighten, rotate and resize photos with the right orientation at full resolution.",
        subcommands: [InfoCommand.self, ConvertCommand.self, EditCommand.self]
    )
}
