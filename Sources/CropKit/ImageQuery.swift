import CropCodecs

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The options of an image URL, `GET /img/<path>?<options>&sig=…`: the `cropkit` command line's flags as query
/// parameters, with the same names and values (`OptionValue`), applied as one pipeline run.
///
/// | parameter | value |
/// |---|---|
/// | `rect` | `X,Y,W,H` in displayed pixels |
/// | `straighten` | degrees, −45…45 (counter-clockwise), or `auto` (measured; left at 0 when unsure) |
/// | `turn` | `90`, `180`, `270`, `-90` |
/// | `flip` | `horizontal`, `vertical` (repeat, or comma-separated, for both) |
/// | `aspect` | `W:H`, `original`, `free` |
/// | `width`, `height`, `size` | one of them: a width, a height, or a `WxH` box |
/// | `mode` | `fit`, `fill`, `pad`, `stretch` (with `size`) |
/// | `gravity` | `center`, `top`, … `bottom-right`, `attention`, `entropy`, `face`: what a fill keeps, or (without a size) where an `aspect=W:H` crop goes |
/// | `focus` | `x,y` as fractions, or `x,ypx` in displayed pixels: a focal point instead of `gravity` |
/// | `filter` | `nearest`, `box`, `bilinear`, `bicubic`, `mitchell`, `lanczos3` |
/// | `linear` | flag: filter in linear light |
/// | `background` | the `pad` colour |
/// | `blur` | `faces`: hide every face found in the output (`blur-style` `blur` or `pixelate`, `blur-strength` 0.02…1 and `blur-padding` 0…2 as fractions of a face's width) |
/// | `round` | flag: a round output (the circle inscribed in it; transparent outside), as `cropkit round`; needs a format with alpha |
/// | `format` | `jpeg`, `png`, `webp`, `avif`, `heic`, `gif`, `jxl`, or `auto` (from `Accept`: AVIF, JPEG XL when named, WebP; for an animation WebP, else GIF); absent: the source's format |
/// | `frames` | `all` (default: every frame of an animated GIF, WebP or AVIF, when the output is GIF, WebP or AVIF) or `first` |
/// | `quality` | 1…100 |
/// | `icc` | `keep`, `srgb` |
/// | `strip` | flag: convert to sRGB, then drop the profile and EXIF |
/// | `metadata` | `keep`, `strip`, `icc-copyright` |
/// | `recipe` | a crop recipe, base64url JSON (instead of `rect`, `straighten`, `turn`, `flip`, `aspect`) |
/// | `preset` | a named set of these from the configuration |
/// | `watermark` | the name of a mark the operator configured (`--watermark NAME=FILE`), laid over the output after every other step; with `watermark-gravity` (an alignment, default `bottom-right`), `watermark-scale` (its width as a fraction of the output's, default 0.25), `watermark-opacity` (0…1, default 1), `watermark-margin` (a fraction of the output's shorter side, default 0.02), `watermark-tile` (flag: repeat it over the whole output) |
/// | `watermark-text` | a line of text laid over the output as `watermark` lays a picture (the same placement parameters), drawn in `font` (the name of a font the operator configured with `--font NAME=FILE`; may be left out when only one is), with `watermark-color` (default white), `watermark-outline` and `watermark-shadow` (colours: a line around the glyphs, a soft shadow under them) |
/// | `placeholder` | `blurhash`, `thumbhash` or `preview`: answer JSON (`kind`, `value`, `width`, `height`) describing the picture the other parameters make, instead of the picture; the output parameters are then ignored, so a preset's placeholder is `preset=NAME&placeholder=…` |
/// | `components` | `XxY`, each 1…9: a BlurHash's component counts (default from the proportions, e.g. `4x3`) |
///
/// Geometry applies in the command line's order: aspect, rectangle, turns, flips, straighten (or the recipe), then
/// the size. Without `width`, `height` or `size` the output is fitted within the service's largest output side.
/// Decided: a flag is on when present with no value or `1`/`true`, off with `0`/`false`.
public struct ImageQuery: Sendable {
    /// The reduction shrink-on-load leaves to the resampling filter in the image service (`cropkit serve
    /// --shrink-headroom`'s default), and so on the command line when it runs a preset: 1, the fastest, as libvips'
    /// thumbnail does (the library's own default is 2).
    public static let serviceShrinkOnLoadHeadroom = 1.0

    /// What the output format follows.
    public enum FormatChoice: Hashable, Sendable {
        /// The source's own format (PNG for read-only ones such as GIF, TIFF and BMP).
        case source
        /// The best one the client's `Accept` allows (CropServer's `FormatNegotiation`); on the command line, the output
        /// file's extension.
        case auto
        /// This one.
        case fixed(ImageFormat)
    }

    /// The pipeline steps.
    public var operations: [ImageOperation] = []
    /// How the output format is chosen.
    public var format = FormatChoice.source
    /// Quality, colour and metadata (the format is chosen per request).
    public var saveOptions = SaveOptions()
    /// The parameters as applied (presets expanded, later values winning), sorted: the identity of the output for
    /// caching.
    public var canonical: String
    /// With `placeholder=`, the placeholder to answer instead of the picture.
    public var placeholder: Placeholder.Kind?
    /// With `components=XxY`, a BlurHash's component counts.
    public var components: PixelSize?
    /// Whether a step can leave transparent pixels on an opaque source (a pad on a transparent background).
    public var addsTransparency = false
    /// The source URL (`url=…`, only where accepted: `GET /fetch`), percent-decoded. Not part of ``canonical``.
    public var sourceURL: String?

    package static let geometryNames: Set<String> = ["rect", "straighten", "turn", "flip", "aspect"]
    package static let sizeNames = ["width", "height", "size"]
    package static let resizeNames = ["mode", "gravity", "focus", "filter", "linear", "background"]
    /// `round` with `format=jpeg`, in image and editor URLs alike: JPEG cannot hold the transparent outside.
    package static let roundNeedsAlpha = CropKitError.invalidRequest(
        name: "round", reason: "a round output needs a format with alpha (png, webp, avif, heic or auto), not jpeg")
    package static let outputNames: Set<String> = ["format", "quality", "icc", "strip", "metadata", "round", "frames"]
    package static let blurNames: Set<String> = ["blur", "blur-style", "blur-strength", "blur-padding"]
    package static let placeholderNames: Set<String> = ["placeholder", "components"]
    package static let watermarkNames = Set([
        "watermark", "watermark-gravity", "watermark-scale", "watermark-opacity", "watermark-margin", "watermark-tile",
    ]).union(textMarkNames)
    /// A text watermark's own parameters.
    package static let textMarkNames: Set<String> = [
        "watermark-text", "font", "watermark-color", "watermark-outline", "watermark-shadow",
    ]
    package static let knownNames = geometryNames.union(sizeNames).union(resizeNames).union(outputNames).union(
        blurNames
    )
    .union(placeholderNames).union(watermarkNames).union(["recipe", "preset"])

    /// The mark `watermark=NAME` (a picture the operator named) or `watermark-text=TEXT` with `font=NAME` (a font the
    /// operator named; the only one when one is configured) and its colours asks for, unplaced; what the cache key
    /// adds for it (the picture's or the font's digest, so a new file under the same name is another output); `nil`
    /// when neither is given.
    private static func watermarkContent(
        _ values: [String: String], watermarks: [String: Watermark], fonts: [String: FontFace]
    ) throws(CropKitError) -> (mark: Watermark, digestName: String, digest: UInt64)? {
        func named<T>(_ parameter: String, _ name: String, in table: [String: T], _ kind: String) throws(CropKitError)
            -> T
        {
            if let found = table[name] { return found }
            let known = table.keys.sorted().joined(separator: ", ")
            throw .invalidRequest(
                name: parameter,
                reason: "no \(kind) named '\(name)'" + (known.isEmpty ? " (none is configured)" : " (\(known))"))
        }
        if let name = values["watermark"] {
            if let text = textMarkNames.first(where: { values[$0] != nil }) {
                throw .invalidRequest(
                    name: text, reason: "applies only with watermark-text=TEXT, not with watermark=NAME")
            }
            let mark = try named("watermark", name, in: watermarks, "watermark")
            return (mark, "watermark-digest", mark.fingerprint)
        }
        guard let text = values["watermark-text"] else {
            if let other = textMarkNames.first(where: { values[$0] != nil }) {
                throw .invalidRequest(name: other, reason: "applies only with watermark-text=TEXT")
            }
            return nil
        }
        let font: FontFace
        if let name = values["font"] {
            font = try named("font", name, in: fonts, "font")
        } else if fonts.count == 1, let only = fonts.values.first {
            font = only
        } else {
            throw .invalidRequest(
                name: "font",
                reason: fonts.isEmpty
                    ? "no font is configured for watermark-text (cropkit serve --font NAME=FILE)"
                    : "missing: name one of \(fonts.keys.sorted().joined(separator: ", "))")
        }
        func color(_ name: String) throws(CropKitError) -> PixelColor? {
            guard let text = values[name] else { return nil }
            guard let color = OptionValue.color(text) else {
                throw .invalidRequest(
                    name: name, reason: "'\(text)' is not a colour (#RGB, #RRGGBB, #RRGGBBAA, white or black)")
            }
            return color
        }
        let line = try TextMark(
            text, font: font, color: try color("watermark-color") ?? .white, outline: try color("watermark-outline"),
            shadow: try color("watermark-shadow"))
        return (try Watermark(text: line), "font-digest", font.fingerprint)
    }

    /// Parses the query (`name=value` pairs, percent-encoded, `sig` already removed).
    ///
    /// - Throws: ``CropKitError/invalidRequest(name:reason:)`` (or, for an output setting,
    ///   ``CropKitError/invalidOption(_:reason:)``) naming the parameter: unknown, repeated where only
    ///   one is allowed, out of range, contradicting another, or (with `onlyPresets`) anything but `preset` (and
    ///   `url` where accepted).
    public init(
        query: String, presets: [String: String] = [:], onlyPresets: Bool = false, maximumOutputSide: Int = 8192,
        acceptsURL: Bool = false, watermarks: [String: Watermark] = [:], fonts: [String: FontFace] = [:]
    ) throws(CropKitError) {
        var items = try Self.items(query)
        if acceptsURL {
            let urls = items.filter { $0.name == "url" }
            guard urls.count == 1 else {
                throw .invalidRequest(
                    name: "url",
                    reason: urls.isEmpty ? "missing: give the source's http(s) URL" : "given more than once")
            }
            sourceURL = urls[0].value
            items.removeAll { $0.name == "url" }
        }
        if onlyPresets, let other = items.first(where: { $0.name != "preset" }) {
            throw .invalidRequest(name: other.name, reason: "this service only accepts preset=NAME")
        }
        // Presets expand in place; later parameters win over them.
        var expanded: [(name: String, value: String)] = []
        for item in items {
            guard item.name == "preset" else {
                expanded.append(item)
                continue
            }
            guard let preset = presets[item.value] else {
                throw .invalidRequest(name: "preset", reason: "no preset named '\(item.value)'")
            }
            let inner = try Self.items(preset)
            if let nested = inner.first(where: { $0.name == "preset" }) {
                throw .invalidRequest(name: "preset", reason: "preset '\(item.value)' names another (\(nested.value))")
            }
            expanded += inner
        }
        items = expanded
        for item in items where !Self.knownNames.contains(item.name) {
            throw .invalidRequest(name: item.name, reason: "unknown parameter (the names are the cropkit flags)")
        }
        var values: [String: String] = [:]
        var flips: [FlipAxis] = []
        for item in items {
            if item.name == "flip" {
                for part in item.value.split(separator: ",") {
                    guard let axis = OptionValue.flip(String(part)) else {
                        throw .invalidRequest(name: "flip", reason: "'\(part)' is not horizontal or vertical")
                    }
                    flips.append(axis)
                }
            } else {
                values[item.name] = item.value
            }
        }
        canonical = (values.map { "\($0.key)=\($0.value)" } + flips.map { "flip=\($0.rawValue)" }).sorted()
            .joined(separator: "&")
        func value<T>(_ name: String, _ parse: (String) -> T?, _ expected: String) throws(CropKitError) -> T? {
            guard let text = values[name] else { return nil }
            guard let parsed = parse(text) else {
                throw .invalidRequest(name: name, reason: "'\(text)' is not \(expected)")
            }
            return parsed
        }
        func flag(_ name: String) throws(CropKitError) -> Bool {
            try value(
                name, { ["", "1", "true"].contains($0) ? true : ["0", "false"].contains($0) ? false : nil },
                "a flag (empty, 1, true, 0 or false)") ?? false
        }

        // Geometry.
        if let recipeText = values["recipe"] {
            if let other = Self.geometryNames.first(where: { values[$0] != nil }) ?? (flips.isEmpty ? nil : "flip") {
                throw .invalidRequest(name: other, reason: "a recipe already says the crop; give one or the other")
            }
            guard let json = OptionValue.base64URLDecoded(recipeText) else {
                throw .invalidRequest(name: "recipe", reason: "not base64url")
            }
            do {
                operations.append(.recipe(try Recipe(json: json)))
            } catch {
                throw .geometry(error)
            }
        }
        let aspectLock = try value("aspect", { try? AspectLock(string: $0) }, "W:H, original or free")
        let aspectIndex = operations.endIndex
        if let aspectLock { operations.append(.aspect(aspectLock)) }  // placed below when no size takes the gravity
        if let rect = try value("rect", OptionValue.rect, "X,Y,W,H with W, H > 0") { operations.append(.crop(rect)) }
        let turns = try value("turn", OptionValue.quarterTurns, "90, 180, 270 or -90") ?? 0
        operations += Array(repeating: .turn(.clockwise), count: turns)
        operations += flips.map { .flip($0) }
        if let step = try value("straighten", OptionValue.straightenStep, "degrees in -45…45 or auto") {
            if case .straighten(0) = step {} else { operations.append(step) }
        }

        // Size: parsed here; the rules between the options are ResizeRequest's.
        let width = try value("width", { Int($0) }, "a whole number of pixels")
        let height = try value("height", { Int($0) }, "a whole number of pixels")
        let size = try value("size", OptionValue.size, "WxH")
        let givenGravity = try value(
            "gravity", OptionValue.gravity, "a gravity such as center, top, bottom-right, attention, entropy or face")
        let focus = try value(
            "focus", OptionValue.focus, "x,y as fractions of the picture (0…1 each) or x,ypx in its displayed pixels")
        let background = try value(
            "background", OptionValue.color, "#RGB, #RRGGBB, #RRGGBBAA, white, black or transparent")
        let mode = try value("mode", { ResizeRequest.ModeName(rawValue: $0) }, "fit, fill, pad or stretch")
        let filter = try value("filter", OptionValue.filter, "nearest, box, bilinear, bicubic, mitchell or lanczos3")
        let linear = try flag("linear")
        if width != nil || height != nil || size != nil {
            let request: ResizeRequest
            do {
                request = try ResizeRequest(
                    width: width, height: height, size: size, mode: mode ?? .fit, gravity: givenGravity, focus: focus,
                    background: background, filter: filter ?? .lanczos3, linearLight: linear,
                    maximumSide: maximumOutputSide)
            } catch {
                throw error
            }
            if case .pad(let colour, _) = request.mode { addsTransparency = colour.alpha < 255 }
            operations.append(.resize(request))
        } else {
            // Without a size, gravity or focus places an aspect=W:H crop (as `cropkit crop --aspect --gravity` does);
            // the rule is ImageOperation's.
            do {
                if let step = try ImageOperation.aspect(
                    aspectLock, gravity: givenGravity, focus: focus, withRect: values["rect"] != nil)
                {
                    operations[aspectIndex] = step
                }
            } catch {
                throw error
            }
            if let name = Self.resizeNames.first(where: { values[$0] != nil && !["gravity", "focus"].contains($0) }) {
                throw .invalidRequest(name: name, reason: "applies only with width, height or size")
            }
            let cap = PixelSize(validWidth: maximumOutputSide, height: maximumOutputSide)
            operations.append(.fit(within: cap))
        }
        if let blur = try value("blur", { $0.lowercased() == "faces" ? true : nil }, "faces") {
            var faceBlur = FaceBlur()
            if let style = try value("blur-style", { FaceBlur.Style(rawValue: $0.lowercased()) }, "blur or pixelate") {
                faceBlur.style = style
            }
            if let strength = try value(
                "blur-strength", { Double($0).flatMap { (0.02...1).contains($0) ? $0 : nil } }, "a fraction in 0.02…1")
            {
                faceBlur.strength = strength
            }
            if let padding = try value(
                "blur-padding", { Double($0).flatMap { (0...2).contains($0) ? $0 : nil } }, "a fraction in 0…2")
            {
                faceBlur.padding = padding
            }
            if blur { operations.append(.blurFaces(faceBlur)) }
        } else if let name = ["blur-style", "blur-strength", "blur-padding"].first(where: { values[$0] != nil }) {
            throw .invalidRequest(name: name, reason: "applies only with blur=faces")
        }
        let round = try flag("round")
        if round {
            operations.append(.roundCorners(.circle))
            addsTransparency = true
        }

        if let content = try Self.watermarkContent(values, watermarks: watermarks, fonts: fonts) {
            let mark = content.mark
            let scale = try value("watermark-scale", { Double($0) }, "a number") ?? mark.scale
            let opacity = try value("watermark-opacity", { Double($0) }, "a number") ?? mark.opacity
            let margin = try value("watermark-margin", { Double($0) }, "a number") ?? mark.margin
            let gravity = try value("watermark-gravity", OptionValue.alignment, "an alignment") ?? mark.gravity
            let tile = try flag("watermark-tile")
            operations.append(
                .watermark(
                    try mark.placed(gravity: gravity, scale: scale, opacity: opacity, margin: margin, tile: tile)))
            // A new file under the same name is another output: its digest goes into the cache key.
            canonical += "&\(content.digestName)=" + String(content.digest, radix: 16)
        } else if let name = Self.watermarkNames.first(where: { values[$0] != nil }) {
            throw .invalidRequest(name: name, reason: "applies only with watermark=NAME or watermark-text=TEXT")
        }
        placeholder = try value(
            "placeholder", { Placeholder.Kind(rawValue: $0.lowercased()) },
            Placeholder.Kind.allCases.map(\.rawValue).joined(separator: ", "))
        if let text = values["components"] {
            guard placeholder == .blurhash else {
                throw .invalidRequest(name: "components", reason: "applies only with placeholder=blurhash")
            }
            guard let counts = OptionValue.size(text), BlurHash.componentRange.contains(counts.width),
                BlurHash.componentRange.contains(counts.height)
            else {
                throw .invalidRequest(name: "components", reason: "'\(text)' is not XxY with each count in 1…9")
            }
            components = counts
        }

        // Output.
        switch values["format"]?.lowercased() {
        case nil: format = .source
        case "auto": format = .auto
        case let name?:
            guard let fixed = OptionValue.format(name) else {
                throw .invalidRequest(
                    name: "format", reason: "'\(name)' is not \(OptionValue.formatList(adding: ["auto"]))")
            }
            format = .fixed(fixed)
            if fixed == .jpeg, round { throw Self.roundNeedsAlpha }
        }
        if let frames = try value("frames", { FrameSelection(rawValue: $0.lowercased()) }, "all or first") {
            saveOptions.frames = frames
        }
        if let quality = try value("quality", { Int($0) }, "a whole number") {
            saveOptions.quality = quality
        }
        if let policy = try value("icc", { ColorProfilePolicy(rawValue: $0.lowercased()) }, "keep or srgb") {
            saveOptions.colorProfile = policy
        }
        let policy = try value(
            "metadata", { MetadataPolicy(rawValue: $0.lowercased()) }, "keep, strip or icc-copyright")
        let strip = try flag("strip")
        do throws(CropKitError) {
            saveOptions.metadata = try SaveOptions.metadata(strip: strip, policy: policy)
        } catch {
            throw error
        }
        if case .fixed(let fixed) = format { try saveOptions.validate(for: fixed) } else { try saveOptions.validate() }
    }

    /// `text` with its `%XX` escapes decoded, as Apple's Foundation's `removingPercentEncoding` does: `nil` when a `%`
    /// is not followed by two hex digits or the bytes are not UTF-8 (where Linux's Foundation put U+FFFD).
    package static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var rest = text.utf8[...]
        func hexValue(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        while let byte = rest.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = rest.popFirst().flatMap(hexValue), let low = rest.popFirst().flatMap(hexValue) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return String(bytes: bytes, encoding: .utf8)
    }

    /// The `name=value` pairs of a query, percent-decoded (a `+` stays a plus).
    package static func items(_ query: String) throws(CropKitError) -> [(name: String, value: String)] {
        var items: [(name: String, value: String)] = []
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = percentDecoded(parts[0]), let value = percentDecoded(parts.count > 1 ? parts[1] : "")
            else {
                throw .invalidRequest(name: String(parts[0]), reason: "bad percent-encoding")
            }
            guard !name.isEmpty else { throw .invalidRequest(name: "(empty)", reason: "a parameter has no name") }
            items.append((name, value))
        }
        return items
    }
}
