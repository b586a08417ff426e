import ArgumentParser
import CropCodecs
import CropKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `--presets FILE --preset NAME`: the image service's presets file (`cropkit serve --presets`), so a team that renders
/// at build time with the command line and on demand with the service keeps one definition of "avatar" (`convert`,
/// `placeholder`).
package struct PresetOptions: ParsableArguments {
    package init() {}

    @Option(
        help: ArgumentHelp("The presets file `cropkit serve --presets` reads: NAME=QUERY lines.", valueName: "file"))
    package var presets: String?

    @Option(
        help: ArgumentHelp(
            "Run this preset of --presets as the service runs it: the same steps and encoding, byte for byte.",
            valueName: "name"))
    package var preset: String?

    @Option(
        name: .customLong("preset-watermark"),
        help: ArgumentHelp(
            "A mark the presets name with watermark=NAME, as cropkit serve --watermark gives it: NAME=FILE. Repeat for more.",
            valueName: "name=file"))
    package var watermarks: [String] = []

    @Option(
        name: .customLong("preset-font"),
        help: ArgumentHelp(
            "A font the presets draw watermark-text in with font=NAME, as cropkit serve --font gives it: NAME=FILE. Repeat for more.",
            valueName: "name=file"))
    package var fonts: [String] = []

    package func validate() throws {
        if (presets == nil) != (preset == nil) {
            throw ValidationError("--presets FILE and --preset NAME go together.")
        }
        if preset == nil, !watermarks.isEmpty || !fonts.isEmpty {
            throw ValidationError("--preset-watermark and --preset-font go with --preset.")
        }
    }

    /// The preset's parameters parsed as the service parses them, or `nil` without `--preset`.
    package func query() throws -> ImageQuery? {
        guard let presets, let preset else { return nil }
        let text = String(decoding: try FileIO.readFile(atPath: presets), as: UTF8.self)
        do throws(CropKitError) {
            return try ImageQuery(
                query: "preset=" + preset, presets: try PresetFile.parse(text),
                watermarks: try Watermark.named(watermarks),
                fonts: try Watermark.fonts(named: fonts))
        } catch {
            throw CommandError("\(presets): \(commandLine(error))")
        }
    }

    /// The pipeline the service runs a preset with (its shrink-on-load headroom), using at most `threads` threads.
    package func pipeline(strict: Bool, threads: Int) -> ImagePipeline {
        ImagePipeline(strict: strict, shrinkOnLoadHeadroom: ImageQuery.serviceShrinkOnLoadHeadroom, maxThreads: threads)
    }
}
