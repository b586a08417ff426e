import CropPixels
import Foundation
import Testing

@testable import CropCodecs

/// libjxl's own tools, `cjxl` and `djxl` (Debian's `libjxl-tools`, installed by `.ci/install-deps tools`).
private let jxlTools = ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"].first {
    FileManager.default.isExecutableFile(atPath: $0 + "/cjxl")
        && FileManager.default.isExecutableFile(atPath: $0 + "/djxl")
}

/// The conformance sweep of issue 45: files `cjxl` makes from the fixtures' pictures in every kind it writes (lossy and
/// lossless; 8 and 16-bit; gray, RGB, alpha; progressive; the fastest and the slowest effort; a colour profile
/// libjxl names and one it cannot) decode within 1/255 (16-bit: 257/65535) of `djxl`'s decode of the same file.
/// Animation and orientation are `JXLTests`' fixtures (`animated-disc.jxl`, `orientation6.jxl`), checked there against
/// djxl the same way.
@Suite(
    "JPEG XL conformance: cjxl's files of every kind decode as djxl decodes them",
    .enabled(if: jxlTools != nil, "cjxl and djxl are not installed (.ci/install-deps tools)"))
struct JXLConformanceTests {
    /// A source picture written as PNG for cjxl: which fixture, how it is changed, and the profile it carries.
    enum Source: String, CaseIterable {
        case rgb, rgba, rgb16, gray, grayAlpha, adobeRGB, displayP3

        func picture() throws -> (PixelBuffer, ImageMetadata) {
            let photo = try PNGDecoder.decode(Fixtures.bytes("photo-128.png")).pixels
            switch self {
            case .rgb: return (photo, .none)
            case .rgba: return (try PNGDecoder.decode(Fixtures.bytes("webp/rgba-lossless-source.png")).pixels, .none)
            case .rgb16:
                // Widened with a ramp in the low byte, so that 16 bits carry more than 8 do.
                var samples: [UInt16] = []
                for y in 0..<85 {
                    for x in 0..<128 {
                        for value in photo.pixel(x: x, y: y) {
                            samples.append(UInt16(value * 256 + (x * 7 + y * 3) % 256))
                        }
                    }
                }
                return (try PixelBuffer(width: 128, height: 85, layout: .rgb, samples: samples), .none)
            case .gray, .grayAlpha:
                var gray: [UInt8] = []
                for y in 0..<85 {
                    for x in 0..<128 {
                        let p = photo.pixel(x: x, y: y)
                        gray.append(UInt8((p[0] * 2 + p[1] * 5 + p[2]) / 8))
                        if self == .grayAlpha { gray.append(UInt8((x * 2 + y) % 256)) }
                    }
                }
                return (
                    try PixelBuffer(width: 128, height: 85, layout: self == .gray ? .gray : .grayAlpha, samples: gray),
                    .none
                )
            case .adobeRGB, .displayP3:
                // Canon's Adobe RGB (1998) profile (adobe-rgb.icc, from the camera's JPEG), and the Display P3 one
                // a WebP fixture carries.
                let profile =
                    self == .adobeRGB
                    ? try Fixtures.bytes("adobe-rgb.icc")
                    : try #require(try ImageCodec.decode(Fixtures.bytes("webp/p3-icc.webp")).metadata.iccProfile)
                return (photo, ImageMetadata(iccProfile: profile))
            }
        }
    }

    static let cases: [(Source, [String])] = [
        (.rgb, ["-q", "90"]), (.rgb, ["-d", "0"]), (.rgb, ["-q", "60", "-e", "1"]), (.rgb, ["-q", "85", "-e", "9"]),
        (.rgb, ["-q", "80", "-p"]), (.rgba, ["-q", "90"]), (.rgba, ["-d", "0"]), (.rgb16, ["-d", "0"]),
        (.rgb16, ["-q", "90"]), (.gray, ["-q", "90"]), (.grayAlpha, ["-d", "0"]), (.adobeRGB, ["-d", "0"]),
        (.adobeRGB, ["-q", "90"]), (.displayP3, ["-q", "90"]),
    ]

    static func run(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(jxlTools) + "/" + tool)
        process.arguments = arguments + ["--quiet"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(tool) \(arguments)")
    }

    @Test("each kind within one level of djxl", arguments: cases)
    func againstDjxl(_ source: Source, _ flags: [String]) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "jxl-sweep-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let (picture, metadata) = try source.picture()
        let png = dir.appendingPathComponent("in.png").path, jxl = dir.appendingPathComponent("in.jxl").path
        let back = dir.appendingPathComponent("djxl.png").path
        try Data(try PNGEncoder.encode(picture, metadata: metadata)).write(to: URL(fileURLWithPath: png))
        try Self.run("cjxl", [png, jxl] + flags)
        let sixteen = picture.format.depth == .sixteen
        try Self.run("djxl", [jxl, back, "--bits_per_sample=\(sixteen ? 16 : 8)"])
        let decoder = try JXLDecoder(data: try FileIO.readFile(atPath: jxl))
        let ours = try decoder.decodeAll()
        let reference = try PNGDecoder.decode(try FileIO.readFile(atPath: back))
        #expect(ours.width == picture.width && ours.height == picture.height)
        #expect(ours.format.layout == picture.format.layout && ours.format.depth == picture.format.depth)
        // djxl writes the pixels in the profile it tags its PNG with. CropKit's decoder keeps the file's profile
        // (libjxl's own bytes for a space it names, as Display P3: the same colours as djxl's lcms-made profile), or,
        // for a lossy file from a profile libjxl cannot name, gives sRGB and says so: djxl's pixels are then
        // converted to sRGB through djxl's profile before they are compared (Little CMS, as CropKit converts).
        var theirs = reference.pixels
        let lossless = flags == ["-d", "0"]
        if source == .adobeRGB {
            #expect(lossless ? decoder.metadata.iccProfile == metadata.iccProfile : decoder.metadata.iccProfile == nil)
        } else if source == .displayP3 {
            #expect(decoder.metadata.iccProfile != nil && reference.metadata.iccProfile != nil)
        }
        var tolerance = sixteen ? 257 : 1
        if decoder.metadata.iccProfile == nil, let profile = reference.metadata.iccProfile, source == .adobeRGB {
            #expect(decoder.warnings.contains { $0.message.contains("decoded as sRGB") })
            let transform = try ColorTransform(profile: profile, layout: .rgb8, format: .png)
            theirs.withUnsafeMutableRows { rows in
                for y in 0..<rows.height { transform.convert(rows.row(y), to: rows.row(y), pixels: rows.width) }
            }
            // libjxl turns XYB into sRGB in float; djxl's PNG holds Adobe RGB in 8 bits, which Little CMS then
            // turns into sRGB: two roundings, a second transform and two ways of clipping out-of-gamut colours.
            // Measured: at most 7 levels (where the photo's colours, read as Adobe RGB, leave sRGB's gamut and the
            // two clip differently), 0.65 on average.
            tolerance = 8
            let mean = Measure.meanAbsoluteDifference(ours, theirs)
            #expect(mean < 1, "mean \(mean)")
        }
        let worst = maxDifference(ours, theirs)
        #expect(worst <= tolerance, "\(source) \(flags): \(worst)")
    }
}
