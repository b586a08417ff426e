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
    /// The most scans a progressive JPEG may have (a guard against files built to burn CPU). Default 500.
    package var maxProgressiveScans: Int
    /// The profile CMYK pixels are converted through when their file embeds none (``DefaultCMYKProfile``); `nil`
    /// converts such files naively, with a warning.
    package var defaultCMYKProfile: (path: String, bytes: [UInt8])?

    /// Creates options; the defaults decode at full size, tolerate recoverable corruption with warnings, and allow
    /// 200 megapixels.
    package init(
        limits: PixelLimits = .default, strict: Bool = false, jpegScale: JPEGScale = .full,
        jpegEarlyStop: JPEGEarlyStop = .exact, maxProgressiveScans: Int = 500,
        defaultCMYKProfile: (path: String, bytes: [UInt8])? = DefaultCMYKProfile.system
    ) {
        self.defaultCMYKProfile = defaultCMYKProfile
        self.limits = limits
        self.strict = strict
        self.jpegScale = jpegScale
        self.jpegEarlyStop = jpegEarlyStop
        self.maxProgressiveScans = maxProgressiveScans
    }
}
