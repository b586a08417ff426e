import CropGeometry
import CropPixels

/// How far a progressive JPEG decoded at 1/8 may skip its later scans, and which AC coefficients of a sequential one
/// may go undecoded.
///
/// A sequential JPEG at 1/8 is always read whole, by an entropy decoder that skips the AC coefficients the scaled
/// IDCT never reads (every component's with ``dcOnly``, only those libjpeg would not read otherwise).
public enum JPEGEarlyStop: String, CaseIterable, Hashable, Sendable {
    /// Read every scan.
    case off
    /// Stop once every coefficient that libjpeg's scaled IDCT reads is final. The output is byte-identical to a
    /// full decode. For grayscale, 4:4:4 and 4:2:2 files at 1/8 that is the DC coefficient only; for 4:2:0 files the
    /// chroma planes use a 2×2 IDCT, which also reads low-frequency AC coefficients of the chroma components.
    case exact
    /// Stop once every component's DC coefficient is final. Identical to ``exact`` where that needs DC only;
    /// for 4:2:0 files the chroma is then reconstructed from DC alone, an approximation (a blockier chroma at 1/8
    /// scale) that is usually fine for thumbnails and can skip most of the file.
    ///
    /// Only DC coefficients are kept while reading, 2 bytes per 8×8 block instead of libjpeg's 128: a 24-megapixel
    /// 4:2:0 photo needs about 1.4 MB (1.1 MB of DC and a few block rows) rather than 72 MB (`JPEGDecoder.coefficientBytes`).
    case dcOnly
}
