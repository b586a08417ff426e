import ArgumentParser
import CropCodecs
import CropKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `cropkit demo [--out-dir DIR]`: every operation once, on the bundled samples.
package struct DemoCommand: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Show what CropKit does on the bundled sample photo: writes a folder of results and times them.",
        discussion: """
            Uses three pictures that come with the tool: a real photo stored sideways (1200×1800 with EXIF \
            orientation 6, so it is shown 1800×1200), a 660×315 RGBA PNG and an iPhone HEIC (4032×3024 grid \
            tiles, Display P3). Writes into ./cropkit-demo (or --out-dir), replacing the demo's own files from an \
            earlier run:

              upright.jpg                   the photo with its orientation baked into the pixels
              thumbnail-256.png             a 256 px square thumbnail with rounded corners
              straightened-7.5.jpg          straightened 7.5°, the largest 3:2 crop with no fill, full resolution
              straightened-7.5.json         the recipe of that crop (see `cropkit apply`)
              avatar-circle.png             a 1:1 avatar, 512 px, cut as a circle
              fit-800x800.jpg               resized to fit inside 800×800
              fill-800x800.jpg              resized to fill 800×800, the overhang cut off
              watercolor-pad-400x400.png    the RGBA picture fitted and padded to 400×400 on transparency
              iphone-thumbnail-256.webp     the iPhone HEIC as a 256 px square WebP thumbnail
              iphone-srgb-1600.jpg          the iPhone HEIC fitted in 1600 px, converted from Display P3 to sRGB

            A step whose codec library is not installed (libheif, libwebp) is reported as skipped.

            Each file is listed with its pixel size, byte size and the time it took.

            Examples:
              swift run -c release cropkit demo
              cropkit demo --out-dir /tmp/demo
            """)

    @Option(help: ArgumentHelp("The folder to write into (created if missing).", valueName: "dir"))
    package var outDir = "cropkit-demo"

    @Flag(name: [.short, .long], help: "Print nothing but errors.")
    package var quiet = false

    /// One demo output.
    private struct Step {
        let name: String
        let what: String
        let make: (String) throws -> Written
    }

    package func run() throws {
        let samples: String
        do {
            samples = try Samples.directory()
            try Console.createFolder(outDir)
        } catch {
            printError("cropkit demo: \(describe(error))")
            throw ExitCode.failure
        }
        let photo = samples + "/" + Samples.photo, rgba = samples + "/" + Samples.rgba
        let heic = samples + "/" + Samples.heic
        let pipeline = ImagePipeline()
        let jpeg = SaveOptions(format: .jpeg, quality: 90, overwrite: true)
        let png = SaveOptions(format: .png, overwrite: true)
        let info: ImageInfo
        do {
            info = try ImageSource.file(photo).info()
        } catch {
            printError("cropkit demo: \(photo): \(describe(error))")
            throw ExitCode.failure
        }
        /// One pipeline run per file: the chain, and the options of the file it writes.
        func make(_ source: String, _ operations: [ImageOperation], _ options: SaveOptions) -> (String) throws ->
            Written
        {
            { path in Written(try pipeline.run(.file(source), operations, to: .file(path, options: options))) }
        }
        let box = PixelSize(validWidth: 800, height: 800)
        let steps: [Step] = [
            Step(
                name: "upright.jpg", what: "EXIF orientation \(info.orientation.exifValue) baked into the pixels",
                make: make(photo, [], jpeg)),
            Step(
                name: "thumbnail-256.png", what: "256 px square thumbnail, corner radius 32",
                make: make(photo, [.thumbnail(ThumbnailRequest(side: 256, cornerRadius: 32))], png)),
            Step(
                name: "straightened-7.5.jpg", what: "straightened 7.5°, largest 3:2 crop, full resolution",
                make: make(photo, [.straighten(7.5)], jpeg)),
            Step(name: "straightened-7.5.json", what: "the recipe of that crop") { path in
                let state = try pipeline.cropState(.file(photo), [.straighten(7.5)])
                let json = [UInt8](state.recipe.json())
                try FileIO.writeAtomically(json, toPath: path, overwrite: true)
                return Written(size: state.outputSize, byteCount: json.count)
            },
            Step(
                name: "avatar-circle.png", what: "1:1 avatar, 512 px, cut as a circle",
                make: make(
                    photo,
                    [
                        .aspect(.square), .fit(within: PixelSize(validWidth: 512, height: 512)),
                        .roundCorners(.circle),
                    ], png)),
            Step(
                name: "fit-800x800.jpg", what: "aspect fit inside 800×800",
                make: make(photo, [.resize(ResizeRequest(.box(box)))], jpeg)),
            Step(
                name: "fill-800x800.jpg", what: "aspect fill of 800×800, centre kept",
                make: make(photo, [.resize(ResizeRequest(.box(box), mode: .fill()))], jpeg)),
            Step(
                name: "watercolor-pad-400x400.png", what: "RGBA sample fitted and padded on transparency",
                make: make(
                    rgba, [.resize(ResizeRequest(.box(PixelSize(validWidth: 400, height: 400)), mode: .pad()))], png)),
            Step(
                name: "iphone-thumbnail-256.webp", what: "iPhone HEIC (grid tiles) → 256 px square WebP thumbnail",
                make: make(
                    heic, [.thumbnail(ThumbnailRequest(side: 256))],
                    SaveOptions(format: .webp, quality: 80, overwrite: true))),
            Step(
                name: "iphone-srgb-1600.jpg", what: "iPhone HEIC fitted in 1600 px, Display P3 → sRGB (lcms2)",
                make: make(
                    heic, [.fit(within: PixelSize(validWidth: 1600, height: 1600))],
                    SaveOptions(format: .jpeg, quality: 90, colorProfile: .sRGB, overwrite: true))),
        ]
        if !quiet {
            Console.out(
                "CropKit demo on \(Samples.photo) (stored \(Console.size(info.storedSize)), EXIF orientation "
                    + "\(info.orientation.exifValue), shown \(Console.size(info.displayedSize))), \(Samples.rgba) "
                    + "and \(Samples.heic)\n")
        }
        let nameWidth = steps.map(\.name.count).max()!
        var failed = 0, skipped = 0
        let total = Stopwatch()
        for step in steps {
            let path = Paths.joined(outDir, step.name)
            let clock = Stopwatch()
            do {
                let written = try step.make(path)
                if !quiet {
                    let name = Console.padded(step.name, to: nameWidth)
                    let size = Console.padded(Console.size(written.size), to: 10)
                    let bytes = Console.bytes(written.byteCount)
                    let time = Console.duration(clock.elapsed)
                    Console.out(
                        "  \(name)  \(size) \(String(repeating: " ", count: max(0, 7 - bytes.count)))\(bytes)  "
                            + "\(String(repeating: " ", count: max(0, 7 - time.count)))\(time)  \(step.what)\n")
                }
            } catch CropKitError.codec(.libraryUnavailable(_, let reason)) {
                skipped += 1
                if !quiet { Console.out("  \(step.name): skipped, \(reason)\n") }
            } catch {
                failed += 1
                printError("cropkit demo: \(step.name): \(describe(error))")
            }
        }
        if !quiet {
            let folder = URL(fileURLWithPath: outDir).standardizedFileURL.path
            Console.out(
                "Wrote \(steps.count - failed - skipped) files to \(folder) in \(Console.duration(total.elapsed))"
                    + (skipped > 0 ? " (\(skipped) skipped).\n" : ".\n"))
        }
        if failed > 0 { throw ExitCode.failure }
    }
}
