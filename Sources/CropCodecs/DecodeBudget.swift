import CropPixels

/// The most memory one decode may ask for, derived from what the input can justify.
///
/// A decoder's allocations are of two kinds, and each has its own bound:
/// - **Blocks the file carries** (a PNG chunk, an ISO box, a JPEG marker, an EXIF IFD, an ICC tag, a TIFF strip or
///   tag, a WebP chunk): none can hold more bytes than the file has, so none may be allocated larger than
///   ``maximumBlockBytes``, the file's size plus ``slack`` (what a compressed block such as a PNG `iCCP` profile may
///   inflate to beyond its own bytes, and fixed-size structures). A length field claiming more is an error before
///   anything is allocated, not an allocation that fails later.
/// - **Pixel memory** for the declared picture, checked against ``DecodeOptions/limits`` from the header before any
///   of it exists; ``pictureBytes(width:height:bytesPerPixel:)`` is its size, saturating instead of overflowing.
///
/// Invariant: ``inputBytes`` ≥ 0; ``maximumBlockBytes`` ≥ ``slack``.
package struct DecodeBudget: Hashable, Sendable {
    /// What a block may need beyond the bytes it comes from: 4 MiB (an ICC profile compressed in a PNG or spread over
    /// JPEG markers inflates to at most this much more than its compressed bytes in any real file).
    package static let slack = 4 << 20

    /// The size of the encoded input, in bytes.
    package let inputBytes: Int

    /// A budget for an input of `inputBytes` bytes (a negative count counts as 0).
    package init(inputBytes: Int) {
        self.inputBytes = max(0, inputBytes)
    }

    /// The largest block a decoder may allocate for something the file carries: the file's size plus ``slack``.
    package var maximumBlockBytes: Int {
        let (sum, overflow) = inputBytes.addingReportingOverflow(Self.slack)
        return overflow ? .max : sum
    }

    /// The bytes of a `width × height` picture at `bytesPerPixel`, saturating at `Int.max` (never overflowing).
    package static func pictureBytes(width: Int, height: Int, bytesPerPixel: Int) -> Int {
        let (pixels, overflow1) = max(0, width).multipliedReportingOverflow(by: max(0, height))
        let (bytes, overflow2) = pixels.multipliedReportingOverflow(by: max(0, bytesPerPixel))
        return overflow1 || overflow2 ? .max : bytes
    }
}
