import ArgumentParser
import CropCodecs
import CropKit

/// `cropkit orient IN -o OUT`.
package struct OrientCommand: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "orient",
        abstract: "Bake the EXIF orientation into the pixels, so that every program shows the picture upright.",
        discussion: """
            The stored pixels are turned and mirrored as the EXIF orientation says (a lossless permutation before \
            re-encoding) and written with orientation 1. The ICC profile and the rest of the EXIF block are kept \
            unless --strip is given.

            Examples:
              cropkit orient IMG_0001.jpg -o upright.jpg
              cropkit orient IMG_0001.jpg -o upright.png --strip
            """)

    @Argument(help: "The input image (JPEG, PNG, WebP, HEIC/HEIF, AVIF, GIF, TIFF, BMP, JPEG XL or JPEG 2000).")
    package var input: String

    @Option(name: [.short, .long], help: "The output file.")
    package var output: String

    @OptionGroup var common: CommonOptions

    package func run() throws {
        let pipeline = common.pipeline(threads: common.jobs ?? 0)
        let options = common.saveOptions
        try runSingleFile("orient", FileJob(input: input, output: output), options: common) {
            Written(try pipeline.run(.file(input), [], to: .file(output, options: options)))
        }
    }
}
