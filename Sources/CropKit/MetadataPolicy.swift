import CropCodecs

/// Which metadata an output keeps (``SaveOptions/metadata``), in every container that can hold it: JPEG (APP1/APP2),
/// PNG (`eXIf`/`iCCP`), WebP (`EXIF`/`ICCP` chunks), HEIC and AVIF (`Exif` item, `colr` box).
///
/// Outputs are upright, so a kept EXIF block is written with orientation 1. XMP, IPTC and comments are never carried.
public enum MetadataPolicy: String, CaseIterable, Hashable, Sendable, Codable {
    /// The ICC profile and the whole EXIF block (the default).
    case keep
    /// Nothing: no profile and no EXIF. Pixels with a profile other than sRGB are converted to sRGB first, so the
    /// colours look the same without it.
    case strip
    /// The ICC profile and, from the EXIF block, only the copyright notice (camera, GPS, dates and maker notes go).
    case iccAndCopyright = "icc-copyright"

    /// The metadata of `source` this policy writes (before any colour conversion).
    func applied(to source: ImageMetadata) -> ImageMetadata {
        switch self {
        case .keep:
            return source
        case .strip:
            return .none
        case .iccAndCopyright:
            var kept = ImageMetadata(orientation: source.orientation, iccProfile: source.iccProfile)
            if let exif = source.exif, let notice = EXIF.readCopyright(tiff: exif) {
                kept.exif = EXIF.copyrightBlock(notice)
            }
            return kept
        }
    }
}
