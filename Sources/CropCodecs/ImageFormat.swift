/// The image formats CropKit reads and writes.
public enum ImageFormat: String, CaseIterable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// JPEG (JFIF/EXIF), through libjpeg-turbo.
    case jpeg
    /// PNG, through libpng.
    case png
    /// WebP (lossy, lossless, alpha; the first frame of an animation), through libwebp loaded at run time.
    case webp
    /// HEIF/HEIC (the primary image: grids, alpha, 10/12-bit, transform properties), through libheif loaded at run
    /// time; written as HEIC through libheif's HEVC encoder (x265).
    case heif
    /// AVIF (AV1 in HEIF: alpha, 10/12-bit, transform properties), through libheif loaded at run time; written
    /// through libheif's AV1 encoder (libaom).
    case avif
    /// GIF (the first frame, composited on its canvas), through giflib loaded at run time. Read only.
    case gif
    /// TIFF (8/16-bit gray and RGB with alpha, strips or tiles, the Orientation tag, ICC; other layouts as 8-bit
    /// RGBA), through libtiff loaded at run time. Read only.
    case tiff
    /// BMP (Windows and OS/2 bitmaps: 1 to 8-bit palettes, RLE8 and RLE4, 16, 24 and 32-bit with bit fields and
    /// alpha), through CropKit's own reader. Read only.
    case bmp
    /// JPEG XL (bare codestreams and the container: 8 to 32-bit, alpha, the codestream's orientation, ICC; the first
    /// frame of an animation), through libjxl loaded at run time; written lossy or lossless, 8 or 16-bit, and JPEG
    /// files recompressed losslessly.
    case jxl
    /// JPEG 2000 (JP2 files and raw J2K codestreams: 1 to 16-bit components, sYCC, alpha, ICC; reduced-resolution
    /// decoding for shrink-on-load), through OpenJPEG loaded at run time. Read only.
    case jp2

    /// The name people use: "JPEG", "PNG".
    public var displayName: String {
        switch self {
        case .jpeg: "JPEG"
        case .png: "PNG"
        case .webp: "WebP"
        case .heif: "HEIF"
        case .avif: "AVIF"
        case .gif: "GIF"
        case .tiff: "TIFF"
        case .bmp: "BMP"
        case .jxl: "JPEG XL"
        case .jp2: "JPEG 2000"
        }
    }

    /// The usual file extension, without the dot.
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .png: "png"
        case .webp: "webp"
        case .heif: "heic"
        case .avif: "avif"
        case .gif: "gif"
        case .tiff: "tif"
        case .bmp: "bmp"
        case .jxl: "jxl"
        case .jp2: "jp2"
        }
    }

    /// The quality a lossy output of this format gets when none is asked for: JPEG and WebP 80, AVIF and HEIC 50
    /// (sharp's defaults; libvips' are 75 and 50); `nil` for PNG and the formats CropKit only reads.
    ///
    /// Measured by `Benchmarks/quality-defaults.sh` on four photos at 1800 px (docs/formats.md): against libvips'
    /// defaults on the same libraries, JPEG 80 is 1.15× the size at SSIM 0.971 (vips 0.968), WebP 80 1.25× at 0.964
    /// (0.959), AVIF and HEIC 50 the same bytes. Before, every lossy format defaulted to 90: AVIF files were 5.9×
    /// and JPEG 2.2× libvips' size.
    public var defaultQuality: Int? {
        switch self {
        case .jpeg, .webp: 80
        case .avif, .heif: 50
        case .jxl: 75
        case .png, .gif, .tiff, .bmp, .jp2: nil
        }
    }

    /// The quality scale of every lossy output (JPEG, WebP, AVIF, HEIC, JPEG XL): 1 (smallest) … 100 (best). One
    /// convention for every encoder, though libwebp and libheif would take 0: their 0 and 1 differ by a few bytes.
    public static let qualityRange = 1...100

    /// The encoder effort this format takes, from fastest to smallest file: WebP 0…6 (libwebp's method), AVIF and
    /// HEIC 0…9 (as libvips' effort; the AV1 speed is 9 − effort), JPEG XL 1…9 (libjxl's); `nil` for the formats whose
    /// encoders have no such setting.
    public var effortRange: ClosedRange<Int>? {
        switch self {
        case .webp: 0...6
        case .avif, .heif: 0...9
        case .jxl: 1...9
        case .jpeg, .png, .gif, .tiff, .bmp, .jp2: nil
        }
    }

    /// The effort an output of this format gets when none is asked for: 4 for WebP, AVIF and HEIC (libvips' and
    /// sharp's), 7 for JPEG XL (`cjxl`'s); `nil` where ``effortRange`` is.
    public var defaultEffort: Int? {
        switch self {
        case .webp, .avif, .heif: 4
        case .jxl: 7
        case .jpeg, .png, .gif, .tiff, .bmp, .jp2: nil
        }
    }

    /// Whether an output of this format can be asked to be lossless: WebP, AVIF, HEIC and JPEG XL (PNG always is;
    /// JPEG and GIF cannot be).
    public var encodesLosslessly: Bool { [.webp, .avif, .heif, .jxl].contains(self) }

    /// The bits per sample an output of this format can be asked for: 8 or 10 for HEIC and AVIF; empty for the
    /// others, which write 8 bits (PNG and JPEG XL keep a 16-bit source's 16 by themselves).
    public var selectableBitDepths: [Int] { self == .heif || self == .avif ? [8, 10] : [] }

    /// Whether CropKit writes animations in this format: GIF, WebP and AVIF (an image sequence).
    public var writesAnimation: Bool { [.gif, .webp, .avif].contains(self) }

    /// Whether CropKit reads animations in this format, frame by frame: the ones it writes, and JPEG XL.
    public var readsAnimation: Bool { writesAnimation || self == .jxl }

    /// Whether decoders of this format can shrink a picture on load at all (JPEG, WebP, HEIF, AVIF, JPEG 2000; whether a
    /// given picture does is ``ImageInfo/shrinksOnLoad``).
    public var shrinksOnLoad: Bool { [.jpeg, .webp, .heif, .avif, .jp2].contains(self) }

    /// Whether CropKit writes this format (TIFF, BMP and JPEG 2000 are read only).
    public var isWritable: Bool { ![.tiff, .bmp, .jp2].contains(self) }

    /// Whether an output in this format carries an ICC profile and EXIF: every written format but GIF.
    public var holdsMetadata: Bool { isWritable && self != .gif }

    /// The formats CropKit writes, in declaration order.
    public static let writable: [ImageFormat] = allCases.filter(\.isWritable)

    /// The format a picture read from this format is written in when nothing else is asked for: the format itself,
    /// or PNG (lossless, keeps alpha and 16-bit samples) for the read-only TIFF, BMP and JPEG 2000.
    public var defaultOutput: ImageFormat { isWritable ? self : .png }

    /// The media type: `image/jpeg`, `image/png`, `image/webp`, `image/heic`, `image/avif`, `image/gif`,
    /// `image/tiff`, `image/bmp`, `image/jxl`.
    public var mimeType: String { self == .heif ? "image/heic" : "image/" + rawValue }

    public var description: String { displayName }

    /// The format a file name's extension names (`.jpg`, `.jpeg`, `.jpe`, `.jfif`, `.png`, `.webp`, `.heic`,
    /// `.heif`, `.hif`, `.avif`, `.gif`, `.tif`, `.tiff`, `.bmp`, `.dib`, `.jxl`, `.jp2`, `.j2k`, `.j2c`, `.jpf`, `.jpx`; any case), or
    /// `nil`.
    public init?(pathExtensionOf path: String) {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        switch name[name.index(after: dot)...].lowercased() {
        case "jpg", "jpeg", "jpe", "jfif": self = .jpeg
        case "png": self = .png
        case "webp": self = .webp
        case "heic", "heif", "hif": self = .heif
        case "avif": self = .avif
        case "gif": self = .gif
        case "tif", "tiff": self = .tiff
        case "bmp", "dib": self = .bmp
        case "jxl": self = .jxl
        case "jp2", "j2k", "j2c", "jpf", "jpx": self = .jp2
        default: return nil
        }
    }

    /// The bytes detection reads: enough for an ISO `ftyp` box with a few compatible brands.
    package static let signatureLength = 64

    private static let jpegSignature: [UInt8] = [0xFF, 0xD8, 0xFF]
    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    private static let jxlContainerSignature: [UInt8] = [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]

    /// Detects the format from the first bytes of the data (magic bytes), never from a file name.
    ///
    /// - Throws: ``CodecError/notAnImage(reason:)`` for empty data or data with no known signature,
    ///   ``CodecError/truncated(format:detail:)`` when the data is a proper prefix of a signature,
    ///   ``CodecError/unsupportedFormat(_:)`` for formats CropKit recognises but does not read (PSD, TGA …).
    /// - Complexity: O(1); looks at no more than the first ``signatureLength`` bytes.
    package static func detect<C: Collection<UInt8>>(_ bytes: C) throws(CodecError) -> ImageFormat {
        let head = Array(bytes.prefix(signatureLength))
        if head.isEmpty { throw .notAnImage(reason: "the data is empty (0 bytes)") }
        for (format, signature) in [(ImageFormat.jpeg, jpegSignature), (.png, pngSignature)] {
            if head.starts(with: signature) { return format }
            if head.count < signature.count && signature.starts(with: head) {
                throw .truncated(
                    format: format, detail: "only \(head.count) bytes, not even a complete \(format) signature")
            }
        }
        // JPEG 2000: the JP2 signature box, or a raw codestream's SOC and SIZ markers.
        if head.starts(with: [0, 0, 0, 0x0C, 0x6A, 0x50, 0x20, 0x20, 0x0D, 0x0A, 0x87, 0x0A])
            || head.starts(with: [0xFF, 0x4F, 0xFF, 0x51])
        {
            return .jp2
        }
        // JPEG XL: a bare codestream (FF 0A) or the container's signature box.
        if head.starts(with: [0xFF, 0x0A]) || head.starts(with: jxlContainerSignature) { return .jxl }
        if head.count < jxlContainerSignature.count, head.count >= 4, jxlContainerSignature.starts(with: head) {
            throw .truncated(format: .jxl, detail: "only \(head.count) bytes, not even a complete JPEG XL signature")
        }
        if head.count >= 12, head.starts(with: Array("RIFF".utf8)), head[8..<12].elementsEqual("WEBP".utf8) {
            return .webp
        }
        if let brand = isoBrand(head) {
            return ["avif", "avis"].contains(brand) ? .avif : .heif
        }
        if head.count >= 6, head.starts(with: Array("GIF8".utf8)), head[5] == UInt8(ascii: "a"),
            head[4] == UInt8(ascii: "7") || head[4] == UInt8(ascii: "9")
        {
            return .gif
        }
        // Classic TIFF (42) and BigTIFF (43), little- or big-endian.
        for version: UInt8 in [0x2A, 0x2B]
        where head.starts(with: [0x49, 0x49, version, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, version]) {
            return .tiff
        }
        // BMP: "BM", then the two reserved words (zero) or an info header size that some BMP version has (12, 16…64,
        // 108 or 124); BMPFile names a bad header size.
        if head.count >= 18, head.starts(with: [0x42, 0x4D]) {
            let size = Int(head[14]) | Int(head[15]) << 8 | Int(head[16]) << 16 | Int(head[17]) << 24
            if head[6..<10].allSatisfy({ $0 == 0 }) || size == 12 || (16...64).contains(size) || size == 108
                || size == 124
            {
                return .bmp
            }
        }
        if head.starts(with: Array("RIFF".utf8)), head.count < 12 {
            throw .truncated(format: .webp, detail: "only \(head.count) bytes, not even a complete RIFF/WEBP header")
        }
        if let other = otherFormat(head) { throw .unsupportedFormat(other) }
        throw .notAnImage(
            reason: "no known image signature (starts with \(head.prefix(8).map(hexByte).joined(separator: " ")))")
    }

    /// For an ISO base media file whose `ftyp` box names a HEIF brand, the brand that decides the format: `avif` or
    /// `avis` for AVIF (as the major brand, or among the compatible brands of a `mif1`/`msf1` file), else the HEIF
    /// brand; `nil` for anything else (MP4 video, JPEG 2000, …).
    private static func isoBrand(_ head: [UInt8]) -> String? {
        guard head.count >= 12, head[4..<8].elementsEqual("ftyp".utf8) else { return nil }
        let major = String(decoding: head[8..<12], as: UTF8.self)
        let heif = [
            "heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1", "mif2", "avif", "avis", "jpeg", "j2ki",
        ]
        guard heif.contains(major) else { return nil }
        guard major == "mif1" || major == "msf1" else { return major }
        let size = Int(head[0]) << 24 | Int(head[1]) << 16 | Int(head[2]) << 8 | Int(head[3])
        let end = Swift.min(size, head.count)
        let compatible = stride(from: 16, to: end - 3, by: 4).map {
            String(decoding: head[$0..<($0 + 4)], as: UTF8.self)
        }
        return compatible.first { $0 == "avif" || $0 == "avis" } ?? major
    }

    /// `bytes` as text, each byte outside printable ASCII as `\xNN` (a fuzzed brand is no string to print).
    package static func printable<C: Collection<UInt8>>(_ bytes: C) -> String {
        bytes.map { (0x20..<0x7F).contains($0) ? String(UnicodeScalar($0)) : "\\x" + hexByte($0) }.joined()
    }

    /// A byte as two upper-case hex digits.
    package static func hexByte(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }

    /// Whether the header is a plausible Truevision TGA one (the format has no magic number at its start): a colour
    /// map type of 0 or 1, a known image type (1–3 uncompressed, 9–11 RLE), a colour map entry size that fits the
    /// map type, a non-zero size and a pixel depth of 8, 15, 16, 24 or 32 bits. Tried only after every other
    /// signature.
    private static func isTGA(_ head: [UInt8]) -> Bool {
        guard head.count >= 18, head[1] <= 1, [1, 2, 3, 9, 10, 11].contains(head[2]),
            [8, 15, 16, 24, 32].contains(head[16])
        else { return false }
        let mapEntry = head[7]
        guard
            head[1] == 0 ? mapEntry == 0 || [15, 16, 24, 32].contains(mapEntry) : [15, 16, 24, 32].contains(mapEntry)
        else { return false }
        let width = Int(head[12]) | Int(head[13]) << 8, height = Int(head[14]) | Int(head[15]) << 8
        return width > 0 && height > 0 && head[17] & 0xC0 == 0  // bits 6–7 of the descriptor are reserved (zero)
    }

    /// Names a recognised but unsupported format, or returns `nil`.
    private static func otherFormat(_ head: [UInt8]) -> String? {
        func ascii(_ range: Range<Int>) -> String? {
            guard head.count >= range.upperBound else { return nil }
            return String(decoding: head[range], as: UTF8.self)
        }
        if head.count >= 12, ascii(4..<8) == "ftyp" {
            let brand = printable(head[8..<12])
            return ["mp41", "mp42", "isom", "iso2", "avc1", "M4V ", "qt  "].contains(brand)
                ? "video (MP4/QuickTime, brand \(brand))" : "ISO media, brand '\(brand)'"
        }
        if head.starts(with: [0x8B, 0x4A, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "JPEG Network Graphics (JNG)" }
        if head.starts(with: [0x8A, 0x4D, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            return "Multiple-image Network Graphics (MNG)"
        }
        if ascii(0..<10) == "%!PS-Adobe" || head.starts(with: [0xC5, 0xD0, 0xD3, 0xC6]) { return "PostScript (EPS)" }
        if head.starts(with: [0x01, 0xDA]), head.count >= 3, head[2] <= 1 { return "Silicon Graphics image (SGI)" }
        if let blp = ascii(0..<4), ["BLP0", "BLP1", "BLP2"].contains(blp) { return "Blizzard texture (BLP)" }
        if ascii(0..<9) == "SIMPLE  =" { return "FITS" }
        if head.starts(with: [0x59, 0xA6, 0x6A, 0x95]) { return "Sun raster" }
        if ascii(0..<9) == "/* XPM */" || ascii(0..<6) == "! XPM2" { return "X pixmap (XPM)" }
        if ascii(0..<8) == "#define " { return "X bitmap (XBM)" }
        if let pfm = ascii(0..<3), pfm == "PF\n" || pfm == "Pf\n" { return "Portable float map (PFM)" }
        if ascii(0..<14) == "id=ImageMagick" { return "ImageMagick (MIFF)" }
        if head.starts(with: [0xD7, 0xCD, 0xC6, 0x9A]) || head.starts(with: [0x01, 0x00, 0x09, 0x00, 0x00, 0x03]) {
            return "Windows metafile (WMF)"
        }
        if head.count >= 44, head.starts(with: [1, 0, 0, 0]), ascii(40..<44) == " EMF" {
            return "Windows enhanced metafile (EMF)"
        }
        if head.starts(with: [0xB1, 0x68, 0xDE, 0x3A]) { return "multi-page PCX (DCX)" }
        // FLI and FLC animations: the magic is a little-endian word at offset 4.
        if head.count >= 6, head[5] == 0xAF, head[4] == 0x11 || head[4] == 0x12 {
            return "Autodesk animation (FLI/FLC)"
        }
        // PCX: manufacturer 10, a known version, RLE or none, 1/2/4/8 bits.
        if head.count >= 4, head[0] == 0x0A, [0, 2, 3, 4, 5].contains(head[1]), head[2] <= 1,
            [1, 2, 4, 8].contains(head[3])
        {
            return "PC Paintbrush (PCX)"
        }
        if isTGA(head) { return "Truevision TGA" }
        if ascii(0..<4) == "8BPS" { return "Photoshop (PSD)" }
        if ascii(0..<4) == "qoif" { return "QOI" }
        if ascii(0..<4) == "DDS " { return "DirectDraw Surface (DDS)" }
        if ascii(0..<4) == "icns" { return "Apple icon (ICNS)" }
        if ascii(0..<9) == "gimp xcf " { return "GIMP (XCF)" }
        if head.starts(with: [0x76, 0x2F, 0x31, 0x01]) { return "OpenEXR" }
        if ascii(0..<10) == "#?RADIANCE" || ascii(0..<6) == "#?RGBE" { return "Radiance HDR" }
        if ascii(0..<5) == "%PDF-" { return "PDF" }
        if ascii(0..<4) == "FORM" && (ascii(8..<12) == "ILBM" || ascii(8..<12) == "PBM ") { return "IFF ILBM" }
        // ICO and CUR: a reserved 0, the type (1 icon, 2 cursor) and a non-zero image count, little-endian.
        if head.count >= 6, head[0] == 0, head[1] == 0, head[2] == 1 || head[2] == 2, head[3] == 0,
            head[4] != 0 || head[5] != 0, ascii(4..<8) != "ftyp"
        {
            return head[2] == 1 ? "Windows icon (ICO)" : "Windows cursor (CUR)"
        }
        // Netpbm: P1…P7, then whitespace.
        if head.count >= 3, head[0] == UInt8(ascii: "P"), (UInt8(ascii: "1")...UInt8(ascii: "7")).contains(head[1]),
            [0x20, 0x09, 0x0A, 0x0D].contains(head[2])
        {
            return "Netpbm (PNM, P\(Character(UnicodeScalar(head[1]))))"
        }
        // SVG and other XML (text, so after the binary signatures).
        if let text = ascii(0..<min(head.count, 64)), text.hasPrefix("<?xml") || text.hasPrefix("<svg") {
            return text.contains("<svg") || text.hasPrefix("<svg") ? "SVG (a vector drawing)" : "XML (SVG?)"
        }
        return nil
    }
}
