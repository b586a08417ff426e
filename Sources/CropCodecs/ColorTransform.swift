import CLCMS
import CropPixels

/// A conversion of pixels described by an ICC profile to sRGB, through Little CMS 2 (lcms2, loaded at run time by
/// the CLCMS shim): relative colorimetric with black-point compensation, alpha copied untouched. One transform may
/// convert rows on several threads at once (lcms2's 1-pixel cache is off).
package final class ColorTransform: @unchecked Sendable {
    // @unchecked Sendable: the lcms2 transform is immutable after creation and, without its cache, safe to use from
    // several threads at once (lcms2's documented rule); the handle is freed only in deinit.

    /// What the pixels handed to ``convert(_:pixels:)`` are.
    package enum Layout: Int32, Sendable {
        case rgb8, rgba8, rgb16, rgba16
        /// CMYK, 0 = no ink.
        case cmyk8
        /// CMYK as Adobe writes it in JPEG: 255 = no ink.
        case cmyk8Inverted
        /// CMYK, 16-bit, 0 = no ink (converted to 16-bit RGB).
        case cmyk16
        /// CIE L*a*b* (D50) in Little CMS's encodings (``ColorTransform/init(lab:format:)``).
        case lab8, lab16
        /// Gray with or without alpha, converted to gray with sRGB's tone curve (the profile must be a gray one).
        case gray8, grayAlpha8, gray16, grayAlpha16

        /// The layout of rows in `format`.
        package init?(_ format: PixelFormat) {
            switch (format.layout, format.depth) {
            case (.rgb, .eight): self = .rgb8
            case (.rgba, .eight): self = .rgba8
            case (.rgb, .sixteen): self = .rgb16
            case (.rgba, .sixteen): self = .rgba16
            case (.gray, .eight): self = .gray8
            case (.grayAlpha, .eight): self = .grayAlpha8
            case (.gray, .sixteen): self = .gray16
            case (.grayAlpha, .sixteen): self = .grayAlpha16
            }
        }

        var raw: Int32 {
            switch self {
            case .rgb8: Int32(CK_LCMS_RGB8)
            case .rgba8: Int32(CK_LCMS_RGBA8)
            case .rgb16: Int32(CK_LCMS_RGB16)
            case .rgba16: Int32(CK_LCMS_RGBA16)
            case .cmyk8: Int32(CK_LCMS_CMYK8)
            case .cmyk8Inverted: Int32(CK_LCMS_CMYK8_INVERTED)
            case .cmyk16: Int32(CK_LCMS_CMYK16)
            case .lab8: Int32(CK_LCMS_LAB8)
            case .lab16: Int32(CK_LCMS_LAB16)
            case .gray8: Int32(CK_LCMS_GRAY8)
            case .grayAlpha8: Int32(CK_LCMS_GRAYA8)
            case .gray16: Int32(CK_LCMS_GRAY16)
            case .grayAlpha16: Int32(CK_LCMS_GRAYA16)
            }
        }
    }

    /// The input layout.
    package let layout: Layout
    private let handle: OpaquePointer

    /// A conversion from CIE L*a*b* (D50) pixels to sRGB (8- or 16-bit RGB as `layout`, ``Layout/lab8`` or
    /// ``Layout/lab16``), relative colorimetric: L* 100 is white.
    ///
    /// - Throws: as ``init(profile:layout:format:)``.
    package convenience init(lab layout: Layout, format: ImageFormat) throws(CodecError) {
        try self.init(profile: [], layout: layout, format: format)
    }

    /// A conversion from pixels in `layout` described by `profile` to sRGB.
    ///
    /// - Throws: ``CodecError/libraryUnavailable(format:reason:)`` without lcms2 (format: the image's, given as
    ///   `format`), ``CodecError/invalidArgument(name:reason:)`` when the profile cannot be parsed or describes another
    ///   colour space than the pixels'.
    package init(profile: [UInt8], layout: Layout, format: ImageFormat) throws(CodecError) {
        var made: OpaquePointer?
        let (status, text) = ShimStatus.run { message in
            profile.withUnsafeBufferPointer { ck_lcms_create($0.baseAddress, $0.count, layout.raw, &made, message) }
        }
        if status == ShimStatus.unavailable { throw .libraryUnavailable(format: format, reason: text) }
        guard status == ShimStatus.ok, let made else { throw .invalidArgument(name: "ICC profile", reason: text) }
        self.layout = layout
        handle = made
    }

    deinit {
        ck_lcms_free(handle)
    }

    /// Converts `pixels` pixels from `input` to `output` (RGB layouts may convert in place).
    package func convert(_ input: UnsafeRawPointer, to output: UnsafeMutableRawPointer, pixels: Int) {
        ck_lcms_convert(
            UnsafeMutableRawPointer(handle), input.assumingMemoryBound(to: UInt8.self),
            output.assumingMemoryBound(to: UInt8.self), UInt32(pixels))
    }

    /// The C function and context a decoder shim calls per row (``convert(_:to:pixels:)`` without leaving C). The
    /// context stays valid while this transform lives.
    package var rowConverter:
        (
            function:
                @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<UInt8>?, UnsafeMutablePointer<UInt8>?, UInt32)
                -> Void, context: UnsafeMutableRawPointer
        )
    {
        (ck_lcms_convert, UnsafeMutableRawPointer(handle))
    }

    /// Whether the profile's description names sRGB (so pixels it describes need no conversion); `nil` when lcms2 is
    /// missing or the profile cannot be parsed.
    package static func isSRGB(_ profile: [UInt8]) -> Bool? {
        switch profile.withUnsafeBufferPointer({ ck_lcms_is_srgb($0.baseAddress, $0.count) }) {
        case 1: true
        case 0: false
        default: nil
        }
    }

    /// Whether `profile` (an RGB one) maps colours as sRGB does, whatever its description says: every one of 4,096
    /// colours (16 levels a channel) converted through it to sRGB lands within 1/255 of itself. `false` when lcms2 is
    /// missing or the profile cannot be parsed. A JPEG XL encoder tags such a picture sRGB, so it can code it in XYB.
    package static func actsAsSRGB(_ profile: [UInt8]) -> Bool {
        if isSRGB(profile) == true { return true }
        guard let transform = try? ColorTransform(profile: profile, layout: .rgb8, format: .jxl) else { return false }
        let levels = (0..<16).map { UInt8($0 * 17) }
        var grid = [UInt8]()
        grid.reserveCapacity(16 * 16 * 16 * 3)
        for r in levels { for g in levels { for b in levels { grid += [r, g, b] } } }
        var out = [UInt8](repeating: 0, count: grid.count)
        grid.withUnsafeBytes { input in
            out.withUnsafeMutableBytes { transform.convert(input.baseAddress!, to: $0.baseAddress!, pixels: 4096) }
        }
        return zip(grid, out).allSatisfy { abs(Int($0) - Int($1)) <= 1 }
    }

    /// lcms2's sRGB profile, embedded in outputs converted to sRGB (`nil` without lcms2).
    package static let sRGBProfile: [UInt8]? = {
        var bytes: UnsafeMutablePointer<UInt8>?
        var size = 0
        guard ck_lcms_srgb_profile(&bytes, &size, nil) == Int32(CK_LCMS_OK), let bytes else { return nil }
        defer { ck_lcms_free_bytes(bytes) }
        return Array(UnsafeBufferPointer(start: bytes, count: size))
    }()
}
