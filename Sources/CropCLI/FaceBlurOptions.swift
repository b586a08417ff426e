import ArgumentParser
import CropKit

/// `--blur-faces [--blur-style blur|pixelate] [--blur-strength F] [--blur-padding F]`: hide the faces in the output
/// (`crop`, `resize`, `thumbnail`, `convert`).
package struct FaceBlurOptions: ParsableArguments {
    package init() {}

    @Flag(help: "Blur every face found in the output (faces from 6% of its short side); nothing else changes.")
    package var blurFaces = false

    @Option(help: "How --blur-faces hides a face: blur or pixelate.")
    package var blurStyle: FaceBlur.Style = .blur

    @Option(help: "The blur's radius, or the pixelation's squares, as a fraction of the face's width (0.02…1).")
    package var blurStrength: Double = FaceBlur().strength

    @Option(help: "How much around each head --blur-faces hides too, as a fraction of the face's width (0…2).")
    package var blurPadding: Double = FaceBlur().padding

    /// The step the flags ask for, `nil` without `--blur-faces`.
    package var operation: ImageOperation? {
        blurFaces ? .blurFaces(FaceBlur(style: blurStyle, strength: blurStrength, padding: blurPadding)) : nil
    }

    package func validate() throws {
        guard blurStrength.isFinite, (0.02...1).contains(blurStrength) else {
            throw ValidationError("--blur-strength must be a fraction from 0.02 to 1; got \(blurStrength).")
        }
        guard blurPadding.isFinite, (0...2).contains(blurPadding) else {
            throw ValidationError("--blur-padding must be a fraction from 0 to 2; got \(blurPadding).")
        }
    }
}

extension FaceBlur.Style: ExpressibleByArgument {}
