import CFont

/// A font for text watermarks: a TrueType or OpenType file (one face of a collection), shaped by HarfBuzz and drawn
/// by FreeType, both opened at run time like the codecs' libraries.
///
/// The bytes are kept; every drawing opens them afresh with its own FreeType handle, so a font is a value that any
/// number of threads may use at once. Outlines are drawn unhinted (no program in the font runs) and straight into the
/// caller's plane, so a hostile font costs no more memory than the plane it is drawn into.
///
/// ```swift
/// let font = try FontFace(contentsOfFile: "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
/// let line = try font.measure("© Ada Photo", pixelSize: 48)   // line.advance ≈ 277 pixels
/// ```
public struct FontFace: Hashable, Sendable, CustomStringConvertible {
    /// The largest font file read: 64 MiB (the largest CJK collections are about 30 MiB).
    public static let maximumFileSize = 64 << 20
    /// The longest line drawn, in Unicode scalars, and the largest size, in pixels to the em.
    public static let maximumTextLength = Int(CK_TEXT_MAX_SCALARS)
    public static let maximumPixelSize = Double(CK_TEXT_MAX_PIXEL_SIZE)
    /// The widest and tallest plane drawn into (FreeType's spans count in 16 bits).
    public static let maximumPlaneSide = 32767

    /// Where it came from, for messages: its file's path, or the name given with its data.
    public let name: String
    /// The family and style the font names itself by ("DejaVu Sans", "Bold").
    public let family: String
    public let style: String
    /// The face used, in a collection (`.ttc`); 0 for a single font.
    public let faceIndex: Int
    /// Glyphs in the face.
    public let glyphCount: Int
    /// A digest of the bytes and the face (64-bit FNV-1a), the same in every process, for cache keys.
    public let fingerprint: UInt64
    let bytes: [UInt8]

    /// A font from its bytes.
    ///
    /// - Throws: ``CodecError/unusableFont(name:reason:)`` for data FreeType does not read as a font, a face index the
    ///   file lacks, a font with no outlines (bitmap-only), more than ``maximumFileSize`` bytes, or when FreeType or
    ///   HarfBuzz is not installed.
    public init(data: [UInt8], name: String = "font data", faceIndex: Int = 0) throws(CodecError) {
        guard data.count <= Self.maximumFileSize else {
            throw .unusableFont(
                name: name, reason: "\(data.count) bytes is more than the \(Self.maximumFileSize) a font may have")
        }
        guard (0...0xFFFF).contains(faceIndex) else {
            throw .unusableFont(name: name, reason: "face \(faceIndex) is outside 0…65535")
        }
        var info = ck_font_info()
        let (status, message) = ShimStatus.run { message in
            data.withUnsafeBufferPointer { ck_font_probe($0.baseAddress, $0.count, UInt32(faceIndex), &info, message) }
        }
        guard status == ShimStatus.ok else { throw .unusableFont(name: name, reason: message) }
        self.name = name
        family = Self.string(info.family)
        style = Self.string(info.style)
        self.faceIndex = faceIndex
        glyphCount = Int(info.glyphs)
        bytes = data
        var digest: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in data + [UInt8(truncatingIfNeeded: faceIndex), UInt8(truncatingIfNeeded: faceIndex >> 8)] {
            digest = (digest ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        fingerprint = digest
    }

    /// A font read from a file.
    ///
    /// - Throws: ``CodecError/ioFailure(path:operation:reason:)`` when the file cannot be read, and as
    ///   ``init(data:name:faceIndex:)`` with the path as the name.
    public init(contentsOfFile path: String, faceIndex: Int = 0) throws(CodecError) {
        let prefix = try FileIO.readPrefix(ofFileAtPath: path, maxBytes: Self.maximumFileSize + 1)
        try self.init(data: prefix.bytes, name: path, faceIndex: faceIndex)
    }

    public var description: String { "\(family) \(style) (\(name))" }

    /// `text` shaped as one line at `pixelSize` pixels to the em: its advance, the font's ascender and descender and
    /// the ink's bounds, in pixels with y up from the baseline.
    ///
    /// - Throws: ``CodecError/invalidArgument(name:reason:)`` named `text` for an empty line, one longer than
    ///   ``maximumTextLength``, one with a line break or another control character, or a character the font has no
    ///   glyph for (named); named `size` for a size outside 1…``maximumPixelSize``;
    ///   ``CodecError/unusableFont(name:reason:)`` for a glyph FreeType cannot load.
    public func measure(_ text: String, pixelSize: Double) throws(CodecError) -> TextMetrics {
        try draw(text, pixelSize: pixelSize, into: nil, width: 0, height: 0, x: 0, baseline: 0)
    }

    /// The anti-aliased coverage (0…255, row 0 at the top) of `text` drawn in a `width × height` plane, the pen
    /// starting at (`x`, `baseline`) pixels from its top-left corner; what falls outside is clipped.
    ///
    /// - Throws: as ``measure(_:pixelSize:)``; ``CodecError/invalidArgument(name:reason:)`` named `plane` for a side
    ///   outside 1…``maximumPlaneSide``.
    public func coverage(
        of text: String, pixelSize: Double, width: Int, height: Int, x: Double, baseline: Double
    ) throws(CodecError) -> [UInt8] {
        guard (1...Self.maximumPlaneSide).contains(width), (1...Self.maximumPlaneSide).contains(height) else {
            throw .invalidArgument(
                name: "plane", reason: "\(width)×\(height) is outside 1…\(Self.maximumPlaneSide) on a side")
        }
        var plane = [UInt8](repeating: 0, count: width * height)
        _ = try draw(text, pixelSize: pixelSize, into: &plane, width: width, height: height, x: x, baseline: baseline)
        return plane
    }

    private func draw(
        _ text: String, pixelSize: Double, into plane: UnsafeMutablePointer<[UInt8]>?, width: Int, height: Int,
        x: Double, baseline: Double
    ) throws(CodecError) -> TextMetrics {
        let scalars = text.unicodeScalars.map(\.value)
        guard !scalars.isEmpty, scalars.count <= Self.maximumTextLength else {
            throw .invalidArgument(
                name: "text", reason: "\(scalars.count) characters is outside 1…\(Self.maximumTextLength)")
        }
        if let control = text.unicodeScalars.first(where: {
            $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}"
        }) {
            throw .invalidArgument(
                name: "text", reason: "it holds \(Self.named(control)); a watermark is one line of text")
        }
        guard pixelSize >= 1, pixelSize <= Self.maximumPixelSize else {
            throw .invalidArgument(
                name: "size", reason: "\(pixelSize) pixels is outside 1…\(Int(Self.maximumPixelSize))")
        }
        var metrics = ck_text_metrics()
        let (status, message) = ShimStatus.run { message in
            bytes.withUnsafeBufferPointer { font in
                scalars.withUnsafeBufferPointer { text in
                    if let plane {
                        plane.pointee.withUnsafeMutableBufferPointer { samples in
                            ck_text_draw(
                                font.baseAddress, font.count, UInt32(faceIndex), text.baseAddress, text.count,
                                pixelSize,
                                samples.baseAddress, UInt32(width), UInt32(height), width, x, baseline, &metrics,
                                message)
                        }
                    } else {
                        ck_text_draw(
                            font.baseAddress, font.count, UInt32(faceIndex), text.baseAddress, text.count, pixelSize,
                            nil, 0, 0, 0, 0, 0, &metrics, message)
                    }
                }
            }
        }
        guard status == ShimStatus.ok else {
            if metrics.missing != 0, let scalar = Unicode.Scalar(metrics.missing) {
                throw .invalidArgument(
                    name: "text", reason: "the font \(family) has no glyph for \(Self.named(scalar))")
            }
            if status == ShimStatus.usage { throw .invalidArgument(name: "text", reason: message) }
            throw .unusableFont(name: name, reason: message)
        }
        return TextMetrics(
            advance: metrics.advance, ascender: metrics.ascender, descender: metrics.descender,
            inkLeft: metrics.ink_left, inkBottom: metrics.ink_bottom, inkRight: metrics.ink_right,
            inkTop: metrics.ink_top,
            glyphs: Int(metrics.glyphs))
    }

    /// A character as a message shows it: 'ж' (U+0436), or U+000A alone for an invisible one.
    static func named(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: Swift.max(0, 4 - hex.count)) + hex
        let visible =
            scalar.properties.generalCategory != .control && !scalar.properties.isWhitespace
            && scalar.properties.generalCategory != .format
        return visible ? "'\(Character(scalar))' (\(code))" : code
    }

    private static func string<T>(_ tuple: T) -> String {
        withUnsafeBytes(of: tuple) { raw in
            ShimStatus.printableMessage(Array(raw.prefix { $0 != 0 }))
        }
    }

    public static func == (a: FontFace, b: FontFace) -> Bool {
        a.fingerprint == b.fingerprint && a.faceIndex == b.faceIndex && a.bytes == b.bytes
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(fingerprint) }
}

/// A shaped line of text at one size, in pixels, y up from the baseline (``FontFace/measure(_:pixelSize:)``).
public struct TextMetrics: Hashable, Sendable {
    /// The pen's advance over the whole line.
    public var advance: Double
    /// The font's ascender (above the baseline) and descender (below it, negative) at this size.
    public var ascender: Double
    public var descender: Double
    /// The ink's exact bounds relative to the pen's start: all 0 when nothing is inked (only spaces).
    public var inkLeft: Double
    public var inkBottom: Double
    public var inkRight: Double
    public var inkTop: Double
    /// Glyphs after shaping (a ligature makes one of several characters).
    public var glyphs: Int
}
