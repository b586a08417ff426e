import ArgumentParser
import CropKit

/// Where a batch command writes (`-o` for one input, `--out-dir` for any number) and how it reports progress.
package struct BatchOutputOptions: ParsableArguments {
    package init() {}

    @Option(name: [.short, .long], help: "The output file (only with a single input).")
    package var output: String?

    @Option(
        help: ArgumentHelp(
            "The folder to write into, created if missing; each output is named after its input.", valueName: "dir"))
    package var outDir: String?

    @Option(help: "Progress report: auto (a bar on a terminal, one line per file otherwise), bar, lines or none.")
    package var progress: ProgressArgument = .auto

    /// Checks that exactly one destination is given and that `-o` has a single input.
    package func validate(inputCount: Int) throws {
        switch (output, outDir) {
        case (nil, nil): throw ValidationError("Give -o OUT (one input) or --out-dir DIR.")
        case (.some, .some): throw ValidationError("Give -o or --out-dir, not both.")
        case (.some, nil) where inputCount != 1:
            throw ValidationError("-o takes a single input; use --out-dir DIR for \(inputCount) inputs.")
        default: break
        }
    }
}
