import ArgumentParser
import CropCodecs
import CropKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `cropkit placeholder IN --kind blurhash|thumbhash|preview [crop and resize options] [-o OUT]`.
package struct PlaceholderCommand: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "placeholder",
        abstract:
            "Print a BlurHash, a ThumbHash or a tiny preview of the finished picture, as JSON, for a page to show while it loads.",
        discussion: """
            The placeholder is computed on the picture the other options make (the crop, straighten and resize of \
            `crop` and `resize`, or a --recipe), so it matches the rendition it stands in for, from a copy of at \
            most 100 pixels a side decoded at a reduced scale. The JSON has kind, value (the hash, or a data: URL \
            of at most 1024 characters for a preview) and width and height (the finished picture's, for the page to \
            reserve its box). With -o it is written to that file atomically.

            Examples:
              cropkit placeholder photo.jpg --kind blurhash --aspect 4:3 --width 1600
              cropkit placeholder photo.jpg --kind thumbhash --size 800x800 --mode fill
              cropkit placeholder photo.jpg --kind preview --straighten 7.5 -o preview.json
            """)

    @Argument(help: "The input image (JPEG, PNG, WebP, HEIC/HEIF, AVIF, GIF, TIFF, BMP, JPEG XL or JPEG 2000).")
    package var input: String

    @Option(help: "What to compute: blurhash, thumbhash or preview.")
    package var kind: Placeholder.Kind = .blurhash

    @Option(
        help: ArgumentHelp(
            "BlurHash components across and down, each 1–9 (default: 4 along the longer side, 3 or 4 along the other).",
            valueName: "XxY"))
    package var components: SizeArgument?

    @Option(help: ArgumentHelp("Apply this crop recipe (JSON) first, as `cropkit apply` does.", valueName: "file"))
    package var recipe: String?

    @OptionGroup var crop: CropStepOptions

    @OptionGroup var resize: ResizeStepOptions

    @OptionGroup var placement: GravityOptions

    @OptionGroup var preset: PresetOptions

    @Option(name: [.short, .long], help: "Write the JSON to this file instead of standard output.")
    package var output: String?

    @Flag(help: "Replace an existing output file.")
    package var force = false

    @Flag(help: "Treat the decoder's corrupt-data warnings as errors.")
    package var strict = false

    package func validate() throws {
        let steps = try operations(recipe: nil)
        if preset.preset != nil, recipe != nil || !steps.isEmpty {
            throw ValidationError("--preset gives the steps; leave out --recipe and the crop and resize options.")
        }
        _ = try operations(recipe: nil)
        if let components {
            guard kind == .blurhash else { throw ValidationError("--components applies only to --kind blurhash.") }
            let range = BlurHash.componentRange
            guard range.contains(components.size.width), range.contains(components.size.height) else {
                throw ValidationError("--components \(components) must be 1–9 across and down.")
            }
        }
    }

    package func run() throws {
        do {
            let loaded = try recipe.map { try Recipe(json: Data(try FileIO.readFile(atPath: $0))) }
            if let output { try FileIO.checkCanCreate(path: output, overwrite: force) }
            let query = try preset.query()
            let pipeline = query == nil ? ImagePipeline(strict: strict) : preset.pipeline(strict: strict, threads: 0)
            let given = components.map { (x: $0.size.width, y: $0.size.height) }
            let placeholder = try pipeline.placeholder(
                .file(input), try query?.operations ?? operations(recipe: loaded), kind: kind,
                components: given ?? query?.components.map { (x: $0.width, y: $0.height) })
            let line = placeholder.json + "\n"
            if let output {
                try FileIO.writeAtomically(Array(line.utf8), toPath: output, overwrite: force)
            } else {
                Console.out(line)
            }
        } catch let error as ValidationError {
            throw error
        } catch {
            printError("cropkit placeholder: \(input): \(describe(error))")
            throw ExitCode.failure
        }
    }

    /// The recipe, the crop's steps and the resize; `--gravity` places the `--aspect` crop when there is one, else
    /// the resize.
    private func operations(recipe: Recipe?) throws -> [ImageOperation] {
        let gravity = placement.gravity, focus = placement.focus?.gravity
        let aspectPlaced = crop.aspect != nil
        var steps =
            (recipe.map { [ImageOperation.recipe($0)] } ?? [])
            + (try crop.steps(gravity: aspectPlaced ? gravity : nil, focus: aspectPlaced ? focus : nil))
        if resize.isGiven {
            steps.append(
                .resize(try resize.request(gravity: aspectPlaced ? nil : gravity, focus: aspectPlaced ? nil : focus)))
        }
        return steps
    }
}

extension Placeholder.Kind: ExpressibleByArgument {}
