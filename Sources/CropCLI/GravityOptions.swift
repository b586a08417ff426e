import ArgumentParser
import CropKit

/// `--gravity G | --focus X,Y`: which part a fill or a thumbnail keeps (`resize`, `thumbnail`), or where an aspect
/// crop goes (`crop --aspect W:H`).
package struct GravityOptions: ParsableArguments {
    package init() {}

    @Option(
        help:
            "Which part a fill or an --aspect crop keeps (an alignment, attention, entropy or face); for resize --mode pad, where it goes. (default: center)"
    )
    package var gravity: Gravity?

    @Option(
        help: ArgumentHelp(
            "Keep this point as near the middle as the picture allows: fractions (0.5,0.5 is the centre), or displayed pixels with px (1200,800px).",
            valueName: "x,y"))
    package var focus: FocusArgument?

    /// The gravity the flags ask for: the focus when given, else `--gravity`.
    package var resolved: Gravity { focus?.gravity ?? gravity ?? .center }

    package func validate() throws {
        if focus != nil && gravity != nil { throw ValidationError("Give --focus or --gravity, not both.") }
    }
}
