import ArgumentParser
import CropCodecs
import CropKit

/// `cropkit thumbnail IN... (-o OUT | --out-dir DIR) --size N [--border B] [--corner-radius R] [--filter F]`.
package struct ThumbnailCommand: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "thumbnail",
        abstract: "Make square thumbnails of many photos in parallel, optionally with rounded corners.",
        discussion: """
            Each thumbnail is exactly N×N pixels: the picture (upright, whatever its EXIF orientation) scales to \
            cover the square and the longer side is cut about the centre. --border leaves a transparent margin \
            inside the square and --corner-radius rounds the picture's corners; both need PNG to stay transparent, \
            so with --out-dir they default to PNG output (other thumbnails keep their input's format).

            Files are processed --jobs at a time. On a terminal a progress bar shows files done, the total, the \
            rate and the time left; otherwise one line is printed per file. A file that fails is reported with its \
            name and the reason, the others still complete, and the exit status is 1.

            Examples:
              cropkit thumbnail photo.jpg -o thumb.jpg --size 256
              cropkit thumbnail photos/*.jpg --out-dir thumbs --size 256 --corner-radius 24
              cropkit thumbnail *.png --out-dir t --size 128 --border 8 --jobs 4
            """)

    @Argument(help: "The input images (JPEG, PNG, WebP, HEIC/HEIF, AVIF, GIF, TIFF, BMP, JPEG XL or JPEG 2000).")
    package var inputs: [String]

    @OptionGroup var destination: BatchOutputOptions

    @Option(help: ArgumentHelp("The square's side in pixels, border included.", valueName: "n"))
    package var size: Int

    @Option(help: ArgumentHelp("A transparent border inside the square, in pixels.", valueName: "b"))
    package var border = 0

    @Option(help: ArgumentHelp("The picture's corner radius in pixels (size/2 or more: a circle).", valueName: "r"))
    package var cornerRadius = 0.0

    @Option(help: "The resampling filter.")
    package var filter: FilterArgument = .lanczos3

    @Flag(help: "Filter in linear light.")
    package var linear = false

    @OptionGroup var placement: GravityOptions

    @OptionGroup var blur: FaceBlurOptions

    @OptionGroup var mark: WatermarkOptions

    @OptionGroup var common: CommonOptions

    package func validate() throws {
        if inputs.isEmpty { throw ValidationError("Give at least one input image.") }
        try destination.validate(inputCount: inputs.count)
        guard size >= 1 else { throw ValidationError("--size must be at least 1, got \(size).") }
        guard border >= 0, size - 2 * border >= 1 else {
            throw ValidationError("--border \(border) leaves no picture in a \(size) px square.")
        }
        guard cornerRadius.isFinite, cornerRadius >= 0 else {
            throw ValidationError("--corner-radius must be a number ≥ 0, got \(cornerRadius).")
        }
    }

    package func run() throws {
        let transparent = border > 0 || cornerRadius > 0
        let batch = try Batch(command: "thumbnail", inputs: inputs, destination: destination) { input in
            common.format ?? (transparent ? .png : ImageFormat(pathExtensionOf: input)?.defaultOutput ?? .jpeg)
        }
        let request = ThumbnailRequest(
            side: size, border: border, cornerRadius: cornerRadius, filter: filter.filter, linearLight: linear,
            gravity: placement.resolved)
        let options = common.saveOptions
        let steps = [ImageOperation.thumbnail(request)] + [blur.operation, try mark.operation()].compactMap { $0 }
        try batch.run(options: common, progress: destination.progress) { job, pipeline in
            Written(try pipeline.run(.file(job.input), steps, to: .file(job.output, options: options)))
        }
    }
}
