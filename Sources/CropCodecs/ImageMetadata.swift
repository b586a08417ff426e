import CropGeometry

/// The metadata CropKit carries from a decoded file to an encoded one: the EXIF orientation, the ICC profile and
/// the EXIF block.
///
/// On encode, the EXIF block is written with its orientation tag set to ``orientation`` and everything else kept. So
/// a pipeline that turns the pixels upright sets `orientation = .up` (see ``uprighted()``), and one that leaves the
/// pixels as stored keeps the orientation it read. Other metadata (XMP, IPTC, comments, text chunks) is not carried.
public struct ImageMetadata: Hashable, Sendable {
    /// How the stored pixels are to be displayed.
    public var orientation: Orientation
    /// The ICC colour profile, byte for byte; `nil` for none (sRGB is then the usual assumption).
    public var iccProfile: [UInt8]?
    /// The EXIF block as a TIFF structure (without JPEG's `Exif\0\0` prefix); `nil` for none.
    public var exif: [UInt8]?

    /// Creates metadata.
    public init(orientation: Orientation = .up, iccProfile: [UInt8]? = nil, exif: [UInt8]? = nil) {
        self.orientation = orientation
        self.iccProfile = iccProfile
        self.exif = exif
    }

    /// No metadata at all.
    public static let none = ImageMetadata()

    /// Whether there is nothing to write.
    public var isEmpty: Bool { orientation == .up && iccProfile == nil && exif == nil }

    /// The metadata of the same image after its pixels were turned upright: orientation 1, profile and EXIF kept
    /// (the EXIF orientation tag is written as 1).
    public func uprighted() -> ImageMetadata {
        ImageMetadata(orientation: .up, iccProfile: iccProfile, exif: exif)
    }

    /// The EXIF block to write: ``exif`` with its orientation tag set to ``orientation``, a minimal block when there
    /// is none and the orientation is not 1, or `nil`. A block that cannot be parsed is dropped with a warning
    /// rather than written with a stale orientation.
    func exifForEncoding(warnings: inout [CodecWarning]) -> [UInt8]? {
        guard let exif else { return orientation == .up ? nil : EXIF.minimalBlock(orientation: orientation) }
        guard let rewritten = EXIF.settingOrientation(orientation, in: exif) else {
            warnings.append(
                CodecWarning(
                    .exif, "malformed EXIF block dropped on encode (its orientation could not be set)", output: true))
            return orientation == .up ? nil : EXIF.minimalBlock(orientation: orientation)
        }
        return rewritten
    }
}
