import CJPEG
import CropGeometry
import CropPixels

/// Options for JPEG encoding.
package struct JPEGEncodeOptions: Hashable, Sendable {
    /// 1…100 (libjpeg's scale). Default 80 (``ImageFormat/defaultQuality``).
    package var quality: Int
    /// Chroma subsampling; `nil` picks ``ChromaSubsampling/automatic(quality:)``.
    package var subsampling: ChromaSubsampling?
    /// Write a progressive JPEG (libjpeg's standard scan script).
    package var progressive: Bool
    /// Compute optimal Huffman tables (smaller files; needs a second pass over buffered coefficients).
    package var optimizeHuffman: Bool
    /// The gray level (0…255) that transparent pixels are composited over, since JPEG has no alpha.
    package var background: UInt8
    /// MCUs between restart markers (0, the default: none; at most 65535). Restart markers let a decoder resume
    /// after damaged data; cameras write them.
    package var restartInterval: Int = 0
    /// Whether a baseline picture is encoded in stripes on two threads (see ``JPEGStripes``). Default
    /// ``JPEGStripes/off``; a pipeline that may use more than one thread asks for ``JPEGStripes/automatic``.
    package var stripes = JPEGStripes.off

    /// Creates options.
    package init(
        quality: Int = 80, subsampling: ChromaSubsampling? = nil, progressive: Bool = false,
        optimizeHuffman: Bool = false, background: UInt8 = 255
    ) {
        self.quality = quality
        self.subsampling = subsampling
        self.progressive = progressive
        self.optimizeHuffman = optimizeHuffman
        self.background = background
    }

    /// The subsampling that will be used.
    package var effectiveSubsampling: ChromaSubsampling {
        subsampling ?? ChromaSubsampling.automatic(quality: quality)
    }
}

/// Options for PNG encoding.
package struct PNGEncodeOptions: Hashable, Sendable {
    /// zlib compression level 0…9. Default 6.
    package var compressionLevel: Int

    /// Creates options.
    /// The levels zlib takes: 0 (stored) … 9 (smallest).
    package static let compressionRange = 0...9

    package init(compressionLevel: Int = 6) {
        self.compressionLevel = compressionLevel
    }
}

/// Encoding options for every format.
package struct EncodeOptions: Hashable, Sendable {
    /// Options used when writing JPEG.
    package var jpeg: JPEGEncodeOptions
    /// Options used when writing PNG.
    package var png: PNGEncodeOptions
    /// Options used when writing WebP.
    package var webp: WebPEncodeOptions
    /// Options used when writing HEIC and AVIF.
    package var heif: HEIFEncodeOptions
    /// Options used when writing JPEG XL.
    package var jxl: JXLEncodeOptions

    /// Creates options.
    package init(
        jpeg: JPEGEncodeOptions = JPEGEncodeOptions(), png: PNGEncodeOptions = PNGEncodeOptions(),
        webp: WebPEncodeOptions = WebPEncodeOptions(), heif: HEIFEncodeOptions = HEIFEncodeOptions(),
        jxl: JXLEncodeOptions = JXLEncodeOptions()
    ) {
        self.jxl = jxl
        self.jpeg = jpeg
        self.png = png
        self.webp = webp
        self.heif = heif
    }
}

/// Whether a baseline JPEG is encoded in stripes on two threads.
///
/// The picture is cut into stripes of about 64 rows, one restart interval each; two worker threads encode them as
/// pictures of their own, and the stripes are joined in order. The file is byte-identical to libjpeg's own encode with
/// that restart interval, so the pixels are those of an encode without one, for about 2.5 bytes of markers a stripe.
/// Only for standard Huffman tables, no progression and no restart interval of the caller's.
package enum JPEGStripes: Sendable, Hashable, CaseIterable {
    /// One thread.
    case off
    /// Stripes for pictures of a megapixel or more (and more than two stripes).
    case automatic
    /// Stripes whenever there are more than two (for tests).
    case always

    var shimMode: Int32 {
        switch self {
        case .off: Int32(CK_JPEG_STRIPES_OFF)
        case .automatic: Int32(CK_JPEG_STRIPES_AUTO)
        case .always: Int32(CK_JPEG_STRIPES_ALWAYS)
        }
    }
}
