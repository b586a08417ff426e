import CropGeometry
import CropPixels

/// Options for decoding.
package struct DecodeOptions: Sendable {
    /// The decompression-bomb guard: the stored (header) dimensions are checked against it before anything large
    /// is allocated, libjpeg's own buffers included.
    package var limits: PixelLimits
    /// Turn the codec's corrupt-data warnings into ``CodecError/corruptData(format:message:)``.
    package var strict: Bool
    /// JPEG shrink-on-load (PNG ignores it).
    package var jpegScale: JPEGScale
    /// How a progressive JPEG decoded at 1/8 may stop early (see ``JPEGEarlyStop``).
    package var jpegEarlyStop: JPEGEarlyStop
    /// Keep libjpeg's own Huffman decoder for sequential JPEGs at 1/8, instead of CropKit's AC-skipping one (which
    /// gives the same pixels, except with ``JPEGEarlyStop/dcOnly``, about twice as fast). For comparisons; default
    /// `false`.
    package var jpegLibjpegEntropy = false
    /// The most scans a progressive JPEG may have (a guard against files built to burn CPU). Default 500.
    package var maxProgressiveScans: Int
    /// Where the profile comes from that CMYK pixels are converted through when their file embeds none.
    package var cmykFallback: CMYKFallback

    /// Where the profile for CMYK pixels without one comes from.
    package enum CMYKFallback: Sendable {
        /// ``DefaultCMYKProfile/system``, looked up the first time a file needs it (not when options are made).
        case system
        /// This profile.
        case profile(path: String, bytes: [UInt8])
        /// None: such files are converted naively, with a warning.
        case none
    }

    /// The profile ``cmykFallback`` names, resolved now; `nil` converts such files naively.
    package var defaultCMYKProfile: (path: String, bytes: [UInt8])? {
        switch cmykFallback {
        case .system: DefaultCMYKProfile.system
        case .profile(let path, let bytes): (path, bytes)
        case .none: nil
        }
    }

    /// Creates options; the defaults decode at full size, tolerate recoverable corruption with warnings, and allow
    /// 200 megapixels.
    package init(
        limits: PixelLimits = .default, strict: Bool = false, jpegScale: JPEGScale = .full,
        jpegEarlyStop: JPEGEarlyStop = .exact, maxProgressiveScans: Int = 500, cmykFallback: CMYKFallback = .system
    ) {
        self.cmykFallback = cmykFallback
        self.limits = limits
        self.strict = strict
        self.jpegScale = jpegScale
        self.jpegEarlyStop = jpegEarlyStop
        self.maxProgressiveScans = maxProgressiveScans
    }
}
