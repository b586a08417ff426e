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

    /// The codec options these settings stand for.
    package var encodeOptions: EncodeOptions {
        EncodeOptions(
            jpeg: JPEGEncodeOptions(
                quality: quality(for: .jpeg), subsampling: subsampling, progressive: progressive,
                optimizeHuffman: optimizeHuffman),
            png: PNGEncodeOptions(compressionLevel: pngCompressionLevel),
            webp: WebPEncodeOptions(quality: quality(for: .webp), lossless: lossless, effort: effort ?? 4),
            heif: HEIFEncodeOptions(
                quality: quality(for: .heif), lossless: lossless, effort: effort ?? 4, bitDepth: bitDepth ?? 8),
            jxl: JXLEncodeOptions(quality: quality(for: .jxl), lossless: lossless, effort: effort ?? 7))
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
    /// The format an output is written in: ``format``, else the extension of the file's `path`, else JPEG (for an
    /// output in memory, `path` `nil`).
    ///
    /// - Throws: ``CropKitError/invalidRequest(name:reason:)`` when the name gives no format and none is set, or when
    ///   the format is one CropKit reads but does not write (GIF, TIFF, BMP).
    func outputFormat(path: String?) throws(CropKitError) -> ImageFormat {
        let named = path.map { ImageFormat(pathExtensionOf: $0) } ?? .jpeg
        guard let format = format ?? named else {
            throw .invalidRequest(
                name: "output format",
                reason: "cannot tell it from the name \(path ?? ""); use .jpg, .png, .webp, .avif, .heic, .gif or .jxl, or set it")
        }
        guard format.isWritable else {
            throw .invalidRequest(
                name: "output format",
                reason: "CropKit reads \(format.displayName) but does not write it; use .jpg, .png, .webp, .avif, .heic, .gif or .jxl")
        }
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
