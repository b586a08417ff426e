import CropCodecs
import CropPixels

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a page shows while a picture loads: a BlurHash, a ThumbHash or a tiny preview image of the *finished* picture
/// (after its crop, straighten and resize), with that picture's size so the page can reserve its box.
///
/// Made by ``ImagePipeline/placeholder(_:_:kind:components:)`` from a copy rendered at most 100 pixels a side, so the
/// decode shrinks on load and a placeholder costs about what a small thumbnail does.
public struct Placeholder: Hashable, Sendable, Codable {
    /// The kinds of placeholder.
    public enum Kind: String, CaseIterable, Hashable, Sendable, Codable {
        /// A BlurHash string (base 83): a few cosine components of the picture's colours, drawn blurred by any BlurHash
        /// decoder. Alpha is composited over white (BlurHash has none).
        case blurhash
        /// A ThumbHash, as base64 of its bytes (about 25): luminance, colour and alpha in cosine components, keeping
        /// the aspect ratio.
        case thumbhash
        /// A tiny WebP of the picture as a `data:` URL of at most ``Placeholder/previewLimit`` characters, for an
        /// `<img src>` or a CSS background the browser blurs.
        case preview
    }

    /// The longest `data:` URL a preview may be, in characters.
    public static let previewLimit = 1024

    /// The kind.
    public var kind: Kind
    /// The hash text or the `data:` URL.
    public var value: String
    /// The finished picture's width in pixels (the output the placeholder stands in for, not the copy it was made
    /// from).
    public var width: Int
    /// The finished picture's height in pixels.
    public var height: Int

    /// Creates a placeholder.
    public init(kind: Kind, value: String, width: Int, height: Int) {
        self.kind = kind
        self.value = value
        self.width = width
        self.height = height
    }

    /// One line of JSON: `{"kind":"blurhash","value":"…","width":1600,"height":1200}`, keys in that order.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        // Codable would order the keys as it likes; the service's and the CLI's bytes must not depend on it.
        let value = (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
        return "{\"kind\":\"\(kind.rawValue)\",\"value\":\(value),\"width\":\(width),\"height\":\(height)}"
    }
}

extension ImagePipeline {
    /// The side of the copy a placeholder is computed from: ThumbHash's largest input.
    static let placeholderSide = ThumbHash.maximumSide

    /// The placeholder of the picture `operations` make from `source`: the same crop, straighten, resize and pixel
    /// steps (a recipe applies as in ``run(_:_:to:)``), rendered at most 100 pixels a side and in sRGB, then hashed or
    /// encoded. An animation's placeholder is its first frame's.
    ///
    /// - Parameters:
    ///   - source: the picture to read.
    ///   - operations: the steps of the picture the placeholder stands in for, as ``run(_:_:to:)`` takes them.
    ///   - kind: BlurHash, ThumbHash or a preview image.
    ///   - components: a BlurHash's component counts across and down, each 1…9; `nil` chooses them from the
    ///     picture's proportions (`BlurHash.components(width:height:)`: 4×3 for 4:3).
    /// - Throws: ``CropKitError`` as ``run(_:_:to:)`` does; ``CropKitError/invalidRequest(name:reason:)`` naming
    ///   `components` for counts outside 1…9.
    public func placeholder(
        _ source: ImageSource, _ operations: [ImageOperation] = [], kind: Placeholder.Kind,
        components: (x: Int, y: Int)? = nil
    ) throws(CropKitError) -> Placeholder {
        if let components,
            !BlurHash.componentRange.contains(components.x) || !BlurHash.componentRange.contains(components.y)
        {
            throw .invalidRequest(name: "components", reason: "\(components.x)×\(components.y) is outside 1…9 per side")
        }
        var small = self
        small.outputSideLimit = Self.placeholderSide
        let rendered = try small.run(source, operations, to: .image)
        let size = rendered.report.unreducedSize ?? rendered.report.size
        let pixels = try Self.sRGBA(rendered.image)
        let value: String
        switch kind {
        case .blurhash:
            let counts = components ?? BlurHash.components(width: size.width, height: size.height)
            value = try mappingErrors { try BlurHash.encode(pixels, componentsX: counts.x, componentsY: counts.y) }
        case .thumbhash:
            value = Data(try mappingErrors { try ThumbHash.encode(pixels) }).base64EncodedString()
        case .preview:
            value = try Self.preview(pixels)
        }
        return Placeholder(kind: kind, value: value, width: size.width, height: size.height)
    }

    /// The memory ``placeholder(_:_:kind:components:)`` plans to hold at its peak, for reserving it first.
    package func placeholderMemoryPlan(_ source: ImageSource, _ operations: [ImageOperation]) throws(CropKitError)
        -> MemoryPlan
    {
        var small = self
        small.outputSideLimit = Self.placeholderSide
        return try small.memoryPlan(source, operations, to: .image)
    }

    /// `image`'s pixels as 8-bit RGBA in sRGB: a profile other than sRGB is converted through Little CMS (kept as
    /// they are, as the pipeline does, when the profile cannot be used).
    static func sRGBA(_ image: Image) throws(CropKitError) -> PixelBuffer {
        var rgba = try mappingErrors {
            try PixelBuffer(
                width: image.pixels.width, height: image.pixels.height, layout: .rgba,
                samples: image.pixels.rgba8Samples())
        }
        if let profile = image.metadata.iccProfile, ColorTransform.isSRGB(profile) != true,
            let transform = try? ColorTransform(profile: profile, layout: .init(.rgba8)!, format: .png)
        {
            rgba.withUnsafeMutableRows { rows in
                for y in 0..<rows.height { transform.convert(rows.row(y), to: rows.row(y), pixels: rows.width) }
            }
        }
        return rgba
    }

    /// The largest WebP preview, 32 pixels a side or fewer, whose `data:` URL fits ``Placeholder/previewLimit``;
    /// without alpha when every pixel is opaque.
    static func preview(_ rgba: PixelBuffer) throws(CropKitError) -> String {
        let opaque = rgba.rgba8Samples().enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 }
        let prefix = "data:image/webp;base64,"
        var last = ""
        for side in [32, 24, 16, 12, 8] {
            let f = Swift.min(1, Double(side) / Double(Swift.max(rgba.width, rgba.height)))
            let size = PixelSize(
                validWidth: Swift.max(1, Int((Double(rgba.width) * f).rounded())),
                height: Swift.max(1, Int((Double(rgba.height) * f).rounded())))
            var tiny = try mappingErrors { try rgba.resized(to: size) }
            if opaque { tiny = tiny.flattened(over: .white) }
            let bytes = try mappingErrors {
                try ImageCodec.encode(
                    tiny, as: .webp, options: EncodeOptions(webp: WebPEncodeOptions(quality: 40, effort: 6)))
            }
            last = prefix + Data(bytes).base64EncodedString()
            if last.count <= Placeholder.previewLimit { return last }
        }
        return last
    }
}
