import CropGeometry
import CropPixels

/// JPEG shrink-on-load: libjpeg's DCT scaling decodes straight to 1/2, 1/4 or 1/8 of the stored size, which is much
/// faster and smaller than decoding the full image and resizing.
public enum JPEGScale: Int, CaseIterable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// Full size.
    case full = 1
    /// Half size (1/2).
    case half = 2
    /// Quarter size (1/4).
    case quarter = 4
    /// An eighth (1/8).
    case eighth = 8

    /// The divisor: 1, 2, 4 or 8.
    @inlinable
    public var denominator: Int { rawValue }

    /// The decoded size of an image stored at `width × height`: each dimension divided and rounded up, as libjpeg
    /// does.
    public func scaledSize(width: Int, height: Int) -> (width: Int, height: Int) {
        ((width + denominator - 1) / denominator, (height + denominator - 1) / denominator)
    }

    /// The largest reduction whose output still covers `minWidth × minHeight`, so that a later resize only ever
    /// shrinks.
    public static func largestReduction(width: Int, height: Int, minWidth: Int, minHeight: Int) -> JPEGScale {
        for scale in [JPEGScale.eighth, .quarter, .half] {
            let size = scale.scaledSize(width: width, height: height)
            if size.width >= minWidth && size.height >= minHeight { return scale }
        }
        return .full
    }

    public var description: String { self == .full ? "1" : "1/\(denominator)" }
}

/// How far a progressive JPEG decoded at 1/8 may skip its later scans.
public enum JPEGEarlyStop: String, CaseIterable, Hashable, Sendable {
    /// Read every scan.
    case off
    /// Stop once every coefficient that libjpeg's scaled IDCT reads is final. The output is byte-identical to a
    /// full decode. For grayscale, 4:4:4 and 4:2:2 files at 1/8 that is the DC coefficient only; for 4:2:0 files the
    /// chroma planes use a 2×2 IDCT, which also reads low-frequency AC coefficients of the chroma components.
    case exact
    /// Stop once every component's DC coefficient is final. Identical to ``exact`` where that needs DC only;
    /// for 4:2:0 files the chroma is then reconstructed from the scans read so far, an approximation (a blockier
    /// chroma at 1/8 scale) that is usually fine for thumbnails and can skip most of the file.
    case dcOnly
}

/// Options for decoding.
public struct DecodeOptions: Hashable, Sendable {
    /// The decompression-bomb guard: the stored (header) dimensions are checked against it before anything large
    /// is allocated, libjpeg's own buffers included.
    public var limits: PixelLimits
    /// Turn the codec's corrupt-data warnings into ``CodecError/corruptData(format:message:)``.
    public var strict: Bool
    /// JPEG shrink-on-load (PNG ignores it).
    public var jpegScale: JPEGScale
    /// How a progressive JPEG decoded at 1/8 may stop early (see ``JPEGEarlyStop``).
    public var jpegEarlyStop: JPEGEarlyStop
    /// The most scans a progressive JPEG may have (a guard against files built to burn CPU). Default 500.
    public var maxProgressiveScans: Int

    /// Creates options; the defaults decode at full size, tolerate recoverable corruption with warnings, and allow
    /// 200 megapixels.
    public init(
        limits: PixelLimits = .default, strict: Bool = false, jpegScale: JPEGScale = .full,
        jpegEarlyStop: JPEGEarlyStop = .exact, maxProgressiveScans: Int = 500
    ) {
        self.limits = limits
        self.strict = strict
        self.jpegScale = jpegScale
        self.jpegEarlyStop = jpegEarlyStop
        self.maxProgressiveScans = maxProgressiveScans
    }
}

/// JPEG chroma subsampling: how many luma samples share one pair of chroma samples.
public enum ChromaSubsampling: String, CaseIterable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// 4:4:4, no subsampling.
    case s444 = "4:4:4"
    /// 4:2:2, half horizontal chroma resolution.
    case s422 = "4:2:2"
    /// 4:2:0, half horizontal and vertical chroma resolution (libjpeg's default).
    case s420 = "4:2:0"

    public var description: String { rawValue }

    /// What `nil` (automatic) means for a given quality: 4:4:4 from quality 90 up, 4:2:0 below (as libvips does).
    public static func automatic(quality: Int) -> ChromaSubsampling { quality >= 90 ? .s444 : .s420 }
}

/// Options for JPEG encoding.
public struct JPEGEncodeOptions: Hashable, Sendable {
    /// 1…100 (libjpeg's scale). Default 90.
    public var quality: Int
    /// Chroma subsampling; `nil` picks ``ChromaSubsampling/automatic(quality:)``.
    public var subsampling: ChromaSubsampling?
    /// Write a progressive JPEG (libjpeg's standard scan script).
    public var progressive: Bool
    /// Compute optimal Huffman tables (smaller files; needs a second pass over buffered coefficients).
    public var optimizeHuffman: Bool
    /// The gray level (0…255) that transparent pixels are composited over, since JPEG has no alpha.
    public var background: UInt8

    /// Creates options.
    public init(
        quality: Int = 90, subsampling: ChromaSubsampling? = nil, progressive: Bool = false,
        optimizeHuffman: Bool = false, background: UInt8 = 255
    ) {
        self.quality = quality
        self.subsampling = subsampling
        self.progressive = progressive
        self.optimizeHuffman = optimizeHuffman
        self.background = background
    }

    /// The subsampling that will be used.
    public var effectiveSubsampling: ChromaSubsampling {
        subsampling ?? ChromaSubsampling.automatic(quality: quality)
    }
}

/// Options for PNG encoding.
public struct PNGEncodeOptions: Hashable, Sendable {
    /// zlib compression level 0…9. Default 6.
    public var compressionLevel: Int

    /// Creates options.
    public init(compressionLevel: Int = 6) {
        self.compressionLevel = compressionLevel
    }
}

/// Encoding options for both formats.
public struct EncodeOptions: Hashable, Sendable {
    /// Options used when writing JPEG.
    public var jpeg: JPEGEncodeOptions
    /// Options used when writing PNG.
    public var png: PNGEncodeOptions

    /// Creates options.
    public init(jpeg: JPEGEncodeOptions = JPEGEncodeOptions(), png: PNGEncodeOptions = PNGEncodeOptions()) {
        self.jpeg = jpeg
        self.png = png
    }
}
