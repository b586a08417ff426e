import CHEIF
import CLCMS

/// The `nclx` colour description of a HEIF or AVIF file (ITU-T H.273 code points: primaries, transfer
/// characteristics, matrix), and the ICC profile that says the same thing.
///
/// Formats CropKit writes carry ICC profiles, not `nclx` boxes, so a picture described as, say, Display P3 primaries
/// with the sRGB curve gets a matrix/TRC profile built by Little CMS from the primaries libheif reports. Then the usual
/// policy applies: kept and embedded by default, converted to sRGB with `--icc srgb` or `--strip`. A description that
/// is sRGB in all but name (BT.709 primaries with the sRGB or BT.709 curve, or unspecified) needs no profile. HDR
/// curves (PQ, HLG) have no ICC equivalent here; such pixels are kept as coded, with a warning.
struct NCLXColor {
    let primaries: Int
    let transfer: Int
    /// Red x, y, green x, y, blue x, y, white x, y.
    let chromaticities: [Double]

    init(_ header: ck_heif_info) {
        primaries = Int(header.nclx_primaries)
        transfer = Int(header.nclx_transfer)
        chromaticities = withUnsafeBytes(of: header.nclx_chromaticities) { Array($0.bindMemory(to: Double.self)) }
    }

    /// A description from code points alone (a PNG cICP chunk), its chromaticities from H.273's table; unknown
    /// primaries get none (``iccProfile(format:)`` then refuses).
    init(primaries: Int, transfer: Int) {
        self.primaries = primaries
        self.transfer = transfer
        chromaticities = Self.table[primaries] ?? [Double](repeating: 0, count: 8)
    }

    /// H.273's colour primaries: red x, y, green x, y, blue x, y, white x, y.
    static let table: [Int: [Double]] = {
        let d65 = [0.3127, 0.3290], c = [0.310, 0.316]
        return [
            1: [0.64, 0.33, 0.30, 0.60, 0.15, 0.06] + d65, 2: [0.64, 0.33, 0.30, 0.60, 0.15, 0.06] + d65,
            4: [0.67, 0.33, 0.21, 0.71, 0.14, 0.08] + c, 5: [0.64, 0.33, 0.29, 0.60, 0.15, 0.06] + d65,
            6: [0.630, 0.340, 0.310, 0.595, 0.155, 0.070] + d65, 7: [0.630, 0.340, 0.310, 0.595, 0.155, 0.070] + d65,
            8: [0.681, 0.319, 0.243, 0.692, 0.145, 0.049] + c, 9: [0.708, 0.292, 0.170, 0.797, 0.131, 0.046] + d65,
            11: [0.680, 0.320, 0.265, 0.690, 0.150, 0.060, 0.314, 0.351],
            12: [0.680, 0.320, 0.265, 0.690, 0.150, 0.060] + d65,
            22: [0.630, 0.340, 0.295, 0.605, 0.155, 0.077] + d65,
        ]
    }()

    /// BT.709 or unspecified primaries with the sRGB, BT.709/601/2020 or an unspecified curve: what readers assume
    /// without a profile.
    var isSRGBLike: Bool { [1, 2].contains(primaries) && hasSRGBTransfer }

    /// Whether the transfer is sRGB's or one CropKit treats as it (unspecified, BT.709, BT.601, BT.2020's SDR curves),
    /// whatever the primaries (a gray picture has none to speak of).
    var hasSRGBTransfer: Bool { [1, 2, 6, 13, 14, 15].contains(transfer) }

    /// Whether the curve is an HDR one (PQ or HLG).
    var isHDR: Bool { transfer == 16 || transfer == 18 }

    /// "Display P3 primaries, sRGB curve".
    var description: String {
        let primaryNames: [Int: String] = [
            1: "BT.709", 2: "unspecified", 4: "BT.470 M", 5: "BT.470 BG", 6: "BT.601", 7: "SMPTE 240M",
            8: "generic film",
            9: "BT.2020", 10: "XYZ", 11: "DCI-P3", 12: "Display P3", 22: "EBU 3213",
        ]
        let curveNames: [Int: String] = [
            1: "BT.709", 2: "unspecified", 4: "gamma 2.2", 5: "gamma 2.8", 6: "BT.601", 8: "linear", 13: "sRGB",
            14: "BT.2020", 15: "BT.2020", 16: "PQ", 18: "HLG",
        ]
        return "\(primaryNames[primaries] ?? "primaries \(primaries)") primaries, "
            + "\(curveNames[transfer] ?? "transfer \(transfer)") curve"
    }

    /// A matrix/TRC ICC profile for this description.
    ///
    /// - Throws: ``CodecError/unsupportedFeature(format:feature:)`` for curves with no ICC equivalent here (PQ, HLG,
    ///   logarithmic …) or primaries libheif could not resolve, ``CodecError/libraryUnavailable(format:reason:)``
    ///   without lcms2.
    func iccProfile(format: ImageFormat) throws(CodecError) -> [UInt8] {
        let curve: Int32? =
            switch transfer {
            case 1, 6, 14, 15: Int32(CK_LCMS_TRANSFER_BT709)
            case 2, 13: Int32(CK_LCMS_TRANSFER_SRGB)
            case 4: Int32(CK_LCMS_TRANSFER_GAMMA22)
            case 5: Int32(CK_LCMS_TRANSFER_GAMMA28)
            case 8: Int32(CK_LCMS_TRANSFER_LINEAR)
            default: nil
            }
        guard let curve else {
            throw .unsupportedFeature(format: format, feature: "the \(description) as an ICC profile")
        }
        guard chromaticities.allSatisfy({ $0 > 0 && $0 < 1 }) else {
            throw .unsupportedFeature(format: format, feature: "nclx primaries \(primaries) without chromaticities")
        }
        var bytes: UnsafeMutablePointer<UInt8>?
        var size = 0
        // The name leaves the curve out: "sRGB" in a description is how sRGB profiles are recognised.
        let name = "CropKit nclx \(primaries)/\(transfer): " + description.prefix { $0 != "," }
        let (status, message) = ShimStatus.run { text in
            chromaticities.withUnsafeBufferPointer {
                ck_lcms_rgb_profile($0.baseAddress, curve, name, &bytes, &size, text)
            }
        }
        defer { ck_lcms_free_bytes(bytes) }
        guard status == ShimStatus.ok, let bytes else {
            if status == ShimStatus.unavailable { throw .libraryUnavailable(format: format, reason: message) }
            throw .unsupportedFeature(format: format, feature: "the \(description) as an ICC profile: \(message)")
        }
        return Array(UnsafeBufferPointer(start: bytes, count: size))
    }
}
