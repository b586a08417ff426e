import CropKit
import Hummingbird
import HummingbirdCore

/// The options of a render request's query: `format`, `quality`, `icc`, `metadata`, `frames`, `maxWidth`,
/// `maxHeight`, `recipe`, and `straighten=auto` (level the picture automatically, on top of the recipe's angle).
struct RenderOptions {
    var format: ImageFormat?
    /// An animation (GIF, WebP, AVIF sequence) written as GIF, WebP or AVIF keeps every frame (`all`, the default) or
    /// only the first.
    var frames = FrameSelection.all
    var quality: Int?
    var colorProfile = ColorProfilePolicy.keep
    var metadata = MetadataPolicy.keep
    var maximumSize: PixelSize?
    var recipeJSON: String?
    var autoStraighten = false

    init(query: FlatDictionary<Substring, Substring>) throws(EditorError) {
        if let text = query["format"] {
            guard let asked = OptionValue.format(String(text)) else {
                throw .invalidParameter(name: "format", reason: "'\(text)' is not \(OptionValue.formatList())")
            }
            format = asked
        }
        if let text = query["frames"] {
            guard let frames = FrameSelection(rawValue: text.lowercased()) else {
                throw .invalidParameter(name: "frames", reason: "'\(text)' is not all or first")
            }
            self.frames = frames
        }
        quality = nil
        if let text = query["icc"] {
            guard let policy = ColorProfilePolicy(rawValue: text.lowercased()) else {
                throw .invalidParameter(name: "icc", reason: "'\(text)' is not keep or srgb")
            }
            colorProfile = policy
        }
        if let text = query["metadata"] {
            guard let policy = MetadataPolicy(rawValue: text.lowercased()) else {
                throw .invalidParameter(name: "metadata", reason: "'\(text)' is not keep, strip or icc-copyright")
            }
            metadata = policy
        }
        if let text = query["quality"] {
            guard let q = Int(text) else {
                throw .invalidParameter(name: "quality", reason: "'\(text)' is not a whole number")
            }
            quality = q
        }
        func side(_ name: String) throws(EditorError) -> Int? {
            guard let text = query[name[...]] else { return nil }
            guard let value = Int(text), value >= 1, value <= CropState.maximumSide else {
                throw .invalidParameter(name: name, reason: "'\(text)' is not a whole number of pixels ≥ 1")
            }
            return value
        }
        let width = try side("maxWidth"), height = try side("maxHeight")
        if width != nil || height != nil {
            maximumSize = PixelSize(validWidth: width ?? CropState.maximumSide, height: height ?? CropState.maximumSide)
        }
        try SaveOptions(format: format, quality: quality).checked(for: format)
        recipeJSON = query["recipe"].map(String.init)
        if let text = query["straighten"] {
            guard text.lowercased() == "auto" else {
                throw .invalidParameter(
                    name: "straighten", reason: "'\(text)' is not auto (give other angles in the recipe)")
            }
            autoStraighten = true
        }
    }
}

extension SaveOptions {
    /// ``validate(for:)`` in a URL's words: a refusal is `EditorError.invalidParameter(name:reason:)` naming the
    /// query key (`quality`, `metadata`, `format`), so the render API and the image service refuse alike.
    package func checked(for format: ImageFormat?) throws(EditorError) {
        do throws(CropKitError) {
            try validate(for: format)
        } catch {
            throw EditorError(error)
        }
    }
}
