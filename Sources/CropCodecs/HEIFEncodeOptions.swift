/// Options for HEIC and AVIF encoding (libheif with x265 or an AV1 encoder).
package struct HEIFEncodeOptions: Hashable, Sendable {
    /// 1…100 (``ImageFormat/qualityRange``) on libheif's scale. Default 50 (``ImageFormat/defaultQuality``).
    package var quality: Int
    /// Lossless encoding.
    package var lossless: Bool
    /// AVIF: how much time the AV1 encoder may spend for a smaller file, 0 (fastest) … 9 (slowest), as libvips'
    /// `effort`; the encoder's speed is 9 − effort. Default 4. HEIC ignores it.
    package var effort: Int
    /// Bits per sample in the file: 8, or 10 (kept from 16-bit rows; 10-bit AVIF goes through libavif, see
    /// ``HEIFEncoder``).
    package var bitDepth: Int

    /// The AV1 encoder's speed for ``effort``: 9 − effort (libheif's and libavif's scale, as libvips maps it).
    var av1Speed: Int32 { Int32(9 - effort) }

    /// Creates options.
    package init(quality: Int = 50, lossless: Bool = false, effort: Int = 4, bitDepth: Int = 8) {
        self.quality = quality
        self.lossless = lossless
        self.effort = effort
        self.bitDepth = bitDepth
    }
}
