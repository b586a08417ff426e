import ArgumentParser
import CropKit

/// `cropkit round IN -o OUT --radius R|circle [--border B]`.
package struct RoundCommand: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "round",
        abstract: "Round a picture's corners, or cut its largest centred square as a circle.",
        discussion: """
            The picture is turned upright first. The corners become transparent (anti-aliased), so write PNG: a \
            JPEG output has no alpha and shows white corners. --radius circle keeps the largest centred square, cut \
            as a circle. --border makes a transparent margin of that many pixels inside the edges (the size does \
            not change).

            Examples:
              cropkit round photo.jpg -o rounded.png --radius 40
              cropkit round portrait.jpg -o avatar.png --radius circle
              cropkit round card.png -o card-inset.png --radius 16 --border 8
            """)

    @Argument(help: "The input image (JPEG, PNG, WebP, HEIC/HEIF, AVIF, GIF, TIFF, BMP, JPEG XL or JPEG 2000).")
    package var input: String

    @Option(name: [.short, .long], help: "The output file.")
    package var output: String

    @Option(help: ArgumentHelp("The corner radius in pixels, or circle.", valueName: "r|circle"))
    package var radius: RadiusArgument

    @Option(help: ArgumentHelp("A transparent margin inside the edges, in pixels.", valueName: "b"))
    package var border = 0

    @OptionGroup var common: CommonOptions

    package func validate() throws {
        if border < 0 { throw ValidationError("--border must be at least 0, got \(border).") }
    }

    package func run() throws {
        let pipeline = common.pipeline(threads: common.jobs ?? 0)
        let options = common.saveOptions
        try runSingleFile("round", FileJob(input: input, output: output), options: common) {
            Written(
                try pipeline.run(
                    .file(input), [.roundCorners(radius.radius, border: border)], to: .file(output, options: options)))
        }
    }
}
