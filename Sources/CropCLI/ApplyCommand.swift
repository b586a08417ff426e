import ArgumentParser
import CropCodecs
import CropKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `cropkit apply RECIPE.json IN... (-o OUT | --out-dir DIR) [--max-size N]`.
package struct ApplyCommand: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "apply",
        abstract: "Replay a saved crop recipe on photos of any resolution, in parallel.",
        discussion: """
            A recipe (written by `cropkit crop --save-recipe`, the `demo`, or the editor) stores the crop as \
            fractions of the displayed picture, with its straighten angle, turns, flips and aspect. Applied to \
            another file with the same content at any size (a full-resolution original and its preview, say), it \
            selects the same region and renders it at that file's resolution, or at most --max-size.

            Files are processed --jobs at a time, with a progress bar on a terminal and one line per file \
            otherwise. A file that fails is reported, the others still complete, and the exit status is 1. A \
            recipe that cannot be read is an error before any file is touched.

            Examples:
              cropkit crop photo.jpg -o level.jpg --straighten 4 --save-recipe crop.json
              cropkit apply crop.json original.jpg -o cropped.jpg
              cropkit apply crop.json shoot/*.jpg --out-dir cropped --max-size 2048
            """)

    @Argument(help: "The recipe (JSON).")
    package var recipe: String

    @Argument(help: "The input images (JPEG, PNG, WebP, HEIC/HEIF, AVIF, GIF, TIFF, BMP, JPEG XL or JPEG 2000).")
    package var inputs: [String]

    @OptionGroup var destination: BatchOutputOptions

    @Option(help: ArgumentHelp("Scale down so that the longer side is at most this many pixels.", valueName: "n"))
    package var maxSize: Int?

    @OptionGroup var common: CommonOptions

    package func validate() throws {
        if inputs.isEmpty { throw ValidationError("Give at least one input image after the recipe.") }
        try destination.validate(inputCount: inputs.count)
        if let maxSize, maxSize < 1 { throw ValidationError("--max-size must be at least 1, got \(maxSize).") }
    }

    package func run() throws {
        let loaded: Recipe
        do {
            loaded = try Recipe(json: Data(try FileIO.readFile(atPath: recipe)))
        } catch {
            printError("cropkit apply: \(recipe): \(describe(error))")
            throw ExitCode.failure
        }
        let batch = try Batch(command: "apply", inputs: inputs, destination: destination) { input in
            common.format ?? ImageFormat(pathExtensionOf: input)?.defaultOutput ?? .jpeg
        }
        let steps: [ImageOperation] =
            [.recipe(loaded)]
            + (maxSize.map { [.fit(within: PixelSize(validWidth: $0, height: $0))] } ?? [])
        let options = common.saveOptions
        try batch.run(options: common, progress: destination.progress) { job, pipeline in
            Written(try pipeline.run(.file(job.input), steps, to: .file(job.output, options: options)))
        }
    }
}
