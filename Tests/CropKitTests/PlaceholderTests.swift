import CropCodecs
import CropPixels
import CropTestSupport
import Foundation
import Testing

@testable import CropKit

/// Placeholders: BlurHash and ThumbHash byte for byte as the reference encoders make them, of the finished picture
/// (its crop, straighten and resize), with that picture's size, from a small copy; previews within their limit.
@Suite("Placeholders: BlurHash, ThumbHash and previews of the finished picture")
struct PlaceholderTests {
    static let folder = "placeholders/"

    /// What PyPI's `blurhash` and `thumbhash-python` make of each fixture (`make-reference.py`).
    static func reference() throws -> [String: [String: String]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path(folder + "reference.json")))
        return try JSONDecoder().decode([String: [String: String]].self, from: data)
    }

    @Test(
        "each fixture hashes exactly as the reference encoders hash it",
        arguments: [
            "photo-100x67.png", "gray-45x60.png", "alpha-64x31.png",
        ])
    func referenceHashes(_ name: String) throws {
        let expected = try #require(try Self.reference()[name])
        let source = ImageSource.file(Fixtures.path(Self.folder + name))
        let pipeline = ImagePipeline()
        let blur = try pipeline.placeholder(source, kind: .blurhash)
        #expect(blur.value == expected["blurhash"])
        #expect(try pipeline.placeholder(source, kind: .blurhash, components: (3, 3)).value == expected["blurhash3x3"])
        #expect(try pipeline.placeholder(source, kind: .thumbhash).value == expected["thumbhash"])
        let size = try source.info().displayedSize
        #expect(blur.width == size.width && blur.height == size.height)
    }

    /// A seeded chain of steps: an aspect crop, a straighten, then one size step of each kind.
    static func chain(_ random: inout SplitMix64) throws -> [ImageOperation] {
        var steps: [ImageOperation] = []
        let aspects = [try AspectRatio(4, 3), try AspectRatio(1, 1), try AspectRatio(16, 9), try AspectRatio(2, 3)]
        if random.next() % 2 == 0 { steps.append(.aspect(.ratio(aspects[Int(random.next() % 4)]))) }
        if random.next() % 2 == 0 { steps.append(.straighten(Double(Int(random.next() % 200)) / 10 - 10)) }
        let side = 40 + Int(random.next() % 400)
        switch random.next() % 5 {
        case 0: steps.append(.fit(within: PixelSize(validWidth: side, height: side)))
        case 1:
            steps.append(.resize(ResizeRequest(.box(PixelSize(validWidth: side, height: side / 2 + 1)), mode: .fill())))
        case 2:
            steps.append(
                .resize(
                    ResizeRequest(
                        .box(PixelSize(validWidth: side, height: side)), mode: .pad(background: .white))))
        case 3: steps.append(.thumbnail(ThumbnailRequest(side: side)))
        default: break
        }
        if random.next() % 3 == 0 { steps.append(.roundCorners(.pixels(12))) }
        return steps
    }

    @Test(
        "over 24 seeded chains the placeholder reports the finished picture's size, and its colours are that picture's")
    func finishedPicture() throws {
        let source = ImageSource.data(try syntheticJPEG(width: 640, height: 480))
        var random = SplitMix64(seed: 41)
        let pipeline = ImagePipeline()
        var worst = 0.0
        for _ in 0..<24 {
            let steps = try Self.chain(&random)
            let full = try pipeline.run(source, steps)
            let thumb = try pipeline.placeholder(source, steps, kind: .thumbhash)
            #expect(thumb.width == full.size.width && thumb.height == full.size.height, "\(steps)")
            // The hash's average colour against the finished picture's (alpha-weighted, as ThumbHash averages).
            let average = try #require(Self.thumbHashAverage(thumb.value))
            let mean = Self.meanColour(full.pixels)
            for c in 0..<3 { worst = max(worst, abs(average[c] - mean[c])) }
            #expect((0..<3).allSatisfy { abs(average[$0] - mean[$0]) <= 6 / 255 }, "\(steps): \(average) vs \(mean)")
        }
        #expect(worst > 0)  // the comparison ran on real values
    }

    @Test("a BlurHash's average colour is the finished picture's mean in linear light, within 3/255")
    func blurHashAverage() throws {
        let source = ImageSource.data(try syntheticJPEG(width: 640, height: 480))
        let steps: [ImageOperation] = [
            .aspect(.ratio(try AspectRatio(4, 3))), .straighten(7.5),
            .fit(within: PixelSize(validWidth: 300, height: 300)),
        ]
        let full = try ImagePipeline().run(source, steps)
        let hash = try ImagePipeline().placeholder(source, steps, kind: .blurhash)
        #expect(hash.value.count == 6 + 2 * (4 * 3 - 1))  // 4×3 components for 4:3
        let dc = Self.base83(hash.value.dropFirst(2).prefix(4))
        let mean = Self.meanLinear(full.pixels)
        for (c, shift) in [16, 8, 0].enumerated() {
            #expect(abs(dc >> shift & 255 - mean[c]) <= 3, "channel \(c): \(dc >> shift & 255) vs \(mean[c])")
        }
    }

    @Test("a preview is a WebP data URL within the limit, with the finished picture's proportions and colours")
    func preview() throws {
        let source = ImageSource.data(try syntheticJPEG(width: 640, height: 480))
        let steps: [ImageOperation] = [
            .resize(ResizeRequest(.box(PixelSize(validWidth: 400, height: 200)), mode: .fill()))
        ]
        let preview = try ImagePipeline().placeholder(source, steps, kind: .preview)
        #expect(preview.width == 400 && preview.height == 200)
        #expect(preview.value.count <= Placeholder.previewLimit)
        let prefix = "data:image/webp;base64,"
        #expect(preview.value.hasPrefix(prefix))
        let bytes = try #require(Data(base64Encoded: String(preview.value.dropFirst(prefix.count))))
        let tiny = try ImageCodec.decode(Array(bytes)).pixels
        #expect(tiny.width == 32 && tiny.height == 16)
        let full = try ImagePipeline().run(source, steps)
        let a = Self.meanColour(tiny), b = Self.meanColour(full.pixels)
        #expect((0..<3).allSatisfy { abs(a[$0] - b[$0]) <= 4 / 255 }, "\(a) vs \(b)")
    }

    @Test(
        "a Display P3 photo's placeholder is in sRGB: its average matches libvips' sRGB conversion, not the raw values")
    func colourManaged() throws {
        let source = ImageSource.file(Fixtures.path("color/canon-saturated-p3-107x71.jpg"))
        // The pixels every placeholder is computed from, against libvips' conversion of the same file, pixel by pixel.
        let rendered = try ImagePipeline().run(source)
        let converted = try ImagePipeline.sRGBA(rendered.image).rgba8Samples()
        let vips = try ImageCodec.decode(
            try FileIO.readFile(
                atPath: Fixtures.path(
                    "color/canon-saturated-p3-107x71-vips-srgb.png"))
        ).pixels.rgba8Samples()
        let raw = rendered.pixels.rgba8Samples()
        try #require(converted.count == vips.count && raw.count == vips.count)
        let error = zip(converted, vips).map { abs(Int($0) - Int($1)) }.max()!
        let unconverted = zip(raw, vips).map { abs(Int($0) - Int($1)) }.max()!
        #expect(error <= 3, "converted: \(error)/255 from libvips")
        #expect(unconverted > 20, "the fixture must tell the two apart: \(unconverted)/255")
    }

    @Test("a round output's ThumbHash says it has alpha; bad component counts are refused by name")
    func alphaAndErrors() throws {
        let source = ImageSource.data(try syntheticJPEG(width: 200, height: 200))
        let hash = try ImagePipeline().placeholder(source, [.roundCorners(.circle)], kind: .thumbhash)
        let bytes = try #require(Data(base64Encoded: hash.value))
        #expect(bytes[2] & 0x80 != 0)
        for bad in [(0, 3), (4, 10)] {
            #expect(
                throws: CropKitError.invalidRequest(
                    name: "components", reason: "\(bad.0)×\(bad.1) is outside 1…9 per side")
            ) {
                try ImagePipeline().placeholder(source, kind: .blurhash, components: bad)
            }
        }
        #expect(
            Placeholder(kind: .preview, value: "data:image/webp;base64,AA/+", width: 3, height: 2).json
                == #"{"kind":"preview","value":"data:image/webp;base64,AA/+","width":3,"height":2}"#)
    }

    // MARK: The reference decoders' arithmetic, for the checks above

    /// ThumbHash's `thumbHashToAverageRGBA`: the average colour the hash's header holds, 0…1.
    static func thumbHashAverage(_ base64: String) -> [Double]? {
        guard let hash = Data(base64Encoded: base64), hash.count >= 5 else { return nil }
        let header = Int(hash[0]) | Int(hash[1]) << 8 | Int(hash[2]) << 16
        let l = Double(header & 63) / 63, p = Double(header >> 6 & 63) / 31.5 - 1,
            q = Double(header >> 12 & 63) / 31.5 - 1
        let b = l - 2 / 3 * p, r = (3 * l - b + q) / 2, g = r - q
        return [r, g, b].map { max(0, min(1, $0)) }
    }

    /// The alpha-weighted mean of the colour channels, 0…1 (transparent pixels count for nothing).
    static func meanColour(_ pixels: PixelBuffer) -> [Double] {
        let rgba = pixels.rgba8Samples()
        var sum = [0.0, 0.0, 0.0], weight = 0.0
        for i in stride(from: 0, to: rgba.count, by: 4) {
            let a = Double(rgba[i + 3]) / 255
            for c in 0..<3 { sum[c] += a * Double(rgba[i + c]) / 255 }
            weight += a
        }
        return sum.map { $0 / max(weight, 1e-9) }
    }

    /// The mean in linear light, back in sRGB 0…255 (what a BlurHash's DC holds).
    static func meanLinear(_ pixels: PixelBuffer) -> [Int] {
        let rgba = pixels.rgba8Samples()
        var sum = [0.0, 0.0, 0.0]
        for i in stride(from: 0, to: rgba.count, by: 4) {
            for c in 0..<3 { sum[c] += BlurHash.sRGBToLinear(Int(rgba[i + c])) }
        }
        return sum.map { BlurHash.linearToSRGB($0 / Double(rgba.count / 4)) }
    }

    static func base83<S: Sequence<Character>>(_ text: S) -> Int {
        let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~")
        return text.reduce(0) { $0 * 83 + alphabet.firstIndex(of: $1)! }
    }
}
