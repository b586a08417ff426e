import CropPixels

/// A problem a decoder or encoder met and worked around: corrupt data a codec could decode past, a malformed EXIF
/// block that was ignored, an ICC profile that was dropped.
///
/// In strict mode (`DecodeOptions.strict`) the decoder's own warnings become ``CodecError`` instead.
public struct CodecWarning: Hashable, Sendable, CustomStringConvertible {
    /// Where the warning comes from.
    public enum Source: String, Hashable, Sendable {
        /// libjpeg, while decoding or encoding a JPEG.
        case jpeg
        /// libpng, while decoding or encoding a PNG.
        case png
        /// libwebp or the WebP container (a repaired chunk size, an animation of which only frame one is read …).
        case webp
        /// libheif or the HEIF/AVIF boxes.
        case heif
        /// giflib or the GIF's descriptors (an animation of which only frame one is read, a frame past the screen …).
        case gif
        /// libtiff or the TIFF's tags (further pages, unusual sample layouts …).
        case tiff
        /// CropKit's BMP reader (a file that ends early, RLE runs past the edge …).
        case bmp
        /// libjxl or the JPEG XL header (an animation of which only frame one is read, extra channels not read …).
        case jxl
        /// OpenJPEG or the JPEG 2000 header.
        case jp2
        /// The EXIF block (malformed, unreadable orientation …).
        case exif
        /// The ICC profile (inconsistent chunks …).
        case icc
    }

    /// Where the warning comes from.
    public var source: Source
    /// What happened, in the words of the codec or parser.
    public var message: String
    /// Whether it concerns the output being written (an encoder's warning), not the input being read.
    public var isAboutOutput: Bool

    /// Creates a warning about the input, or with `output` about the output being written.
    public init(_ source: Source, _ message: String, output: Bool = false) {
        self.source = source
        self.message = message
        isAboutOutput = output
    }

    /// `SOURCE: message`, or `SOURCE output: message` for the output (so a PNG encoder's words about a profile it
    /// refused are not read as a fault of a JPEG input).
    public var description: String { "\(source.rawValue)\(isAboutOutput ? " output" : ""): \(message)" }
}
