import CropGeometry
import CropPixels
import Testing

@testable import CropCodecs

@Suite("JPEG")
struct JPEGTests {
    /// Landscape_1 shrunk to 128×85, stored losslessly: a real photo as round-trip source.
    static let photoResult = Result { try PNGDecoder.decode(Fixtures.bytes("photo-128.png")).pixels }
    static var photo: PixelBuffer { get throws { try photoResult.get() } }

    /// Measured with libjpeg-turbo 2.1.5: 36.0 dB (4:4:4), 35.2 dB (4:2:2), 33.9 dB (4:2:0); the bounds leave about
    /// 1 dB for other libjpeg versions.
    @Test(
        "q90 round trip of a photo stays above the stated PSNR for each subsampling",
        arguments: [(ChromaSubsampling.s444, 35.0), (.s422, 34.0), (.s420, 33.0)])
    func roundTripPSNR(_ subsampling: ChromaSubsampling, _ bound: Double) throws {
        let bytes = try JPEGEncoder.encode(
            try Self.photo, options: JPEGEncodeOptions(quality: 90, subsampling: subsampling))
        let decoded = try JPEGDecoder.decode(bytes)
        #expect(decoded.pixels.width == 128 && decoded.pixels.height == 85)
        #expect(decoded.pixels.format == .rgb8)
        #expect(decoded.info.colorModel == "YCbCr \(subsampling)")
        let psnr = Measure.psnr(decoded.pixels, try Self.photo)
        #expect(psnr >= bound, "PSNR \(psnr) dB")
        #expect(psnr < 60, "suspiciously lossless: \(psnr) dB")
    }

    @Test("quality orders file size and error: q50 < q90 < q100 in bytes, and the reverse in error")
    func qualityOrders() throws {
        let sizes = try [50, 90, 100].map {
            try JPEGEncoder.encode(try Self.photo, options: JPEGEncodeOptions(quality: $0))
        }
        #expect(sizes[0].count < sizes[1].count && sizes[1].count < sizes[2].count)
        let errors = try sizes.map { Measure.psnr(try JPEGDecoder.decode($0).pixels, try Self.photo) }
        #expect(errors[0] < errors[1] && errors[1] < errors[2])
    }

    @Test("quality outside 1…100 is rejected", arguments: [0, 101, -5])
    func badQuality(_ quality: Int) throws {
        #expect(throws: CodecError.invalidArgument(name: "quality", reason: "\(quality) is outside 1…100")) {
            try JPEGEncoder.encode(try Self.photo, options: JPEGEncodeOptions(quality: quality))
        }
    }

    @Test("progressive and optimised files decode to the same pixels as baseline ones")
    func progressiveAndOptimised() throws {
        let baseline = try JPEGEncoder.encode(try Self.photo, options: JPEGEncodeOptions(quality: 85))
        let progressive = try JPEGEncoder.encode(
            try Self.photo, options: JPEGEncodeOptions(quality: 85, progressive: true))
        let optimised = try JPEGEncoder.encode(
            try Self.photo, options: JPEGEncodeOptions(quality: 85, optimizeHuffman: true))
        #expect(try !ImageInfo.read(baseline).isProgressive)
        #expect(try ImageInfo.read(progressive).isProgressive)
        #expect(optimised.count < baseline.count)
        let reference = try JPEGDecoder.decode(baseline).pixels
        // Same quantised coefficients, different entropy coding: identical pixels.
        #expect(try JPEGDecoder.decode(progressive).pixels == reference)
        #expect(try JPEGDecoder.decode(optimised).pixels == reference)
        // The progressive file's coefficients live in mapped stores (huge pages where offered) at every scale.
        for scale in [JPEGScale.half, .quarter, .eighth] {
            let options = DecodeOptions(jpegScale: scale, jpegEarlyStop: .off)
            #expect(
                try JPEGDecoder.decode(progressive, options: options).pixels
                    == JPEGDecoder.decode(baseline, options: options).pixels, "\(scale)")
        }
    }

    @Test("grayscale stays one channel; gray+alpha and RGBA are flattened over the background")
    func layouts() throws {
        let gray = try TestImages.smooth(width: 40, height: 30, layout: .gray, seed: 1)
        let grayBack = try JPEGDecoder.decode(JPEGEncoder.encode(gray))
        #expect(grayBack.pixels.format == .gray8)
        #expect(grayBack.info.colorModel == "grayscale")
        #expect(Measure.psnr(grayBack.pixels, gray) > 35)

        // Fully transparent pixels become the background, opaque ones keep their colour.
        var rgba = try PixelBuffer(width: 16, height: 16, format: .rgba8)
        for y in 0..<16 {
            for x in 0..<16 { rgba.setPixel(x: x, y: y, x < 8 ? [200, 30, 30, 255] : [0, 0, 0, 0]) }
        }
        let flat = try JPEGDecoder.decode(
            JPEGEncoder.encode(rgba, options: JPEGEncodeOptions(subsampling: .s444, background: 255))
        ).pixels
        #expect(flat.format == .rgb8)
        for (x, expected) in [(2, [200, 30, 30]), (13, [255, 255, 255])] {
            for (got, want) in zip(flat.pixel(x: x, y: 8), expected) { #expect(abs(got - want) <= 4) }
        }

        // 16-bit input is rounded to 8 bits.
        let wide = try PixelBuffer(width: 8, height: 8, layout: .gray, samples: [UInt16](repeating: 0x8080, count: 64))
        let narrow = try JPEGDecoder.decode(JPEGEncoder.encode(wide, options: JPEGEncodeOptions(quality: 100))).pixels
        #expect(narrow.samples.allSatisfy { abs($0 - 128) <= 1 })
    }

    @Test("Adobe CMYK without a profile, and no default profile, decodes naively with the inverted convention")
    func cmyk() throws {
        let decoded = try JPEGDecoder.decode(
            Fixtures.bytes("cmyk-adobe.jpg"), options: DecodeOptions(cmykFallback: .none))
        #expect(
            decoded.warnings.contains {
                $0.message == "CMYK JPEG without an ICC profile: converted to RGB without colour management"
            })
        #expect(decoded.info.colorModel == "CMYK (Adobe, inverted)")
        #expect(decoded.pixels.format == .rgb8)
        // Patches (C, M, Y, K) → R = (255 − C)(255 − K)/255 and so on.
        let patches: [(Int, Int, Int, Int)] = [
            (0, 0, 0, 0), (255, 0, 0, 0), (0, 255, 0, 0), (0, 0, 255, 0),
            (0, 0, 0, 255), (128, 64, 32, 0), (0, 0, 0, 128), (200, 100, 50, 100),
        ]
        for (i, (c, m, y, k)) in patches.enumerated() {
            let expected = [c, m, y].map { ((255 - $0) * (255 - k) + 127) / 255 }
            let got = decoded.pixels.pixel(x: (i % 4) * 16 + 8, y: (i / 4) * 16 + 8)
            for (g, e) in zip(got, expected) { #expect(abs(g - e) <= 3, "patch \(i): \(got) vs \(expected)") }
        }
    }

    @Test(
        "shrink-on-load gives the rounded-up size and approximates the full decode",
        arguments: [JPEGScale.half, .quarter, .eighth])
    func scaled(_ scale: JPEGScale) throws {
        let bytes = try JPEGEncoder.encode(try Self.photo, options: JPEGEncodeOptions(quality: 95))
        let full = try JPEGDecoder.decode(bytes).pixels
        let small = try JPEGDecoder.decode(bytes, options: DecodeOptions(jpegScale: scale))
        let d = scale.denominator
        #expect(small.pixels.width == (128 + d - 1) / d)
        #expect(small.pixels.height == (85 + d - 1) / d)
        #expect(small.info.width == 128, "the info keeps the stored size")
        // Each output pixel is close to the mean of its d×d block of the full decode.
        var total = 0.0, count = 0.0
        for y in 0..<(85 / d) {
            for x in 0..<(128 / d) {
                for c in 0..<3 {
                    var sum = 0
                    for j in 0..<d { for i in 0..<d { sum += full[x: x * d + i, y: y * d + j, channel: c] } }
                    total += abs(Double(small.pixels[x: x, y: y, channel: c]) - Double(sum) / Double(d * d))
                    count += 1
                }
            }
        }
        #expect(total / count < 6, "mean difference \(total / count)")
    }

    @Test("JPEGScale picks the largest reduction that still covers a target")
    func scaleChoice() throws {
        #expect(JPEGScale.largestReduction(width: 6000, height: 4000, minWidth: 256, minHeight: 256) == .eighth)
        #expect(JPEGScale.largestReduction(width: 6000, height: 4000, minWidth: 1000, minHeight: 600) == .quarter)
        #expect(JPEGScale.largestReduction(width: 6000, height: 4000, minWidth: 3000, minHeight: 2000) == .half)
        #expect(JPEGScale.largestReduction(width: 6000, height: 4000, minWidth: 3001, minHeight: 10) == .full)
    }

    @Test("rows can be streamed in any chunk size with any stride")
    func streaming() throws {
        let bytes = try JPEGEncoder.encode(try Self.photo, options: JPEGEncodeOptions(quality: 80, progressive: true))
        let whole = try JPEGDecoder.decode(bytes).pixels
        for chunk in [1, 7, 16, 100] {
            let decoder = try JPEGDecoder(data: bytes)
            let stride = decoder.outputWidth * 3 + 5
            let memory = UnsafeMutableRawPointer.allocate(byteCount: stride * chunk, alignment: 1)
            defer { memory.deallocate() }
            var rows: [[Int]] = []
            while true {
                let n = try decoder.readRows(into: memory, bytesPerRow: stride, maxRows: chunk)
                if n == 0 { break }
                for i in 0..<n {
                    rows.append(
                        (0..<decoder.outputWidth * 3).map {
                            Int(memory.load(fromByteOffset: i * stride + $0, as: UInt8.self))
                        })
                }
            }
            try decoder.finish()
            #expect(rows.count == 85)
            #expect(rows.flatMap { $0 } == whole.samples)
        }
    }

    @Test("the streaming encoder takes rows in any chunk size and gives the same file")
    func streamingEncoder() throws {
        let reference = try JPEGEncoder.encode(try Self.photo)
        let encoder = try JPEGEncoder(width: 128, height: 85, inputFormat: .rgb8)
        var y = 0
        for chunk in [1, 2, 30, 52] {
            try encoder.writeRows(from: try Self.photo, startRow: y, count: chunk)
            y += chunk
        }
        #expect(try encoder.finish() == reference)
        #expect(throws: CodecError.self) { try JPEGEncoder(width: 4, height: 4, inputFormat: .rgb8).finish() }
    }

    @Test("a stride smaller than a row is refused")
    func badStride() throws {
        let decoder = try JPEGDecoder(data: JPEGEncoder.encode(try Self.photo))
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 1024, alignment: 1)
        defer { memory.deallocate() }
        #expect(
            throws: CodecError.invalidArgument(name: "bytesPerRow", reason: "100 is smaller than a row (384 bytes)")
        ) {
            try decoder.readRows(into: memory, bytesPerRow: 100, maxRows: 1)
        }
    }
}
