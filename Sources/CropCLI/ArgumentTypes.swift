import ArgumentParser
import CropKit

// Values the commands parse from their arguments. Each one either parses completely or is refused with a message
// that argument-parser turns into a usage error (exit status 64).

/// `--rect X,Y,W,H`: a rectangle in the displayed picture's pixels (fractions allowed).
package struct RectArgument: ExpressibleByArgument, CustomStringConvertible {
    /// The rectangle.
    package let rect: Rect

    package init?(argument: String) {
        guard let rect = OptionValue.rect(argument) else { return nil }
        self.rect = rect
    }

    package var description: String {
        "\(rect.minX.compact),\(rect.minY.compact),\(rect.width.compact),\(rect.height.compact)"
    }

    package static var defaultValueDescription: String { "X,Y,W,H" }
}

/// `--size WxH`: a box in pixels.
package struct SizeArgument: ExpressibleByArgument, CustomStringConvertible {
    /// The box.
    package let size: PixelSize

    package init?(argument: String) {
        guard let size = OptionValue.size(argument) else { return nil }
        self.size = size
    }

    package var description: String { "\(size.width)x\(size.height)" }
}

/// `--aspect W:H|original|free`.
package struct AspectArgument: ExpressibleByArgument, CustomStringConvertible {
    /// The lock.
    package let lock: AspectLock

    package init?(argument: String) {
        guard let lock = try? AspectLock(string: argument) else { return nil }
        self.lock = lock
    }

    package var description: String { lock.description }
}

/// `--straighten DEGREES|auto`: a straighten angle, or the one auto-straighten measures.
package struct StraightenArgument: ExpressibleByArgument, CustomStringConvertible {
    /// The step.
    package let step: ImageOperation
    package let description: String

    package init?(argument: String) {
        guard let step = OptionValue.straightenStep(argument) else { return nil }
        self.step = step
        description = argument
    }

    /// Whether the angle is measured rather than given.
    package var isAutomatic: Bool { if case .autoStraighten = step { true } else { false } }
}

/// `--turn 90|180|270|-90`: clockwise quarter turns after the EXIF orientation.
package struct TurnArgument: ExpressibleByArgument, CustomStringConvertible {
    /// Clockwise quarter turns, 0…3.
    package let quarterTurns: Int
    private let degrees: Int

    package init?(argument: String) {
        guard let turns = OptionValue.quarterTurns(argument), let degrees = Int(argument) else { return nil }
        self.degrees = degrees
        quarterTurns = turns
    }

    package var description: String { "\(degrees)" }

    package static var allValueStrings: [String] { ["90", "180", "270", "-90"] }
}

/// `--flip horizontal|vertical`.
package enum FlipArgument: String, ExpressibleByArgument, CaseIterable {
    case horizontal, vertical
}

/// `--mode fit|fill|pad|stretch`.
extension ResizeRequest.ModeName: ExpressibleByArgument {}

extension ValidationError {
    /// A request type's refusal in the command line's words: the option it names as its flag.
    init(_ error: CropKitError) {
        self.init(commandLine(error))
    }
}

extension CropKitError {
    /// Whether this is an output setting's refusal (which the command line words as its flag).
    var isInvalidOption: Bool {
        if case .invalidOption = self { true } else { false }
    }
}

/// A library refusal in the command line's words: the argument or setting it names, as its flag.
package func commandLine(_ error: CropKitError) -> String {
    switch error {
    case .invalidRequest(let name, let reason): "--\(name): \(reason)."
    case .invalidOption(let setting, let reason): "--\(setting.rawValue): \(reason)."
    default: error.description
    }
}

/// `--gravity center|top|…|bottom-right|attention|entropy|face`: where `fill` keeps the picture (an alignment, the
/// most interesting part, or the people) and `pad` places it (alignments only).
extension Gravity: ExpressibleByArgument {
    public init?(argument: String) {
        guard let match = OptionValue.gravity(argument) else { return nil }
        self = match
    }

    public var defaultValueDescription: String { argumentName }

    public static var allValueStrings: [String] {
        Alignment.allCases.map { OptionValue.name(of: $0) } + ["attention", "entropy", "face"]
    }

    public static var allValueDescriptions: [String: String] { [:] }

    public static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }

    /// `topLeft` → `top-left`; `attention`, `entropy`, `face`; `x,y` for a focus.
    package var argumentName: String {
        switch self {
        case .alignment(let alignment): OptionValue.name(of: alignment)
        case .attention: "attention"
        case .entropy: "entropy"
        case .face: "face"
        case .focus(let point): "\(point.x),\(point.y)"
        case .pixelFocus(let point): "\(point.x),\(point.y)px"
        }
    }
}

/// `--focus X,Y`: a focal point as fractions of the picture, or `X,Ypx` in its displayed pixels.
package struct FocusArgument: ExpressibleByArgument {
    package var gravity: Gravity

    package init?(argument: String) {
        guard let gravity = OptionValue.focus(argument) else { return nil }
        self.gravity = gravity
    }
}

/// `--filter nearest|box|bilinear|bicubic|mitchell|lanczos3`.
package enum FilterArgument: String, ExpressibleByArgument, CaseIterable {
    case nearest, box, bilinear, bicubic, mitchell, lanczos3

    /// The library's filter (`bicubic` is Catmull-Rom).
    package var filter: ResamplingFilter { OptionValue.filter(rawValue)! }
}

/// `--background COLOR`: `#RGB`, `#RRGGBB`, `#RRGGBBAA`, `transparent`, `white` or `black`.
package struct ColorArgument: ExpressibleByArgument, CustomStringConvertible {
    /// The colour.
    package let color: PixelColor
    private let text: String

    package init?(argument: String) {
        guard let color = OptionValue.color(argument) else { return nil }
        text = argument
        self.color = color
    }

    package var description: String { text }

    package static var defaultValueDescription: String { "transparent" }
}

/// `--radius R|circle`.
package struct RadiusArgument: ExpressibleByArgument, CustomStringConvertible {
    /// The radius.
    package let radius: CornerRadius

    package init?(argument: String) {
        if argument.lowercased() == "circle" {
            radius = .circle
        } else if let r = Double(argument), r.isFinite, r >= 0 {
            radius = .pixels(r)
        } else {
            return nil
        }
    }

    package var description: String {
        switch radius {
        case .circle: "circle"
        case .pixels(let r): r.compact
        }
    }
}

/// `--progress auto|bar|lines|none`: how a batch reports its files.
package enum ProgressArgument: String, ExpressibleByArgument, CaseIterable {
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
    package var compact: String {
        self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self)
    }
}

// The library's own enums, spelled as the flags take them (the values `--help` lists).

/// `--scale 1|2|4|8`.
extension JPEGScale: ExpressibleByArgument {
    public init?(argument: String) {
        guard let denominator = Int(argument), let scale = JPEGScale(rawValue: denominator) else { return nil }
        self = scale
    }

    public static var allValueStrings: [String] { allCases.map { String($0.rawValue) } }
}

/// `--early-stop off|exact|dc`.
extension JPEGEarlyStop: ExpressibleByArgument {
    public init?(argument: String) {
        guard let stop = Self.allCases.first(where: { Self.flagName(of: $0) == argument }) else { return nil }
        self = stop
    }

    public static var allValueStrings: [String] { allCases.map(flagName(of:)) }

    /// The flag's spelling: the case's name, `dc` for ``dcOnly``.
    private static func flagName(of stop: JPEGEarlyStop) -> String { stop == .dcOnly ? "dc" : stop.rawValue }
}

/// `--subsampling auto|444|422|420`: a chroma subsampling, or `auto` (nil: the encoder's choice by quality,
/// `ChromaSubsampling.automatic(quality:)`).
package struct SubsamplingArgument: ExpressibleByArgument, CustomStringConvertible {
    /// The subsampling; nil for `auto`.
    package let value: ChromaSubsampling?

    package static let automatic = SubsamplingArgument(value: nil)

    private init(value: ChromaSubsampling?) { self.value = value }

    package init?(argument: String) {
        if argument == "auto" {
            value = nil
            return
        }
        guard let subsampling = ChromaSubsampling.allCases.first(where: { Self.name(of: $0) == argument }) else {
            return nil
        }
        value = subsampling
    }

    /// `444` for 4:4:4: the digits of the ratio.
    private static func name(of subsampling: ChromaSubsampling) -> String { subsampling.rawValue.filter(\.isNumber) }

    package static var allValueStrings: [String] { ["auto"] + ChromaSubsampling.allCases.map(name(of:)) }

    package var description: String { value.map(Self.name(of:)) ?? "auto" }
}

extension ColorProfilePolicy: ExpressibleByArgument {}

extension MetadataPolicy: ExpressibleByArgument {}

extension FrameSelection: ExpressibleByArgument {}

extension ImageFormat: ExpressibleByArgument {
    public init?(argument: String) {
        guard let format = OptionValue.format(argument) else { return nil }
        self = format
    }

    /// The formats CropKit writes (TIFF and BMP are read only).
    public static var allValueStrings: [String] { OptionValue.formatNames }
}
