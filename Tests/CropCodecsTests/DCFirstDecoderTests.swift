import CropPixels
import Testing

@testable import CropCodecs

/// CropKit's reader of a progressive file's DC-first scans, which a decode at 1/8 that stops early uses (every other
/// scan stays libjpeg's): it must give exactly libjpeg's pixels, warnings and outcome, on any file, damaged ones
/// included, through both of its paths: a row of blocks per call into the DC store (``JPEGEarlyStop/dcOnly``, whose
/// output pass then writes the pixels straight from the store) and one MCU per call through libjpeg's coefficient
/// controller (``JPEGEarlyStop/exact``).
@Suite("CropKit's JPEG entropy decoder (progressive DC-first scans)")
struct DCFirstDecoderTests {
    struct Outcome: Equatable {
        var pixels: PixelBuffer
        var warnings: [CodecWarning]
        var scansRead: Int?
        var stoppedEarly: Bool
    }

    /// The decode at 1/8 by CropKit's decoder or libjpeg's; nil when it fails. CropKit's must have read the file
    /// (through the DC store exactly when `stop` is DC-only), libjpeg's must not.
    static func decode(_ data: [UInt8], _ stop: JPEGEarlyStop, libjpeg: Bool, strict: Bool = false) -> Outcome? {
        guard
            let (pixels, decoder) = try? ACSkippingDecoderTests.decode(
                data, stop, libjpeg: libjpeg, strict: strict, scale: .eighth)
        else { return nil }
        #expect(decoder.ownEntropyDecoder == !libjpeg)
        #expect(decoder.ownDCRows == (!libjpeg && stop == .dcOnly))
        // With the DC store the output pass writes the pixels from it (every sampling here has chroma at 1×1 or 2×2).
        #expect(decoder.ownOutputPass == (!libjpeg && stop == .dcOnly))
        return Outcome(
            pixels: pixels, warnings: decoder.warnings, scansRead: decoder.scansRead,
            stoppedEarly: decoder.stoppedEarly)
    }

    static let fixtures = [
        "progressive/p420.jpg", "progressive/p444.jpg", "progressive/gray.jpg", "scans/photo-script.jpg",
        "scans/bands.jpg", "scans/refine.jpg", "scans/restart-444.jpg", "scans/default-com.jpg",
        "scans/incomplete.jpg",
    ]

    @Test(
        "every progressive fixture (a DC scan per component, interleaved DC, DC refined by successive approximation, restart markers, a COM between scans, grayscale) gives libjpeg's pixels in both early stops, without a warning"
    )
    func fixtureFiles() throws {
        for name in Self.fixtures {
            let data = try Fixtures.bytes(name)
            let info = try JPEGDecoder(data: data, options: DecodeOptions()).info
            for stop in [JPEGEarlyStop.dcOnly, .exact] {
                let reference = try #require(Self.decode(data, stop, libjpeg: true), "\(name)")
                let fast = try #require(Self.decode(data, stop, libjpeg: false), "\(name)")
                #expect(fast.pixels.width == (info.width + 7) / 8 && fast.pixels.height == (info.height + 7) / 8)
                #expect(fast == reference, "\(name) \(stop)")
                // Valid files: no warning, so a strict decode succeeds. (The DC-only stop used to read AC refinement
                // scans without the coefficients they refine, and warned on files of libjpeg's own script.)
                #expect(fast.warnings.isEmpty, "\(name)")
                #expect(Self.decode(data, stop, libjpeg: false, strict: true) == fast, "\(name) \(stop)")
            }
        }
    }

    @Test(
        "120 seeded random progressive files (sizes, qualities, samplings, gray, restart intervals) give libjpeg's pixels in both early stops"
    )
    func randomFiles() throws {
        let files = try TestImages.randomJPEGs(
            120, seed: 2026_11_29, maxWidth: 300, maxHeight: 200, progressive: true, noise: true)
        for (index, file) in files.enumerated() {
            let stop: JPEGEarlyStop = index % 2 == 0 ? .dcOnly : .exact
            let reference = try #require(Self.decode(file.data, stop, libjpeg: true))
            let fast = try #require(Self.decode(file.data, stop, libjpeg: false))
            #expect(fast.pixels.width == (file.width + 7) / 8 && fast.pixels.height == (file.height + 7) / 8)
            #expect(fast == reference, "file \(index) \(stop): \(file.description)")
        }
    }

    /// `data` with the DC entry of every 8-bit quantization table before the first scan set to `value`.
    static func raisingDCQuantizers(_ data: [UInt8], to value: UInt8) -> [UInt8] {
        var data = data
        var i = 2
        while i + 4 <= data.count, data[i] == 0xFF, data[i + 1] != 0xDA {
            let end = i + 2 + (Int(data[i + 2]) << 8 | Int(data[i + 3]))
            var table = i + 4
            while data[i + 1] == 0xDB, table + 1 < min(end, data.count) {
                let sixteenBits = data[table] >> 4 != 0
                if !sixteenBits { data[table + 1] = value }
                table += sixteenBits ? 129 : 65
            }
            i = end
        }
        return data
    }

    /// Past the DC × quantizer of any valid file (|DC × q| <= 1024), libjpeg-turbo's SIMD 2×2 IDCT (4:2:0 chroma at
    /// 1/8) works in 16 bits and clamps where the arithmetic of the output pass from the DC store wrapped through the
    /// range limit: the fuzzer's file (a chroma DC quantizer of 179 and damaged DC data) and the fixtures with every
    /// table's DC quantizer raised to 255 or 40 differed in hundreds of bytes before such blocks went to libjpeg's IDCT.
    @Test("DC × quantizer past valid data's range (hostile quantizers, damaged DC data) gives libjpeg's pixels")
    func hostileDCProducts() throws {
        var files = [try Fixtures.bytes("progressive/hostile-dc.jpg")]
        for name in Self.fixtures where !name.contains("gray") {
            let data = try Fixtures.bytes(name)
            files += [Self.raisingDCQuantizers(data, to: 255), Self.raisingDCQuantizers(data, to: 40)]
        }
        for (index, data) in files.enumerated() {
            let reference = try #require(Self.decode(data, .dcOnly, libjpeg: true), "file \(index)")
            let fast = try #require(Self.decode(data, .dcOnly, libjpeg: false), "file \(index)")
            #expect(fast == reference, "file \(index)")
        }
        // The raised quantizers do change the pixels: the tables were rewritten, not skipped.
        let original = try Fixtures.bytes("progressive/p420.jpg")
        #expect(
            Self.decode(original, .dcOnly, libjpeg: true)?.pixels
                != Self.decode(Self.raisingDCQuantizers(original, to: 255), .dcOnly, libjpeg: true)?.pixels)
    }

    /// The offsets of the first scan's entropy-coded data: from the end of its SOS header to the next marker that
    /// is not a restart marker or a stuffed byte.
    static func firstScan(_ data: [UInt8]) -> Range<Int> {
        let start = ACSkippingDecoderTests.scanStart(data)
        var end = start
        while end + 1 < data.count {
            if data[end] == 0xFF, data[end + 1] != 0, !(0xD0...0xD7).contains(data[end + 1]) { break }
            end += 1
        }
        return start..<end
    }

    /// Damage where CropKit's decoder reads (the first scan, a DC-first scan in every source) and, one time in four,
    /// anywhere after it: libjpeg's pixels, warnings (the same text: its bytes are consumed where libjpeg consumes
    /// them) and outcome, lenient and strict.
    @Test("400 seeded damaged progressive files give libjpeg's pixels, warnings and outcome, lenient and strict")
    func damagedFiles() throws {
        var rng = SplitMix64(seed: 29)
        var sources = try Self.fixtures.map { try Fixtures.bytes($0) }
        for (index, restart) in [1, 3, 0].enumerated() {
            var options = JPEGEncodeOptions(
                quality: 70 + 10 * index, subsampling: [.s420, .s422, .s444][index], progressive: true)
            options.restartInterval = restart
            let image = try TestImages.random(
                width: 90 + 40 * index, height: 70 + 20 * index, format: PixelFormat(.rgb), seed: UInt64(index))
            sources.append(try JPEGEncoder.encode(image, options: options))
        }
        var differing: [Int] = []
        var failures = 0
        var warned = 0
        for trial in 0..<400 {
            var data = sources[trial % sources.count]
            let scan = Self.firstScan(data)
            let region = rng.next() % 4 == 0 ? scan.lowerBound..<(data.count - 2) : scan
            Bytes.damage(&data, in: region, &rng)
            let stop: JPEGEarlyStop = trial % 2 == 0 ? .dcOnly : .exact
            let strict = trial % 3 == 0
            let reference = Self.decode(data, stop, libjpeg: true, strict: strict)
            let fast = Self.decode(data, stop, libjpeg: false, strict: strict)
            if fast != reference { differing.append(trial) }
            if reference == nil { failures += 1 }
            if reference?.warnings.isEmpty == false { warned += 1 }
        }
        #expect(differing.isEmpty, "trials whose pixels, warnings or outcome differ: \(differing)")
        // The damage must exercise both outcomes: decodes that fail, and decodes that warn and go on.
        #expect(failures > 20 && failures < 300)
        #expect(warned > 20)
    }
}
