import CropCodecs

/// How an output image is encoded and written.
///
/// By default metadata is kept: the ICC profile is written back and the EXIF block too, with its orientation tag set
/// to 1 because CropKit's outputs are always upright. ``metadata`` can drop both, or keep only the profile and the
/// copyright notice.
public struct SaveOptions: Hashable, Sendable {
    /// The output format; `nil` takes it from the file name's extension (and is JPEG for in-memory output).
    public var format: ImageFormat?
    /// The quality of lossy formats (JPEG, lossy WebP, AVIF, HEIC, JPEG XL), 1…100 on each library's own scale (JPEG
    /// XL's as `cjxl`'s); `nil` (the default) takes the output format's `ImageFormat.defaultQuality` (JPEG and WebP
    /// 80, AVIF and HEIC 50, JPEG XL 75).
    public var quality: Int?
    /// JPEG chroma subsampling; `nil` is automatic: 4:4:4 from quality 90 up, 4:2:0 below (as libvips does; so 4:2:0
    /// at the default quality), but
    /// never finer than a JPEG source's own subsampling when the output keeps the source's resolution (reduced less
    /// than 2×): a 4:2:0 photo has no chroma detail for 4:4:4 to keep, so it would only cost size and time.
    public var subsampling: ChromaSubsampling?
    /// Write a progressive JPEG.
    public var progressive: Bool
    /// Compute optimal JPEG Huffman tables (a few percent smaller, slower).
    public var optimizeHuffman: Bool
    /// PNG zlib level, 0…9. Default 6.
    public var pngCompressionLevel: Int
    /// Encode WebP, AVIF, HEIC or JPEG XL losslessly (every pixel kept; for WebP ``quality`` then sets how hard
    /// libwebp compresses).
    public var lossless: Bool
    /// How much time the encoder may spend for a smaller file: WebP 0 (fastest) … 6 (smallest), AVIF 0 … 9 (as
    /// libvips' effort; the AV1 speed is 9 − effort), JPEG XL 1 … 9 (libjxl's). `nil` takes the format's default (4
    /// for WebP and AVIF, 7 for JPEG XL, as `cjxl`).
    public var effort: Int?
    /// Bits per sample of HEIC and AVIF outputs: 8 or 10 (10 keeps 16-bit sources' precision). `nil`: 8.
    public var bitDepth: Int?
    /// Keep the colours and profile as they are, or convert to sRGB (see ``ColorProfilePolicy``). Default ``ColorProfilePolicy/keep``.
    public var colorProfile: ColorProfilePolicy
    /// Which metadata the output keeps: all of it (the default), none, or the ICC profile and the copyright notice
    /// (see ``MetadataPolicy``).
    public var metadata: MetadataPolicy
    /// Drop the ICC profile and the EXIF block (``metadata`` is ``MetadataPolicy/strip``). Pixels with a profile
    /// other than sRGB are converted to sRGB first, so the colours look the same without it.
    public var stripMetadata: Bool {
        get { metadata == .strip }
        set { metadata = newValue ? .strip : .keep }
    }
    /// Replace an existing output file. Without it an existing file is an error and is left untouched.
    public var overwrite: Bool
    /// Which frames of an animated source (GIF, WebP, AVIF sequence) are written. Default ``FrameSelection/all``.
    public var frames: FrameSelection = .all

    /// Creates options; every argument has the default described on its property.
    public init(
        format: ImageFormat? = nil, quality: Int? = nil, subsampling: ChromaSubsampling? = nil,
        progressive: Bool = false, optimizeHuffman: Bool = false, pngCompressionLevel: Int = 6,
        lossless: Bool = false, effort: Int? = nil, bitDepth: Int? = nil, colorProfile: ColorProfilePolicy = .keep,
        stripMetadata: Bool = false, metadata: MetadataPolicy = .keep, overwrite: Bool = false
    ) {
        self.colorProfile = colorProfile
        self.lossless = lossless
        self.effort = effort
        self.bitDepth = bitDepth
        self.format = format
        self.quality = quality
        self.subsampling = subsampling
        self.progressive = progressive
        self.optimizeHuffman = optimizeHuffman
        self.pngCompressionLevel = pngCompressionLevel
        self.metadata = stripMetadata ? .strip : metadata
        self.overwrite = overwrite
    }

    /// The quality a `format` output gets: ``quality``, or the format's default.
    func quality(for format: ImageFormat) -> Int { quality ?? format.defaultQuality ?? 80 }

    /// The effort a `format` output gets: ``effort``, or the format's default (0 for a format that takes none).
    func effort(for format: ImageFormat) -> Int { effort ?? format.defaultEffort ?? 0 }

    /// The codec options these settings stand for.
    package var encodeOptions: EncodeOptions {
        EncodeOptions(
            jpeg: JPEGEncodeOptions(
                quality: quality(for: .jpeg), subsampling: subsampling, progressive: progressive,
                optimizeHuffman: optimizeHuffman),
            png: PNGEncodeOptions(compressionLevel: pngCompressionLevel),
            webp: WebPEncodeOptions(quality: quality(for: .webp), lossless: lossless, effort: effort(for: .webp)),
            heif: HEIFEncodeOptions(
                quality: quality(for: .heif), lossless: lossless, effort: effort(for: .heif), bitDepth: bitDepth ?? 8),
            jxl: JXLEncodeOptions(quality: quality(for: .jxl), lossless: lossless, effort: effort(for: .jxl)))
    }

    /// These options with automatic subsampling resolved for an output made from `source`, reduced by `reduction`
    /// (source pixels per output pixel); see ``subsampling``.
    func resolvingSubsampling(source: ImageInfo, reduction: Double) -> SaveOptions {
        guard subsampling == nil, reduction < 2, let own = source.chromaSubsampling else { return self }
        let coarseness: [ChromaSubsampling] = [.s444, .s422, .s420]
        var resolved = self
        resolved.subsampling = [own, ChromaSubsampling.automatic(quality: quality(for: .jpeg))]
            .max { coarseness.firstIndex(of: $0)! < coarseness.firstIndex(of: $1)! }
        return resolved
    }
}

extension SaveOptions {
    /// The settings ``validate(for:)`` checks, named as the faces name them: `--quality` on the command line,
    /// `quality=` in a service or render URL.
    public enum Setting: String, CaseIterable, Hashable, Sendable {
        /// ``SaveOptions/format``.
        case format
        /// ``SaveOptions/quality``.
        case quality
        /// ``SaveOptions/effort``.
        case effort
        /// ``SaveOptions/lossless``.
        case lossless
        /// ``SaveOptions/bitDepth``.
        case bitDepth = "bit-depth"
        /// ``SaveOptions/pngCompressionLevel``.
        case compression
        /// ``SaveOptions/metadata``, and a `strip` flag that contradicts it.
        case metadata
    }

    /// The range ``pngCompressionLevel`` takes: zlib's 0 (store) … 9 (smallest).
    public static let compressionRange = PNGEncodeOptions.compressionRange

    /// Checks every setting against its range, and, for a known output `format`, against what that format can do.
    ///
    /// Every face runs this before any work, so a refusal is the same on the command line, in the render API and in
    /// the image service, only worded with the face's own name for the setting. The rules, from
    /// `ImageFormat`'s one table:
    /// - ``quality`` on `ImageFormat.qualityRange` (1…100 for every lossy format); a format without quality
    ///   ignores it, so a service's `quality=` holds when `format=auto` picks PNG;
    /// - ``effort`` on the format's `ImageFormat.effortRange` (WebP 0…6, AVIF and HEIC 0…9, JPEG XL 1…9), or on
    ///   0…9 before the format is known; a format without effort ignores it;
    /// - ``lossless`` only for a format with `ImageFormat.encodesLosslessly` (or PNG, which always is): JPEG
    ///   and GIF would silently lose what was asked to be kept;
    /// - ``bitDepth`` 8 or 10, and 10 only for a format that writes it (HEIC, AVIF);
    /// - ``pngCompressionLevel`` on ``compressionRange``;
    /// - the format one CropKit writes.
    ///
    /// - Throws: ``CropKitError/invalidOption(_:reason:)`` naming the first setting that fails.
    public func validate(for format: ImageFormat? = nil) throws(CropKitError) {
        let range = EncoderChecks.describe
        if let quality, !ImageFormat.qualityRange.contains(quality) {
            throw .invalidOption(.quality, reason: "\(quality) is outside \(range(ImageFormat.qualityRange))")
        }
        if let effort {
            let effortRanges = ImageFormat.writable.compactMap(\.effortRange)
            let any = effortRanges.map(\.lowerBound).min()!...effortRanges.map(\.upperBound).max()!
            if !any.contains(effort) {
                throw .invalidOption(.effort, reason: "\(effort) is outside \(range(any))")
            }
            if let format, let own = format.effortRange, !own.contains(effort) {
                throw .invalidOption(.effort, reason: "\(effort) is outside \(format)'s \(range(own))")
            }
        }
        if let bitDepth {
            let depths = Set(ImageFormat.writable.flatMap(\.selectableBitDepths)).sorted()
            guard depths.contains(bitDepth) else {
                throw .invalidOption(
                    .bitDepth, reason: "\(bitDepth) is not \(depths.map(String.init).joined(separator: " or "))")
            }
            if let format, bitDepth != 8, !format.selectableBitDepths.contains(bitDepth) {
                throw .invalidOption(
                    .bitDepth,
                    reason: "\(format) takes no bit depth; \(bitDepth) bits are for "
                        + Self.list(ImageFormat.writable.filter { $0.selectableBitDepths.contains(bitDepth) }))
            }
        }
        if !Self.compressionRange.contains(pngCompressionLevel) {
            throw .invalidOption(
                .compression, reason: "\(pngCompressionLevel) is outside \(range(Self.compressionRange))")
        }
        guard let format else { return }
        if lossless, !format.encodesLosslessly, format != .png {
            throw .invalidOption(
                .lossless,
                reason: "\(format) cannot be lossless; write "
                    + Self.list([.png] + ImageFormat.writable.filter(\.encodesLosslessly)))
        }
        guard format.isWritable else {
            throw .invalidOption(
                .format,
                reason: "CropKit reads \(format) but does not write it; write " + Self.list(ImageFormat.writable))
        }
    }

    /// The ``MetadataPolicy`` a face's two spellings stand for: a `strip` flag, and a `metadata` policy that may
    /// be absent.
    ///
    /// - Throws: ``CropKitError/invalidOption(_:reason:)`` (``Setting/metadata``) when both are given and disagree.
    public static func metadata(strip: Bool, policy: MetadataPolicy?) throws(CropKitError) -> MetadataPolicy {
        guard strip else { return policy ?? .keep }
        if let policy, policy != .strip {
            throw .invalidOption(.metadata, reason: "strip contradicts metadata \(policy.rawValue)")
        }
        return .strip
    }

    /// "PNG, WebP or AVIF".
    private static func list(_ formats: [ImageFormat]) -> String {
        let names = formats.map(\.displayName)
        return names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names.last!
    }

    /// The format an output is written in: ``format``, else the extension of the file's `path`, else JPEG (for an
    /// output in memory, `path` `nil`).
    ///
    /// - Throws: ``CropKitError/invalidOption(_:reason:)``: ``Setting/format`` when the name gives no format and none
    ///   is set, or when the format is one CropKit reads but does not write (TIFF, BMP, JPEG 2000); any other
    ///   setting ``validate(for:)`` refuses for the format.
    func outputFormat(path: String?) throws(CropKitError) -> ImageFormat {
        let named = path.map { ImageFormat(pathExtensionOf: $0) } ?? .jpeg
        guard let format = format ?? named else {
            let names = ImageFormat.writable.map { "." + $0.fileExtension }
            throw .invalidOption(
                .format,
                reason: "cannot tell it from the name \(path ?? ""); use \(names.dropLast().joined(separator: ", ")) "
                    + "or \(names.last!), or set it")
        }
        try validate(for: format)
        return format
    }
}

/// Which frames of an animated source an output gets.
public enum FrameSelection: String, Hashable, Sendable, CaseIterable {
    /// Every frame, each through the same steps, with the source's delays and play count, when the output format
    /// animates (GIF, WebP, AVIF). A still format (JPEG, PNG, HEIC) gets the first frame and a
    /// ``PipelineWarning/framesDropped(frames:format:)``.
    case all
    /// The first frame only, in any format, without a warning.
    case first
}
