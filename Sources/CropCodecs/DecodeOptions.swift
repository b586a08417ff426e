import CJPEG
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
    /// Keep libjpeg's own Huffman decoder for sequential JPEGs, instead of CropKit's (which gives the same pixels,
    /// except with ``JPEGEarlyStop/dcOnly`` at 1/8: about twice as fast at 1/8, a fifth to a quarter faster at other
    /// scales). For comparisons; default `false`.
    package var jpegLibjpegEntropy = false
    /// Whether a progressive JPEG read whole reads its scans on two threads (see ``JPEGParallelScans``). Default
    /// ``JPEGParallelScans/automatic``; a pipeline limited to one thread turns it off.
    package var jpegParallelScans = JPEGParallelScans.automatic
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

/// Whether a progressive JPEG decoded whole reads its scans on two threads.
///
/// A progressive file's scans each add some coefficients of the picture, and reading them (the entropy decoding) is
/// most of its decoding time, all of it before the first row. Scans that touch different coefficients do not depend
/// on each other: a second thread reads one set into the same coefficient arrays while the decoder reads the other,
/// balanced by their bytes. The output is byte-identical and no memory is duplicated but the file's bytes.
package enum JPEGParallelScans: Sendable, CaseIterable {
    /// One thread reads every scan.
    case off
    /// Two threads, when the file parses cleanly, its progression completes, and the second thread gets at least
    /// 64 KiB of scans (a few milliseconds of decoding).
    case automatic
    /// Two threads whenever the file qualifies, however little the second gets (for tests).
    case always

    var shimMode: Int32 {
        switch self {
        case .off: Int32(CK_JPEG_PARALLEL_SCANS_OFF)
        case .automatic: Int32(CK_JPEG_PARALLEL_SCANS_AUTO)
        case .always: Int32(CK_JPEG_PARALLEL_SCANS_ALWAYS)
        }
    }
}
