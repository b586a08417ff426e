import CPixelKernels

/// How a resize samples and filters.
///
/// The resampler is separable (a horizontal pass, then a vertical one) with weights computed once per output
/// column and row. Its geometry and edge rule are Pillow's, so the two can be compared pixel for pixel:
/// - output pixel `i` samples the source at `in0 + (i + 0.5) · scale`, where `scale = source extent / output size`
///   and `in0` is the left (top) edge of the source rectangle;
/// - on reduction the kernel's support is multiplied by `scale`;
/// - **edge rule:** taps that fall outside the source are dropped and the remaining weights renormalised to sum
///   to one, so borders never pull in black and a constant image stays constant.
///
/// Alpha is premultiplied before filtering and unpremultiplied after, with colour clamped to alpha in between, so
/// transparent pixels never bleed their colour into opaque ones (no dark or coloured fringes).
///
/// 8-bit images are filtered in fixed point (14-bit coefficients, 32-bit accumulators, a 15-bit intermediate that
/// keeps 7 fractional bits per sample between the passes); 16-bit and linear-light images in 32-bit floating point.
public struct ResampleOptions: Hashable, Sendable {
    /// The reconstruction filter. Default: ``ResamplingFilter/lanczos3``.
    public var filter: ResamplingFilter
    /// Filter in linear light instead of on the stored sRGB values.
    ///
    /// Averaging sRGB-encoded values darkens fine detail (1-pixel black and white stripes average to 128, which
    /// looks darker than the stripes do); converting to linear light first (through tables of the sRGB curve),
    /// filtering, and converting back gives the physically right 188. Off by default, which is what most tools
    /// (and Pillow) do. Alpha is always linear.
    public var linearLight: Bool
    /// The most threads a whole-buffer operation may use; `0` means one per active processor core.
    public var maxThreads: Int
    /// Which implementation of the fixed-point kernels runs: the fastest this processor supports, unless a test
    /// asks for the portable reference.
    var kernels: KernelSet = .fastest

    /// Creates options.
    public init(filter: ResamplingFilter = .lanczos3, linearLight: Bool = false, maxThreads: Int = 0) {
        self.filter = filter
        self.linearLight = linearLight
        self.maxThreads = maxThreads
    }

    /// Lanczos3, stored sRGB values, all cores.
    public static let `default` = ResampleOptions()

    /// Whether this combination takes the floating-point path for `format`.
    func usesFloat(for format: PixelFormat) -> Bool {
        format.depth == .sixteen || linearLight
    }
}

/// The implementations of the fixed-point resampler's filters. Each computes the same integers; they differ only in
/// the instructions they use.
enum KernelSet: Hashable, Sendable {
    /// The Swift kernels: SSE2 on x86-64, NEON on arm64 (whatever the baseline lowers the standard SIMD types to).
    case portable
    /// The AVX2 kernels of `CPixelKernels`, on x86-64 processors that have it.
    case avx2

    /// Whether this build has the AVX2 kernels (x86-64, not the portable build).
    static var avx2Built: Bool {
        #if arch(x86_64) && !CROPKIT_PORTABLE
            true
        #else
            false
        #endif
    }

    /// The fastest set this processor runs.
    static let fastest: KernelSet = avx2Built && ck_pixel_kernels_avx2() != 0 ? .avx2 : .portable
}
