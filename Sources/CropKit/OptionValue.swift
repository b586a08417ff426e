import CropAnalysis
import CropCodecs
import CropEngine
import CropGeometry
import CropPixels

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The text forms of CropKit's option values, shared by every face that takes options as text: the `cropkit` command
/// line's flags and `cropkit serve`'s URL parameters read a rectangle, a size, a turn, a colour, a gravity or a filter
/// the same way, so `--rect 10,20,300,200` and `rect=10,20,300,200` mean one thing.
///
/// Each function returns `nil` for text it does not accept; the face says which option it was.
package enum OptionValue {
    /// `X,Y,W,H`: a rectangle in displayed pixels (fractions allowed, spaces ignored; width and height above 0).
    package static func rect(_ text: String) -> Rect? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { Double(String($0.filter { $0 != " " })) }
        guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3],
            [x, y, w, h].allSatisfy(\.isFinite), w > 0, h > 0
        else { return nil }
        return Rect(x: x, y: y, width: w, height: h)
    }

    /// `WxH` (or `W×H`): a box of whole pixels, each side 1…2²⁰.
    package static func size(_ text: String) -> PixelSize? {
        let parts = text.lowercased().split(omittingEmptySubsequences: false) { $0 == "x" || $0 == "×" }
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w >= 1, h >= 1, w <= 1 << 20,
            h <= 1 << 20
        else { return nil }
        return PixelSize(validWidth: w, height: h)
    }

    /// `90`, `180`, `270` or `-90` (any multiple of 90 in −270…270): clockwise quarter turns, 0…3.
    package static func quarterTurns(_ text: String) -> Int? {
        guard let degrees = Int(text), degrees % 90 == 0, (-270...270).contains(degrees) else { return nil }
        return ((degrees / 90) % 4 + 4) % 4
    }

    /// `horizontal` or `vertical`.
    package static func flip(_ text: String) -> FlipAxis? {
        FlipAxis(rawValue: text.lowercased())
    }

    /// A straighten angle in degrees, −45…45.
    package static func straighten(_ text: String) -> Double? {
        guard let degrees = Double(text), degrees.isFinite, abs(degrees) <= 45 else { return nil }
        return degrees
    }

    /// `auto` (``ImageOperation/autoStraighten(minimumConfidence:)`` at the default confidence) or degrees −45…45
    /// (``ImageOperation/straighten(_:)``): the straighten step the text stands for.
    package static func straightenStep(_ text: String) -> ImageOperation? {
        if text.lowercased() == "auto" { return .autoStraighten() }
        return straighten(text).map(ImageOperation.straighten)
    }

    /// `#RGB`, `#RRGGBB`, `#RRGGBBAA` (the `#` optional), `transparent`, `white` or `black`.
    package static func color(_ text: String) -> PixelColor? {
        switch text.lowercased() {
        case "transparent": return .transparent
        case "white": return .white
        case "black": return .black
        default:
            var hex = Substring(text)
            if hex.first == "#" { hex = hex.dropFirst() }
            guard [3, 6, 8].contains(hex.count), hex.allSatisfy(\.isHexDigit), let value = UInt32(hex, radix: 16)
            else { return nil }
            switch hex.count {
            case 3:
                let (r, g, b) = ((value >> 8) & 0xF, (value >> 4) & 0xF, value & 0xF)
                return PixelColor(red: UInt8(r * 17), green: UInt8(g * 17), blue: UInt8(b * 17))
            case 6:
                return PixelColor(
                    red: UInt8((value >> 16) & 0xFF), green: UInt8((value >> 8) & 0xFF), blue: UInt8(value & 0xFF))
            default:
                return PixelColor(
                    red: UInt8(value >> 24), green: UInt8((value >> 16) & 0xFF), blue: UInt8((value >> 8) & 0xFF),
                    alpha: UInt8(value & 0xFF))
            }
        }
    }

    /// A gravity: an alignment in kebab case (`center`, `top`, `top-left` … `bottom-right`), `attention`, `entropy`
    /// or `face`.
    package static func gravity(_ text: String) -> Gravity? {
        switch text {
        case "attention": .attention
        case "entropy": .entropy
        case "face": .face
        default: alignment(text).map(Gravity.alignment)
        }
    }

    /// An alignment in kebab case: `center`, `top`, `top-left` … `bottom-right`.
    package static func alignment(_ text: String) -> Alignment? {
        Alignment.allCases.first { name(of: $0) == text }
    }

    /// A focal point: `X,Y` as fractions of the picture (0…1 each, from the top-left corner), a `Gravity.focus`;
    /// or `X,Ypx` (or `Xpx,Ypx`) in the displayed picture's pixels, a `Gravity.pixelFocus` (each ≥ 0). Decided: pixels are marked, so `1,1` is never ambiguous.
    package static func focus(_ text: String) -> Gravity? {
        var text = Substring(text)
        var inPixels = false
        if text.hasSuffix("px") {
            inPixels = true
            text = text.dropLast(2)
        }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { part -> Substring in
            guard inPixels, part.hasSuffix("px") else { return part }
            return part.dropLast(2)
        }
        guard parts.count == 2, let x = Double(parts[0]), let y = Double(parts[1]), x.isFinite, y.isFinite else {
            return nil
        }
        if inPixels { return x >= 0 && y >= 0 ? .pixelFocus(Point(x: x, y: y)) : nil }
        guard (0...1).contains(x), (0...1).contains(y) else { return nil }
        return .focus(Point(x: x, y: y))
    }

    /// The kebab-case name of `alignment` (`topLeft` → `top-left`).
    package static func name(of alignment: Alignment) -> String {
        alignment.rawValue.reduce(into: "") { name, character in
            if character.isUppercase { name += "-" + character.lowercased() } else { name.append(character) }
        }
    }

    /// The resampling filters by name: `nearest`, `box`, `bilinear`, `bicubic` (Catmull-Rom), `mitchell`,
    /// `lanczos3`.
    package static let filters: [(name: String, filter: ResamplingFilter)] = [
        ("nearest", .nearest), ("box", .box), ("bilinear", .bilinear), ("bicubic", .catmullRom),
        ("mitchell", .mitchell), ("lanczos3", .lanczos3),
    ]

    /// A filter by the name ``filters`` gives it.
    package static func filter(_ text: String) -> ResamplingFilter? {
        filters.first { $0.name == text }?.filter
    }

    /// An output format by name: `jpeg`/`jpg`, `png`, `webp`, `avif`, `heic`/`heif`, `gif`, `jxl`.
    package static func format(_ text: String) -> ImageFormat? {
        switch text.lowercased() {
        case "jpeg", "jpg": .jpeg
        case "png": .png
        case "webp": .webp
        case "avif": .avif
        case "heic", "heif": .heif
        case "gif": .gif
        case "jxl": .jxl
        default: nil
        }
    }

    /// The output formats by the names every face lists them with.
    package static let formatNames = ["jpeg", "png", "webp", "avif", "heic", "gif", "jxl"]

    /// "jpeg, png, webp, avif, heic, gif or jxl", with `more` names (such as `auto`) at the end.
    package static func formatList(adding more: [String] = []) -> String {
        let names = formatNames + more
        return names.dropLast().joined(separator: ", ") + " or " + names.last!
    }

    /// Unpadded base64url (RFC 4648 §5), as a recipe travels in a URL; `nil` for anything else.
    package static func base64URLDecoded(_ text: String) -> Data? {
        guard text.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }), text.allSatisfy(\.isASCII)
        else { return nil }
        var base64 = text.replacing("-", with: "+").replacing("_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
