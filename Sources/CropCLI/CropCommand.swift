import ArgumentParser
import CropCodecs
import CropKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `cropkit crop IN -o OUT [--rect] [--straighten] [--turn] [--flip] [--aspect] [--max-size]`.
package struct CropCommand: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "crop",
        abstract: "Crop, straighten, turn and flip a photo at full resolution, in one resampling pass.",
        discussion: """
            Coordinates are those of the picture as any viewer shows it: --rect is in displayed pixels, after the \
            file's EXIF orientation. Then --turn and --flip apply, then --straighten turns the picture \
            counter-clockwise by that many degrees (negative: clockwise) as seen in the output. --straighten auto \
            measures the tilt of the picture's horizon or verticals (see `cropkit analyze`) and applies it when it is \
            sure, saying by how much; when it is not (no dominant straight lines, as in a flat lay or a close-up), \
            it leaves the angle at 0 with a warning.

            Without --rect, a straightened crop is the largest rectangle of the aspect (default: the picture's own) \
            centred in the picture, with no fill pixels. With --rect, the rectangle's centre and aspect are kept and \
            it shrinks by the smallest factor that leaves no fill pixels. A rectangle partly outside the picture is \
            clipped to it (with a warning); one entirely outside is an error.

            The output has the crop's size in displayed source pixels, or is scaled down so that its longer side is \
            at most --max-size; it is never enlarged unless --allow-upscale is given. With --aspect W:H its size is \
            exactly proportional (k·W × k·H); the aspect applies to the crop on the displayed picture, so an odd \
            --turn makes a 16:9 crop a 9:16 output. --save-recipe writes the crop as a resolution-independent recipe that \
            `cropkit apply` replays on other sizes of the same photo. With --aspect W:H and no --rect, --gravity \
            places the crop: an alignment (top, bottom-right …), attention or entropy (the part with the most \
            interest, as `cropkit analyze` proposes it), or --focus X,Y keeps a focal point as near the middle as \
            the picture allows.

            Examples:
              cropkit crop photo.jpg -o straight.jpg --straighten 7.5
              cropkit crop sea.jpg -o level.jpg --straighten auto --save-recipe level.json
              cropkit crop photo.jpg -o face.jpg --rect 1200,400,800,800 --max-size 512
              cropkit crop photo.jpg -o banner.jpg --aspect 16:9 --save-recipe b.json
              cropkit crop photo.jpg -o square.jpg --aspect 1:1 --gravity attention
              cropkit crop scan.png -o page.png --turn 90 --flip horizontal
            """)

    @Argument(help: "The input image (JPEG, PNG, WebP, HEIC/HEIF, AVIF, GIF, TIFF, BMP, JPEG XL or JPEG 2000).")
    package var input: String

    @Option(name: [.short, .long], help: "The output file.")
    package var output: String

    @OptionGroup var crop: CropStepOptions

    @Option(help: ArgumentHelp("Scale down so that the longer side is at most this many pixels.", valueName: "n"))
    package var maxSize: Int?

    @Flag(help: "With --max-size, enlarge a smaller crop so that its longer side reaches it.")
    package var allowUpscale = false

    @Option(help: ArgumentHelp("Also write the crop's recipe (JSON) to this file.", valueName: "file"))
    package var saveRecipe: String?

    @OptionGroup var placement: GravityOptions

    @OptionGroup var blur: FaceBlurOptions

    @OptionGroup var mark: WatermarkOptions

    @OptionGroup var common: CommonOptions

    package func validate() throws {
        _ = try crop.aspectStep(gravity: placement.gravity, focus: placement.focus?.gravity)
        if let maxSize, maxSize < 1 { throw ValidationError("--max-size must be at least 1, got \(maxSize).") }
        if allowUpscale && maxSize == nil { throw ValidationError("--allow-upscale needs --max-size.") }
    }

    package func run() throws {
        let pipeline = common.pipeline(threads: common.jobs ?? 0)
        let sink = ImageSink.file(output, options: common.saveOptions)
        try runSingleFile("crop", FileJob(input: input, output: output), options: common) {
            if let saveRecipe { try FileIO.checkCanCreate(path: saveRecipe, overwrite: common.force) }
            let written: WrittenFile
            do {
                written = try pipeline.run(.file(input), operations(), to: sink)
            } catch CropKitError.invalidRequest(name: "crop", _) where crop.rect != nil {
                // Say it in the command line's terms: the flag as given, the picture as shown.
                let shown = try ImageSource.file(input).info(strict: common.strict).displayedSize
                throw CommandError(
                    "--rect \(crop.rect.map(String.init(describing:)) ?? "") lies entirely outside the "
                        + "\(Console.size(shown)) picture")
            }
            if let saveRecipe {
                try FileIO.writeAtomically(
                    [UInt8](written.report.cropState.recipe.json()), toPath: saveRecipe, overwrite: common.force)
            }
            return Written(written) { warning in
                guard case .cropClipped(_, let clipped, let picture) = warning else { return warning.description }
                guard !common.quiet, let rect = crop.rect else { return nil }
                let size = PixelSize(validWidth: Int(picture.width), height: Int(picture.height))
                return "--rect \(rect) reaches outside the \(Console.size(size)) picture; clipped to "
                    + "\(clipped.minX.compact),\(clipped.minY.compact),\(clipped.width.compact),\(clipped.height.compact)"
            }
        }
    }

    /// The pipeline steps the arguments stand for: the crop's (see ``CropStepOptions/steps(_:)``), then the size and
    /// the face blur.
    package func operations() throws -> [ImageOperation] {
        var steps = try crop.steps(gravity: placement.gravity, focus: placement.focus?.gravity)
        if let maxSize {
            steps.append(.fit(within: PixelSize(validWidth: maxSize, height: maxSize), allowUpscale: allowUpscale))
        }
        if let step = blur.operation { steps.append(step) }
        if let step = try mark.operation() { steps.append(step) }
        return steps
    }
}
