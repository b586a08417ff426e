import CropCodecs
import CropPixels

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A picture laid over every output, for a shop's or a photographer's mark: placed by an alignment and a margin,
/// sized relative to the output, with an opacity, or tiled over the whole output.
///
/// Composited after the crop, the resize and the other pixel steps, on every frame of an animation, with the
/// "over" operator in premultiplied arithmetic (libvips' `composite2` mode over gives the same pixels within 1/255),
/// so its anti-aliased edge has no fringe. The mark is resampled (premultiplied Lanczos) to its size once per output.
///
/// ```swift
/// let mark = try Watermark(contentsOfFile: "logo.png")   // width 30% of the output's, bottom-right, opaque
/// try ImagePipeline().run(.file("photo.jpg"), [.fit(1920, 1920), .watermark(mark)], to: .file("out.jpg"))
/// ```
public struct Watermark: Hashable, Sendable {
    /// What a watermark lays over the output.
    public enum Content: Equatable, Sendable {
        /// A picture: 8-bit RGBA, straight alpha, in sRGB; resampled (premultiplied Lanczos) to its size once per
        /// output.
        case image(PixelBuffer)
        /// A line of text, drawn at the size each output needs.
        case text(TextMark)
    }

    /// The mark.
    public let content: Content
    /// Where it goes (ignored when ``tile`` is set). Default bottom-right.
    public var gravity: Alignment
    /// Its width as a fraction of the output's, 0 < scale ≤ 1; its height follows its proportions. Default 0.25.
    public var scale: Double
    /// How opaque it is, 0…1 (its own alpha times this). Default 1.
    public var opacity: Double
    /// The space between it and the output's edges, and between tiles, as a fraction of the output's shorter
    /// side, 0…0.5. Default 0.02.
    public var margin: Double
    /// Repeat it over the whole output in a grid, the margin apart, instead of placing it once.
    public var tile: Bool
    /// A digest of the mark (a picture's size and pixels; a text's line, font and colours; 64-bit FNV-1a), the same
    /// in every process: for equality and hashing without comparing every sample, and for a cache key that changes
    /// when the mark's file does.
    public let fingerprint: UInt64

    /// A watermark of `content` (a picture of any layout and depth is converted to 8-bit RGBA).
    ///
    /// - Throws: ``CropKitError/invalidRequest(name:reason:)`` naming `watermark-scale`, `watermark-opacity` or
    ///   `watermark-margin` when out of range.
    public init(
        _ content: Content, gravity: Alignment = .bottomRight, scale: Double = 0.25, opacity: Double = 1,
        margin: Double = 0.02, tile: Bool = false
    ) throws(CropKitError) {
        guard scale > 0, scale <= 1 else {
            throw .invalidRequest(name: "watermark-scale", reason: "\(scale) is outside 0 (exclusive)…1")
        }
        guard (0...1).contains(opacity) else {
            throw .invalidRequest(name: "watermark-opacity", reason: "\(opacity) is outside 0…1")
        }
        guard (0...0.5).contains(margin) else {
            throw .invalidRequest(name: "watermark-margin", reason: "\(margin) is outside 0…0.5")
        }
        let digested: [UInt8]
        switch content {
        case .image(let image):
            let samples = image.rgba8Samples()
            self.content = .image(
                try mappingErrors {
                    try PixelBuffer(width: image.width, height: image.height, layout: .rgba, samples: samples)
                })
            digested = [UInt8(truncatingIfNeeded: image.width), UInt8(truncatingIfNeeded: image.width >> 8)] + samples
        case .text(let text):
            self.content = content
            digested = [0xFF] + text.digest
        }
        var digest: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in digested { digest = (digest ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        fingerprint = digest
        self.gravity = gravity
        self.scale = scale
        self.opacity = opacity
        self.margin = margin
        self.tile = tile
    }

    /// A watermark of `image` (any layout and depth; converted to 8-bit RGBA).
    ///
    /// - Throws: as ``init(_:gravity:scale:opacity:margin:tile:)``.
    public init(
        image: PixelBuffer, gravity: Alignment = .bottomRight, scale: Double = 0.25, opacity: Double = 1,
        margin: Double = 0.02, tile: Bool = false
    ) throws(CropKitError) {
        try self.init(.image(image), gravity: gravity, scale: scale, opacity: opacity, margin: margin, tile: tile)
    }

    /// A watermark of a line of text; `scale` sets the width of its box (its ink, and room for an outline and a
    /// shadow) as for a picture.
    ///
    /// - Throws: as ``init(_:gravity:scale:opacity:margin:tile:)``.
    public init(
        text: TextMark, gravity: Alignment = .bottomRight, scale: Double = 0.25, opacity: Double = 1,
        margin: Double = 0.02, tile: Bool = false
    ) throws(CropKitError) {
        try self.init(.text(text), gravity: gravity, scale: scale, opacity: opacity, margin: margin, tile: tile)
    }

    /// The same mark placed otherwise.
    ///
    /// - Throws: as ``init(_:gravity:scale:opacity:margin:tile:)``.
    public func placed(
        gravity: Alignment, scale: Double, opacity: Double, margin: Double, tile: Bool
    ) throws(CropKitError) -> Watermark {
        try Watermark(content, gravity: gravity, scale: scale, opacity: opacity, margin: margin, tile: tile)
    }

    /// A watermark read from a file: PNG, WebP, AVIF or any format CropKit reads, upright (its EXIF orientation
    /// applied), its colours converted to sRGB through its ICC profile.
    ///
    /// - Throws: ``CropKitError`` for a file that cannot be read, or larger than `limits` allow (a watermark is
    ///   decoded whole), and as ``init(image:gravity:scale:opacity:margin:tile:)``.
    public init(
        contentsOfFile path: String, gravity: Alignment = .bottomRight, scale: Double = 0.25, opacity: Double = 1,
        margin: Double = 0.02, tile: Bool = false, limits: PixelLimits = .default
    ) throws(CropKitError) {
        var pipeline = ImagePipeline(limits: limits)
        pipeline.shrinkOnLoad = false
        let rendered = try pipeline.run(.file(path))
        try self.init(
            image: try ImagePipeline.sRGBA(rendered.image), gravity: gravity, scale: scale, opacity: opacity,
            margin: margin, tile: tile)
    }

    /// The marks an operator names, from `NAME=FILE` entries (`cropkit serve --watermark`, and the command line's
    /// `--preset-watermark` for presets that use them).
    ///
    /// - Throws: ``CropKitError/invalidRequest(name:reason:)`` named `watermark` for an entry that is not NAME=FILE
    ///   (a name of letters, digits, `-` and `_`) or repeats a name; the file's own errors, prefixed with its name.
    public static func named(_ entries: [String], limits: PixelLimits = .default) throws(CropKitError) -> [String:
        Watermark]
    {
        try loadNamed(entries, parameter: "watermark") { path throws(CropKitError) in
            try Watermark(contentsOfFile: path, limits: limits)
        }
    }

    /// The fonts an operator names for text marks (`watermark-text=…&font=NAME`), from `NAME=FILE` entries
    /// (`cropkit serve --font`, and the command line's `--preset-font`).
    ///
    /// - Throws: ``CropKitError/invalidRequest(name:reason:)`` named `font` as ``named(_:limits:)`` names
    ///   `watermark`.
    public static func fonts(named entries: [String]) throws(CropKitError) -> [String: FontFace] {
        try loadNamed(entries, parameter: "font") { path throws(CropKitError) in
            do throws(CodecError) { return try FontFace(contentsOfFile: path) } catch { throw .codec(error) }
        }
    }

    /// `NAME=FILE` entries loaded by `load`, each name once.
    private static func loadNamed<T>(
        _ entries: [String], parameter: String, _ load: (String) throws(CropKitError) -> T
    ) throws(CropKitError) -> [String: T] {
        var loaded: [String: T] = [:]
        for entry in entries {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty,
                parts[0].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
            else {
                throw .invalidRequest(
                    name: parameter, reason: "\(entry) is not NAME=FILE (a name of letters, digits, - and _)")
            }
            guard loaded[parts[0]] == nil else {
                throw .invalidRequest(name: parameter, reason: "names \(parts[0]) twice")
            }
            do {
                loaded[parts[0]] = try load(parts[1])
            } catch {
                throw .invalidRequest(name: parameter, reason: "\(parts[0]): \(parts[1]): \(error)")
            }
        }
        return loaded
    }

    public static func == (a: Watermark, b: Watermark) -> Bool {
        a.fingerprint == b.fingerprint && a.gravity == b.gravity && a.scale == b.scale && a.opacity == b.opacity
            && a.margin == b.margin && a.tile == b.tile && a.content == b.content
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(fingerprint)
        hasher.combine(gravity)
        hasher.combine(scale)
        hasher.combine(opacity)
        hasher.combine(margin)
        hasher.combine(tile)
    }

    /// `picture` with the mark laid over it.
    func apply(to picture: PixelBuffer) throws(CropKitError) -> PixelBuffer {
        let (mark, origins) = try placements(width: picture.width, height: picture.height)
        var out = picture
        for (x, y) in origins { try mappingErrors { try out.composite(mark, x: x, y: y, opacity: opacity) } }
        return out
    }

    /// The mark resampled for a `width × height` output, and where its copies go (one, or a grid when tiled): the
    /// same for the whole picture and for its rows as they stream past.
    func placements(width: Int, height: Int) throws(CropKitError) -> (mark: PixelBuffer, origins: [(x: Int, y: Int)]) {
        let gap = Int((Double(Swift.min(width, height)) * margin).rounded())
        // Its width from the scale, unless that makes it taller than the output leaves room for.
        let aspect =
            switch content {
            case .image(let image): Double(image.height) / Double(image.width)
            case .text(let text): text.aspect
            }
        var markWidth = Swift.max(1, Int((Double(width) * scale).rounded()))
        let room = Swift.max(1, height - 2 * gap)
        if Double(markWidth) * aspect > Double(room) {
            markWidth = Swift.max(1, Int((Double(room) / aspect).rounded(.down)))
        }
        let markHeight = Swift.max(1, Int((Double(markWidth) * aspect).rounded()))
        let mark: PixelBuffer
        switch content {
        case .image(let image):
            mark =
                markWidth == image.width && markHeight == image.height
                ? image : try mappingErrors { try image.resized(width: markWidth, height: markHeight) }
        case .text(let text):
            mark = try text.rendered(width: markWidth, height: markHeight)
        }
        guard tile else {
            let free = (x: width - markWidth - 2 * gap, y: height - markHeight - 2 * gap)
            return (
                mark,
                [
                    (
                        gap + Int((Double(free.x) * gravity.horizontalFraction).rounded()),
                        gap + Int((Double(free.y) * gravity.verticalFraction).rounded())
                    )
                ]
            )
        }
        var origins: [(x: Int, y: Int)] = []
        for y in stride(from: gap, to: height, by: markHeight + gap) {
            for x in stride(from: gap, to: width, by: markWidth + gap) { origins.append((x, y)) }
        }
        return (mark, origins)
    }
}

/// Lays marks over output rows as they pass on to the encoder, so a marked output streams as an unmarked one does
/// (the encoder overlaps the render); rows no mark touches pass through uncopied.
final class MarkingSink: RowSink {
    private let next: any RowSink
    private let placed: [(mark: PixelBuffer, x: Int, y: Int, opacity: Double)]
    private var row = 0

    init(_ next: any RowSink, marks: [Watermark], size: PixelSize) throws(CropKitError) {
        self.next = next
        var placed: [(mark: PixelBuffer, x: Int, y: Int, opacity: Double)] = []
        for mark in marks {
            let (image, origins) = try mark.placements(width: size.width, height: size.height)
            placed += origins.map { (image, $0.x, $0.y, mark.opacity) }
        }
        self.placed = placed
    }

    func write(_ rows: PixelBuffer, start: Int, count: Int) throws(CropKitError) {
        if let marked = try marked(rows, start: start, count: count) {
            try next.write(marked, start: 0, count: count)
        } else {
            try next.write(rows, start: start, count: count)
        }
        row += count
    }

    func writeLater(_ rows: PixelBuffer) throws(CropKitError) {
        let marked = try marked(rows, start: 0, count: rows.height)
        try next.writeLater(marked ?? rows)
        row += rows.height
    }

    func drain() { next.drain() }

    /// A marked copy of `count` rows from `start` (output rows `row ..< row + count`), or `nil` when no mark reaches
    /// them.
    private func marked(_ rows: PixelBuffer, start: Int, count: Int) throws(CropKitError) -> PixelBuffer? {
        let touching = placed.filter { $0.y < row + count && $0.y + $0.mark.height > row }
        guard !touching.isEmpty else { return nil }
        var band = try mappingErrors { try rows.cropped(x: 0, y: start, width: rows.width, height: count) }
        for copy in touching {
            try mappingErrors { try band.composite(copy.mark, x: copy.x, y: copy.y - row, opacity: copy.opacity) }
        }
        return band
    }
}
