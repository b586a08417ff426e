import ArgumentParser
import CropCodecs
import CropKit

/// `cropkit resize IN -o OUT (--width W | --height H | --size WxH) [--mode] [--gravity] [--filter] …`.
package struct ResizeCommand: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "resize",
        abstract: "Resize a photo to a width, a height or a box, decoding JPEGs at a reduced scale when it can.",
        discussion: """
            Sizes are in displayed pixels (after the EXIF orientation). With --size WxH, --mode says how the \
            picture meets the box: fit (inside it, aspect kept; the default), fill (covering it, the overhang cut \
            off where --gravity says), pad (fit, then padded to the box with --background, placed by --gravity) or \
            stretch (exactly the box, aspect not kept).

            Nothing is enlarged unless --allow-upscale is given: a fit stops at the source size, a fill keeps the \
            box's proportions at most at the source's resolution, a pad centres the unenlarged picture in the box.

            Examples:
              cropkit resize photo.jpg -o small.jpg --width 1920
              cropkit resize photo.jpg -o thumb.jpg --size 256x256 --mode fit --quality 85
              cropkit resize photo.jpg -o sq.jpg --size 800x800 --mode fill --gravity top
              cropkit resize logo.png -o p.png --size 400x400 --mode pad --background white
              cropkit resize photo.jpg -o big.jpg --width 8000 --allow-upscale
            """)

    @Argument(help: "The input image (JPEG, PNG, WebP, HEIC/HEIF, AVIF, GIF, TIFF, BMP, JPEG XL or JPEG 2000).")
    package var input: String

    @Option(name: [.short, .long], help: "The output file.")
    package var output: String

    @OptionGroup var resize: ResizeStepOptions

    @OptionGroup var placement: GravityOptions

    @OptionGroup var blur: FaceBlurOptions

    @OptionGroup var mark: WatermarkOptions

    @OptionGroup var common: CommonOptions

    package func validate() throws {
        _ = try resize.request(gravity: placement.gravity, focus: placement.focus?.gravity)
    }

    package func run() throws {
        let request = try resize.request(gravity: placement.gravity, focus: placement.focus?.gravity)
        let pipeline = common.pipeline(threads: common.jobs ?? 0)
        let options = common.saveOptions
        try runSingleFile("resize", FileJob(input: input, output: output), options: common) {
            let steps = [.resize(request)] + [blur.operation, try mark.operation()].compactMap { $0 }
            return Written(try pipeline.run(.file(input), steps, to: .file(output, options: options)))
        }
    }
}
