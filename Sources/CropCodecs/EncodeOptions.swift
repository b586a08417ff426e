import CropGeometry
import CropPixels

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
