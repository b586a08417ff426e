import ArgumentParser
import CropKit

// Values the commands parse from their arguments. Each one either parses completely or is refused with a message
// that argument-parser turns into a usage error (exit status 64).

/// `--rect X,Y,W,H`: a rectangle in the displayed picture's pixels (fractions allowed).
struct RectArgument: ExpressibleByArgument, CustomStringConvertible {
    /// The rectangle.
    let rect: Rect

    init?(argument: String) {
        guard let rect = OptionValue.rect(argument) else { return nil }
        self.rect = rect
    }

    var description: String { "\(rect.minX.compact),\(rect.minY.compact),\(rect.width.compact),\(rect.height.compact)" }

    static var defaultValueDescription: String { "X,Y,W,H" }
}

/// `--size WxH`: a box in pixels.
struct SizeArgument: ExpressibleByArgument, CustomStringConvertible {
    /// The box.
    let size: PixelSize

    init?(argument: String) {
        guard let size = OptionValue.size(argument) else { return nil }
        self.size = size
    }

    var description: String { "\(size.width)x\(size.height)" }
}

/// `--aspect W:H|original|free`.
struct AspectArgument: ExpressibleByArgument, CustomStringConvertible {
    /// The lock.
    let lock: AspectLock

    init?(argument: String) {
        guard let lock = try? AspectLock(string: argument) else { return nil }
        self.lock = lock
    }

    var description: String { lock.description }
}

/// `--straighten DEGREES|auto`: a straighten angle, or the one auto-straighten measures.
struct StraightenArgument: ExpressibleByArgument, CustomStringConvertible {
    /// The step.
    let step: ImageOperation
    let description: String

    init?(argument: String) {
        guard let step = OptionValue.straightenStep(argument) else { return nil }
        self.step = step
        description = argument
    }

    /// Whether the angle is measured rather than given.
    var isAutomatic: Bool { if case .autoStraighten = step { true } else { false } }
}

/// `--turn 90|180|270|-90`: clockwise quarter turns after the EXIF orientation.
struct TurnArgument: ExpressibleByArgument, CustomStringConvertible {
    /// Clockwise quarter turns, 0…3.
    let quarterTurns: Int
    private let degrees: Int

    init?(argument: String) {
        guard let turns = OptionValue.quarterTurns(argument), let degrees = Int(argument) else { return nil }
        self.degrees = degrees
        quarterTurns = turns
    }

    var description: String { "\(degrees)" }

    static var allValueStrings: [String] { ["90", "180", "270", "-90"] }
}

/// `--flip horizontal|vertical`.
enum FlipArgument: String, ExpressibleByArgument, CaseIterable {
    case horizontal, vertical
}

/// `--mode fit|fill|pad|stretch`.
enum ModeArgument: String, ExpressibleByArgument, CaseIterable {
    case fit, fill, pad, stretch
}

/// `--gravity center|top|…|bottom-right|attention|entropy`: where `fill` keeps the picture (an alignment, or the most
/// interesting part) and `pad` places it (alignments only).
extension Gravity: ExpressibleByArgument {
    public init?(argument: String) {
        guard let match = OptionValue.gravity(argument) else { return nil }
        self = match
    }

    public var defaultValueDescription: String { argumentName }

    public static var allValueStrings: [String] {
        Alignment.allCases.map { OptionValue.name(of: $0) } + ["attention", "entropy"]
    }

    public static var allValueDescriptions: [String: String] { [:] }

    public static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }

    /// `topLeft` → `top-left`; `attention`, `entropy`; `x,y` for a focus.
    var argumentName: String {
        switch self {
        case .alignment(let alignment): OptionValue.name(of: alignment)
        case .attention: "attention"
        case .entropy: "entropy"
        case .focus(let point): "\(point.x),\(point.y)"
        case .pixelFocus(let point): "\(point.x),\(point.y)px"
        }
    }
}

/// `--focus X,Y`: a focal point as fractions of the picture, or `X,Ypx` in its displayed pixels.
struct FocusArgument: ExpressibleByArgument {
    var gravity: Gravity

    init?(argument: String) {
        guard let gravity = OptionValue.focus(argument) else { return nil }
        self.gravity = gravity
    }
}

/// `--filter nearest|box|bilinear|bicubic|mitchell|lanczos3`.
enum FilterArgument: String, ExpressibleByArgument, CaseIterable {
    case nearest, box, bilinear, bicubic, mitchell, lanczos3

    /// The library's filter (`bicubic` is Catmull-Rom).
    var filter: ResamplingFilter { OptionValue.filter(rawValue)! }
}

/// `--background COLOR`: `#RGB`, `#RRGGBB`, `#RRGGBBAA`, `transparent`, `white` or `black`.
struct ColorArgument: ExpressibleByArgument, CustomStringConvertible {
    /// The colour.
    let color: PixelColor
    private let text: String

    init?(argument: String) {
        guard let color = OptionValue.color(argument) else { return nil }
        text = argument
        self.color = color
    }

    var description: String { text }

    static var defaultValueDescription: String { "transparent" }
}

/// `--radius R|circle`.
struct RadiusArgument: ExpressibleByArgument, CustomStringConvertible {
    /// The radius.
    let radius: CornerRadius

    init?(argument: String) {
        if argument.lowercased() == "circle" {
            radius = .circle
        } else if let r = Double(argument), r.isFinite, r >= 0 {
            radius = .pixels(r)
        } else {
            return nil
        }
    }

    var description: String {
        switch radius {
        case .circle: "circle"
        case .pixels(let r): r.compact
        }
    }
}

/// `--progress auto|bar|lines|none`: how a batch reports its files.
enum ProgressArgument: String, ExpressibleByArgument, CaseIterable {
    /// A bar when standard output is a terminal, else one line per file.
    case auto
    /// A bar with files done, total, rate and ETA, redrawn in place.
    case bar
    /// One line per file.
    case lines
    /// Nothing but errors.
    case none
}

extension Double {
    /// `7.5`, `12` (no trailing `.0`).
    var compact: String {
        self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self)
    }
}
