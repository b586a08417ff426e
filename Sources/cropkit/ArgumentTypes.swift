import ArgumentParser
import CropKit

// Values the commands parse from their arguments. Each one either parses completely or is refused with a message
// that argument-parser turns into a usage error (exit status 64).

/// `--rect X,Y,W,H`: a rectangle in the displayed picture's pixels (fractions allowed).
struct RectArgument: ExpressibleByArgument, CustomStringConvertible {
    /// The rectangle.
    let rect: Rect

    init?(argument: String) {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false)
            .map { Double(String($0.filter { $0 != " " })) }
        guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3],
            [x, y, w, h].allSatisfy(\.isFinite), w > 0, h > 0
        else { return nil }
        rect = Rect(x: x, y: y, width: w, height: h)
    }

    var description: String { "\(rect.minX.compact),\(rect.minY.compact),\(rect.width.compact),\(rect.height.compact)" }

    static var defaultValueDescription: String { "X,Y,W,H" }
}

/// `--size WxH`: a box in pixels.
struct SizeArgument: ExpressibleByArgument, CustomStringConvertible {
    /// The box.
    let size: PixelSize

    init?(argument: String) {
        let parts = argument.lowercased().split(omittingEmptySubsequences: false) { $0 == "x" || $0 == "×" }
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w >= 1, h >= 1,
            w <= 1 << 20, h <= 1 << 20
        else { return nil }
        size = PixelSize(validWidth: w, height: h)
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

/// `--turn 90|180|270|-90`: clockwise quarter turns after the EXIF orientation.
struct TurnArgument: ExpressibleByArgument, CustomStringConvertible {
    /// Clockwise quarter turns, 0…3.
    let quarterTurns: Int
    private let degrees: Int

    init?(argument: String) {
        guard let degrees = Int(argument), degrees % 90 == 0, (-270...270).contains(degrees) else { return nil }
        self.degrees = degrees
        quarterTurns = ((degrees / 90) % 4 + 4) % 4
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

/// `--gravity center|top|…|bottom-right`: where `fill` keeps the picture and `pad` places it. The library's
/// ``Alignment`` cases, spelt in kebab case on the command line.
extension Alignment: ExpressibleByArgument {
    public init?(argument: String) {
        guard let match = Self.allCases.first(where: { $0.argumentName == argument }) else { return nil }
        self = match
    }

    public var defaultValueDescription: String { argumentName }

    public static var allValueStrings: [String] { allCases.map(\.argumentName) }

    public static var allValueDescriptions: [String: String] { [:] }

    public static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }

    /// `topLeft` → `top-left`.
    var argumentName: String {
        rawValue.reduce(into: "") { name, character in
            if character.isUppercase { name += "-" + character.lowercased() } else { name.append(character) }
        }
    }
}

/// `--filter nearest|box|bilinear|bicubic|mitchell|lanczos3`.
enum FilterArgument: String, ExpressibleByArgument, CaseIterable {
    case nearest, box, bilinear, bicubic, mitchell, lanczos3

    /// The library's filter (`bicubic` is Catmull-Rom).
    var filter: ResamplingFilter {
        switch self {
        case .nearest: .nearest
        case .box: .box
        case .bilinear: .bilinear
        case .bicubic: .catmullRom
        case .mitchell: .mitchell
        case .lanczos3: .lanczos3
        }
    }
}

/// `--background COLOR`: `#RGB`, `#RRGGBB`, `#RRGGBBAA`, `transparent`, `white` or `black`.
struct ColorArgument: ExpressibleByArgument, CustomStringConvertible {
    /// The colour.
    let color: PixelColor
    private let text: String

    init?(argument: String) {
        text = argument
        switch argument.lowercased() {
        case "transparent": color = .transparent
        case "white": color = .white
        case "black": color = .black
        default:
            var hex = Substring(argument)
            if hex.first == "#" { hex = hex.dropFirst() }
            guard [3, 6, 8].contains(hex.count), let value = UInt32(hex, radix: 16) else { return nil }
            switch hex.count {
            case 3:
                let (r, g, b) = ((value >> 8) & 0xF, (value >> 4) & 0xF, value & 0xF)
                color = PixelColor(red: UInt8(r * 17), green: UInt8(g * 17), blue: UInt8(b * 17))
            case 6:
                color = PixelColor(
                    red: UInt8((value >> 16) & 0xFF), green: UInt8((value >> 8) & 0xFF), blue: UInt8(value & 0xFF))
            default:
                color = PixelColor(
                    red: UInt8(value >> 24), green: UInt8((value >> 16) & 0xFF), blue: UInt8((value >> 8) & 0xFF),
                    alpha: UInt8(value & 0xFF))
            }
        }
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
