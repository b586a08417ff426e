import ArgumentParser
import CropKit
import Foundation

/// `cropkit crop IN -o OUT [--rect] [--straighten] [--turn] [--flip] [--aspect] [--max-size]`.
struct CropCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crop",
        abstract: "Crop, straighten, turn and flip a photo at full resolution, in one resampling pass.",
        discussion: """
            Coordinates are those of the picture as any viewer shows it: --rect is in displayed pixels, after the \
            file's EXIF orientation. Then --turn and --flip apply, then --straighten turns the picture \
            counter-clockwise by that many degrees (negative: clockwise) as seen in the output.

            Without --rect, a straightened crop is the largest rectangle of the aspect (default: the picture's own) \
            centred in the picture, with no fill pixels. With --rect, the rectangle's centre and aspect are kept and \
            it shrinks by the smallest factor that leaves no fill pixels. A rectangle partly outside the picture is \
            clipped to it (with a warning); one entirely outside is an error.

            The output has the crop's size in displayed source pixels, or is scaled down so that its longer side is \
            at most --max-size; it is never enlarged unless --allow-upscale is given. With --aspect W:H its size is \
            exactly proportional (k·W × k·H); the aspect applies to the crop on the displayed picture, so an odd \
            --turn makes a 16:9 crop a 9:16 output. --save-recipe writes the crop as a resolution-independent recipe that \
            `cropkit apply` replays on other sizes of the same photo.

            Examples:
              cropkit crop photo.jpg -o straight.jpg --straighten 7.5
              cropkit crop photo.jpg -o face.jpg --rect 1200,400,800,800 --max-size 512
              cropkit crop photo.jpg -o banner.jpg --aspect 16:9 --save-recipe b.json
              cropkit crop scan.png -o page.png --turn 90 --flip horizontal
            """)

    @Argument(help: "The input image (JPEG or PNG).")
    var input: String

    @Option(name: [.short, .long], help: "The output file.")
    var output: String

    @Option(help: "The rectangle to keep, in displayed pixels: left, top, width, height (default: the whole picture).")
    var rect: RectArgument?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Straighten: degrees counter-clockwise (negative: clockwise), −45…45.", valueName: "degrees"))
    var straighten = 0.0

    @Option(parsing: .unconditional, help: "Turn clockwise by 90, 180, 270 or -90 degrees, after the EXIF orientation.")
    var turn: TurnArgument?

    @Option(help: "Mirror after the turn: horizontal or vertical (repeat for both).")
    var flip: [FlipArgument] = []

    @Option(help: "Aspect of the crop before any --turn: W:H, original (the picture's) or free.")
    var aspect: AspectArgument?

    @Option(help: ArgumentHelp("Scale down so that the longer side is at most this many pixels.", valueName: "n"))
    var maxSize: Int?

    @Flag(help: "With --max-size, enlarge a smaller crop so that its longer side reaches it.")
    var allowUpscale = false

    @Option(help: ArgumentHelp("Also write the crop's recipe (JSON) to this file.", valueName: "file"))
    var saveRecipe: String?

    @OptionGroup var common: CommonOptions

    func validate() throws {
        guard straighten.isFinite, abs(straighten) <= 45 else {
            throw ValidationError("--straighten must be between -45 and 45 degrees, got \(straighten.compact).")
        }
        if let maxSize, maxSize < 1 { throw ValidationError("--max-size must be at least 1, got \(maxSize).") }
        if allowUpscale && maxSize == nil { throw ValidationError("--allow-upscale needs --max-size.") }
    }

    func run() throws {
        let job = FileJob(input: input, output: output)
        let pipeline = common.pipeline(threads: common.jobs ?? 0)
        let options = common.saveOptions
        try runSingleFile("crop", job, options: common) {
            if let saveRecipe { try FileIO.checkCanCreate(path: saveRecipe, overwrite: common.force) }
            let info = try ImageSource.file(input).info(strict: common.strict)
            let state = try cropState(info: info)
            let result = try CropCommand.render(
                state, input: input, output: output, maxSize: maxSize, allowUpscale: allowUpscale,
                pipeline: pipeline, options: options)
            if let saveRecipe {
                try FileIO.writeAtomically([UInt8](state.recipe.json()), toPath: saveRecipe, overwrite: common.force)
            }
            return result
        }
    }

    /// The crop state for a picture with `info`, from the arguments.
    func cropState(info: ImageInfo) throws -> CropState {
        var crop: Rect?
        if let rect = rect?.rect {
            let shown = info.displayedSize
            let picture = Rect(x: 0, y: 0, width: Double(shown.width), height: Double(shown.height))
            guard let inside = rect.intersection(picture), !inside.isEmpty else {
                throw CommandError(
                    "--rect \(self.rect!) lies entirely outside the \(Console.size(shown)) picture")
            }
            if inside != rect && !common.quiet {
                let clipped = "\(inside.minX.compact),\(inside.minY.compact),\(inside.width.compact),\(inside.height.compact)"
                printError(
                    "cropkit crop: warning: \(input): --rect \(self.rect!) reaches outside the \(Console.size(shown)) "
                        + "picture; clipped to \(clipped)")
            }
            crop = inside
        }
        let flips = flip.reduce(into: (h: false, v: false)) { flips, f in
            if f == .horizontal { flips.h.toggle() } else { flips.v.toggle() }
        }
        return try CropState(
            sourceSize: info.storedSize, orientation: info.orientation, crop: crop,
            quarterTurns: turn?.quarterTurns ?? 0, flipHorizontal: flips.h, flipVertical: flips.v,
            straighten: straighten, aspect: aspect?.lock)
    }

    /// Renders `state` from `input` to `output`: at full resolution, scaled down to `maxSize`, or (with
    /// `allowUpscale`) enlarged to it, keeping an aspect lock's exact proportions.
    static func render(
        _ state: CropState, input: String, output: String, maxSize: Int?, allowUpscale: Bool,
        pipeline: ImagePipeline, options: SaveOptions
    ) throws -> Written {
        let cap = maxSize.map { PixelSize(validWidth: $0, height: $0) }
        let natural = state.renderPlan().outputSize
        guard let maxSize, allowUpscale, max(natural.width, natural.height) < maxSize else {
            return Written(try pipeline.render(
                .file(input), .state(state), maximumSize: cap, to: .file(output), options: options))
        }
        // Enlarging: render at full resolution, then resample up with the library's sizing rule.
        try FileIO.checkCanCreate(path: output, overwrite: options.overwrite)
        let full = try pipeline.render(.file(input), .state(state))
        guard let image = full.image else { throw CommandError("the render returned no image") }
        let target = OutputSizing.outputSize(
            cropSize: Size(width: Double(natural.width), height: Double(natural.height)),
            aspectRatio: state.aspectRatio, scale: Double(maxSize) / Double(max(natural.width, natural.height)))
        let enlarged = Image(pixels: try image.pixels.resized(to: target), metadata: image.metadata)
        var encoding = options
        encoding.format = options.format ?? ImageFormat(pathExtensionOf: output)
        guard encoding.format != nil else {
            throw CommandError("cannot tell the output format from the name \(output); use .jpg or .png, or --format")
        }
        let bytes = try enlarged.encoded(options: encoding)
        try FileIO.writeAtomically(bytes, toPath: output, overwrite: options.overwrite)
        return Written(size: target, byteCount: bytes.count, warnings: full.warnings.map(\.description))
    }
}
