import CropGeometry
import CropPixels

/// What a file's header and metadata say about an image, read without decoding any pixels.
public struct ImageInfo: Hashable, Sendable {
    /// The file format.
    public var format: ImageFormat
    /// Stored columns (before orientation).
    public var width: Int
    /// Stored rows (before orientation).
    public var height: Int
    /// The EXIF orientation (`Orientation.up` when absent or invalid).
    public var orientation: Orientation
    /// The channel layout a decoder produces (JPEG CMYK/YCCK and PNG palettes decode to RGB or RGBA).
    public var layout: ChannelLayout
    /// Bits per sample in the file: 1, 2, 4, 8 or 16 (palette PNGs: bits per index).
    public var bitDepth: Int
    /// The sample depth a decoder produces: 16-bit PNGs stay 16-bit, everything else is 8-bit.
    public var decodedDepth: BitDepth
    /// The ICC profile's size in bytes, or `nil` when there is none.
    public var iccProfileSize: Int?
    /// Whether the file has an EXIF block.
    public var hasEXIF: Bool
    /// A progressive JPEG.
    public var isProgressive: Bool
    /// A JPEG whose entropy coding is arithmetic rather than Huffman (SOF9–SOF15; libjpeg-turbo reads both).
    public var isArithmeticCoded = false
    /// An Adam7-interlaced PNG.
    public var isInterlaced: Bool
    /// How the file codes colour, for people: "YCbCr 4:2:0", "grayscale", "CMYK (Adobe)", "palette", "RGBA" ….
    public var colorModel: String
    /// For a YCbCr JPEG with one of the three common layouts, its chroma subsampling; `nil` otherwise.
    public var chromaSubsampling: ChromaSubsampling? = nil
    /// For an animation, its number of frames (CropKit reads the first); `nil` for a still picture.
    public var frameCount: Int? = nil
    /// For an animation, how many times it plays, 0 for ever (a GIF's NETSCAPE loop count n plays n + 1 times, as
    /// browsers count it; a WebP's ANIM loop count n plays n times); `nil` when the file does not say (a GIF without
    /// the extension plays once) or is not animated.
    public var playCount: Int? = nil
    /// For an animation, its frames' delays added up, in seconds.
    public var duration: Double? = nil
    /// What the decoder holds whole while it decodes (for memory plans).
    package var decoderMemory: DecoderMemory = .rows
    /// The largest shrink-on-load this picture allows, when ``shrinksOnLoad``: 8, or for JPEG 2000 two to the power of
    /// its resolution levels less one (OpenJPEG decodes only the levels it needs), at most 8.
    package var largestShrinkOnLoad = 8

    /// The size as stored.
    public var storedSize: PixelSize { PixelSize(validWidth: width, height: height) }

    /// The size once the orientation is applied.
    public var displayedSize: PixelSize { orientation.displayedSize(of: storedSize) }

    /// Channels a decoder produces.
    public var channelCount: Int { layout.channelCount }

    /// Whether a decoder produces an alpha channel.
    public var hasAlpha: Bool { layout.hasAlpha }

    /// The pixel format a decoder produces.
    public var decodedFormat: PixelFormat { PixelFormat(layout, decodedDepth) }

    /// Whether decoders shrink this picture on load when asked (``JPEGScale``): JPEG by DCT scaling, a still WebP
    /// through libwebp's rescaler, an 8-bit HEIF or AVIF without alpha by averaging blocks of libheif's picture. Other
    /// pictures always decode at full size.
    public var shrinksOnLoad: Bool {
        guard format.shrinksOnLoad else { return false }
        switch format {
        case .webp: return frameCount == nil
        case .heif, .avif: return !hasAlpha && decodedDepth == .eight
        case .jp2: return largestShrinkOnLoad >= 2
        default: return true
        }
    }

    /// Reads the header and metadata of in-memory image data. Allocates no pixel memory.
    ///
    /// - Parameter strict: turn the codec's warnings while reading the header into errors.
    /// - Throws: ``CodecError`` when the data is not a supported image or its header is broken.
    package static func read(_ data: [UInt8], strict: Bool = false) throws(CodecError) -> ImageInfo {
        let options = DecodeOptions(limits: .unlimited, strict: strict)
        let format = try ImageFormat.detect(data)
        switch format {
        case .jpeg: return try JPEGDecoder(data: data, options: options).info
        case .png: return try PNGDecoder(data: data, options: options).info
        case .webp: return try WebPDecoder(data: data, options: options).info
        case .heif, .avif: return try HEIFDecoder(data: data, format: format, options: options).info
        case .gif: return try GIFDecoder(data: data, options: options).info
        case .tiff: return try TIFFDecoder(data: data, options: options).info
        case .jxl: return try JXLDecoder(data: data, options: options).info
        case .jp2: return try JP2Decoder(data: data, options: options).info
        case .bmp: return try BMPDecoder(data: data, options: options).info
        }
    }

    /// Reads the header and metadata of an image file without decoding pixels: a decoder reads the file a chunk at a
    /// time up to the end of the header, so this is fast on big files and holds little memory.
    ///
    /// - Throws: ``CodecError/ioFailure(path:operation:reason:)`` when the file cannot be read, or the errors of
    ///   ``read(_:strict:)``.
    package static func read(fileAtPath path: String, strict: Bool = false) throws(CodecError) -> ImageInfo {
        try read(input: .file(InputFile(path: path)), strict: strict)
    }

    /// Reads the header and metadata of an input in memory or in a file; see ``read(_:strict:)``.
    package static func read(input: DecoderInput, strict: Bool = false) throws(CodecError) -> ImageInfo {
        try ImageCodec.makeDecoder(input: input, options: DecodeOptions(limits: .unlimited, strict: strict)).info
    }
}
