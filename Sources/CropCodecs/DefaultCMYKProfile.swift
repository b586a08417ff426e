#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The CMYK profile that CMYK pixels are converted through when their file embeds none (a CMYK JPEG or TIFF without
/// an ICC profile).
///
/// CropKit ships no CMYK profile of its own (the good ones are not freely redistributable). It uses, in this order:
/// 1. the file named by the `CROPKIT_CMYK_PROFILE` environment variable;
/// 2. Ghostscript's `default_cmyk.icc`, a U.S. Web Coated (SWOP) characterisation, which Debian and Ubuntu install with
///    `libgs-common` (`.ci/install-deps build` installs it) and Homebrew with `ghostscript`.
///
/// A file that is missing or is not a CMYK profile is skipped. When none is found, CMYK is converted naively
/// (R = 255 × (1 − C) × (1 − K) …), as browsers without colour management do, with a warning saying so.
package enum DefaultCMYKProfile {
    /// Where the profile is looked for, in order.
    package static var searchPaths: [String] {
        var paths: [String] = []
        if let named = ProcessInfo.processInfo.environment["CROPKIT_CMYK_PROFILE"], !named.isEmpty {
            paths.append(named)
        }
        paths += [
            "/usr/share/color/icc/ghostscript/default_cmyk.icc",
            "/opt/homebrew/share/ghostscript/iccprofiles/default_cmyk.icc",
            "/usr/local/share/ghostscript/iccprofiles/default_cmyk.icc",
        ]
        return paths
    }

    /// The first usable profile on the search path, read once per process; `nil` when there is none.
    package static let system: (path: String, bytes: [UInt8])? = {
        for path in searchPaths {
            guard let bytes = try? FileIO.readFile(atPath: path), isCMYKProfile(bytes) else { continue }
            return (path, bytes)
        }
        return nil
    }()

    /// The conversions through ``system`` to sRGB, made once per layout (a transform from a 187 KB SWOP profile takes
    /// milliseconds to build; one may convert on many threads at once).
    private static let transforms: [ColorTransform.Layout: ColorTransform] = {
        guard let system else { return [:] }
        var made: [ColorTransform.Layout: ColorTransform] = [:]
        for layout in [ColorTransform.Layout.cmyk8, .cmyk8Inverted, .cmyk16] {
            made[layout] = try? ColorTransform(profile: system.bytes, layout: layout, format: .jpeg)
        }
        return made
    }()

    /// The conversion to sRGB for `profile` in `layout`: the shared one when `profile` is ``system``'s, else a new one.
    package static func transform(
        profile: [UInt8], layout: ColorTransform.Layout, format: ImageFormat
    ) throws(CodecError) -> ColorTransform {
        if let system, profile == system.bytes, let shared = transforms[layout] { return shared }
        return try ColorTransform(profile: profile, layout: layout, format: format)
    }

    /// Whether `bytes` look like an ICC profile whose data colour space is CMYK (header signature `acsp`, colour
    /// space `CMYK`).
    package static func isCMYKProfile(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 128 && bytes[36..<40].elementsEqual("acsp".utf8) && bytes[16..<20].elementsEqual("CMYK".utf8)
    }
}
