import ArgumentParser
import CropKit

/// `--watermark FILE` or `--watermark-text TEXT --font FILE [--watermark-color C] [--watermark-outline C]
/// [--watermark-shadow C]`, with `[--watermark-gravity A] [--watermark-scale F] [--watermark-opacity F]
/// [--watermark-margin F] [--watermark-tile]`: a mark over the output (`crop`, `resize`, `thumbnail`, `convert`).
package struct WatermarkOptions: ParsableArguments {
    package init() {}

    @Option(
        help: ArgumentHelp(
            "Lay this picture (PNG, WebP or AVIF with alpha; its ICC profile honoured) over the output, after every other step.",
            valueName: "file"))
    package var watermark: String?

    @Option(
        help: ArgumentHelp(
            "Lay this line of text over the output instead of a picture, drawn in --font.", valueName: "text"))
    package var watermarkText: String?

    @Option(
        help: ArgumentHelp(
            "The font for --watermark-text: a TrueType or OpenType file (FreeType and HarfBuzz draw it).",
            valueName: "file"))
    package var font: String?

    @Option(
        help: ArgumentHelp(
            "The text's colour: #RGB, #RRGGBB, #RRGGBBAA, white or black (default white).", valueName: "color"))
    package var watermarkColor: ColorArgument?

    @Option(
        help: ArgumentHelp("Draw a line of this colour around the text, 1/16 of its size wide.", valueName: "color"))
    package var watermarkOutline: ColorArgument?

    @Option(
        help: ArgumentHelp(
            "Cast a soft shadow of this colour under the text, 1/16 of its size to the right and down.",
            valueName: "color"))
    package var watermarkShadow: ColorArgument?

    @Option(
        help: ArgumentHelp("Where the watermark goes: an alignment (default bottom-right).", valueName: "alignment"))
    package var watermarkGravity: AlignmentArgument = AlignmentArgument(.bottomRight)

    @Option(
        help: ArgumentHelp("The watermark's width as a fraction of the output's (0…1, default 0.25).", valueName: "f"))
    package var watermarkScale = 0.25

    @Option(help: ArgumentHelp("The watermark's opacity, 0…1 (default 1).", valueName: "f"))
    package var watermarkOpacity = 1.0

    @Option(
        help: ArgumentHelp(
            "The space between the watermark and the edges (and between tiles) as a fraction of the output's shorter side (0…0.5, default 0.02).",
            valueName: "f"))
    package var watermarkMargin = 0.02

    @Flag(help: "Repeat the watermark over the whole output instead of placing it once.")
    package var watermarkTile = false

    package func validate() throws {
        let given =
            watermarkScale != 0.25 || watermarkOpacity != 1 || watermarkMargin != 0.02 || watermarkTile
            || watermarkGravity.alignment != .bottomRight
        if watermark != nil && watermarkText != nil {
            throw ValidationError("Give --watermark FILE or --watermark-text TEXT, not both.")
        }
        if (watermarkText == nil) != (font == nil) { throw ValidationError("--watermark-text and --font go together.") }
        if watermarkText == nil && (watermarkColor != nil || watermarkOutline != nil || watermarkShadow != nil) {
            throw ValidationError(
                "--watermark-color, --watermark-outline and --watermark-shadow need --watermark-text.")
        }
        if watermark == nil && watermarkText == nil && given {
            throw ValidationError("The --watermark-… options need --watermark FILE or --watermark-text TEXT.")
        }
        // The ranges are Watermark's, checked on a 1-pixel mark so a bad value fails before any file is read.
        do {
            _ = try Watermark(
                image: try PixelBuffer(width: 1, height: 1, layout: .rgba, samples: [UInt8](repeating: 0, count: 4)),
                scale: watermarkScale, opacity: watermarkOpacity, margin: watermarkMargin)
        } catch let error as CropKitError {
            throw ValidationError(error)
        }
    }

    /// The step the flags ask for, the mark read from its file or drawn in its font; `nil` without a mark.
    package func operation() throws -> ImageOperation? {
        let content: Watermark.Content
        if let watermark {
            content = try Watermark(contentsOfFile: watermark).content
        } else if let watermarkText, let font {
            content = .text(
                try TextMark(
                    watermarkText, font: try FontFace(contentsOfFile: font), color: watermarkColor?.color ?? .white,
                    outline: watermarkOutline?.color, shadow: watermarkShadow?.color))
        } else {
            return nil
        }
        return .watermark(
            try Watermark(
                content, gravity: watermarkGravity.alignment, scale: watermarkScale, opacity: watermarkOpacity,
                margin: watermarkMargin, tile: watermarkTile))
    }
}

/// An alignment argument: `center`, `top`, … `bottom-right`.
package struct AlignmentArgument: ExpressibleByArgument, CustomStringConvertible {
    package let alignment: Alignment

    package init(_ alignment: Alignment) { self.alignment = alignment }

    package init?(argument: String) {
        guard let alignment = OptionValue.alignment(argument) else { return nil }
        self.alignment = alignment
    }

    package var description: String { OptionValue.name(of: alignment) }

    package static var allValueStrings: [String] { Alignment.allCases.map { OptionValue.name(of: $0) } }
}
