import ArgumentParser
import CropKit

/// `--rect`, `--straighten`, `--turn`, `--flip`, `--aspect`: the crop's geometric steps, shared by `crop` and
/// `placeholder`.
package struct CropStepOptions: ParsableArguments {
    package init() {}

    @Option(help: "The rectangle to keep, in displayed pixels: left, top, width, height (default: the whole picture).")
    package var rect: RectArgument?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Straighten: degrees counter-clockwise (negative: clockwise), −45…45, or auto.", valueName: "degrees|auto"))
    package var straighten: StraightenArgument?

    @Option(parsing: .unconditional, help: "Turn clockwise by 90, 180, 270 or -90 degrees, after the EXIF orientation.")
    package var turn: TurnArgument?

    @Option(help: "Mirror after the turn: horizontal or vertical (repeat for both).")
    package var flip: [FlipArgument] = []

    @Option(help: "Aspect of the crop before any --turn: W:H, original (the picture's) or free.")
    package var aspect: AspectArgument?

    /// The steps in the order `crop --help` describes: the aspect and the rectangle (the largest rectangle of the
    /// aspect inside it, or placed by `gravity` or `focus`), turns, flips, then the straighten.
    package func steps(gravity: Gravity?, focus: Gravity?) throws -> [ImageOperation] {
        var steps: [ImageOperation] = []
        if let step = try aspectStep(gravity: gravity, focus: focus) { steps.append(step) }
        if let rect = rect?.rect { steps.append(.crop(rect)) }
        steps += Array(repeating: .turn(.clockwise), count: turn?.quarterTurns ?? 0)
        steps += flip.map { .flip($0 == .horizontal ? .horizontal : .vertical) }
        if let straighten { steps.append(straighten.step) }
        return steps
    }

    /// The aspect step, placed by --gravity or --focus when given; the rule between them is `ImageOperation`'s, in
    /// the flags' words. (`--gravity center` is the default, so it places nothing.)
    package func aspectStep(gravity: Gravity?, focus: Gravity?) throws -> ImageOperation? {
        do {
            return try ImageOperation.aspect(aspect?.lock, gravity: gravity, focus: focus, withRect: rect != nil)
        } catch {
            throw ValidationError(error)
        }
    }
}
