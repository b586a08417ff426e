import ArgumentParser
import CropKit

/// `--width`, `--height`, `--size`, `--mode`, `--filter`, `--linear`, `--background`, `--allow-upscale`: a resize,
/// shared by `resize` and `placeholder`.
package struct ResizeStepOptions: ParsableArguments {
    package init() {}

    @Option(help: "The output width; the height keeps the aspect ratio.")
    package var width: Int?

    @Option(help: "The output height; the width keeps the aspect ratio.")
    package var height: Int?

    @Option(help: ArgumentHelp("The box to resize into, WIDTHxHEIGHT.", valueName: "WxH"))
    package var size: SizeArgument?

    @Option(help: "How the picture meets a --size box: fit, fill, pad or stretch.")
    package var mode: ResizeRequest.ModeName = .fit

    @Option(help: "The resampling filter.")
    package var filter: FilterArgument = .lanczos3

    @Flag(help: "Filter in linear light (more accurate on high-contrast edges, slower).")
    package var linear = false

    @Option(help: "The padding colour for --mode pad: #RRGGBB, #RRGGBBAA, #RGB, white, black or transparent.")
    package var background: ColorArgument?

    @Flag(help: "Allow the output to be larger than the source.")
    package var allowUpscale = false

    /// Whether any size is given.
    package var isGiven: Bool { width != nil || height != nil || size != nil }

    /// The resize the flags ask for, placed by `gravity` or `focus`; the rules between them are `ResizeRequest`'s,
    /// in the flags' words.
    package func request(gravity: Gravity?, focus: Gravity?) throws -> ResizeRequest {
        do {
            return try ResizeRequest(
                width: width, height: height, size: size?.size, mode: mode, gravity: gravity, focus: focus,
                background: background?.color, filter: filter.filter, linearLight: linear, allowUpscale: allowUpscale)
        } catch {
            throw ValidationError(error)
        }
    }
}
