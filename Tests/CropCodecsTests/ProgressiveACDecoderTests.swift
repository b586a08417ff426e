import CropPixels
import Testing

@testable import CropCodecs

/// CropKit's reader of a progressive file's AC scans (first scans and refinements), which a full read uses on both
/// threads (DC scans stay libjpeg's): it must give exactly libjpeg's pixels, warnings and outcome, on any file,
/// damaged ones included, read by one thread or two.
@Suite("CropKit's JPEG entropy decoder (progressive AC scans)")
struct ProgressiveACDecoderTests {
    enum Outcome: Equatable {
        case decoded(PixelBuffer, warnings: [CodecWarning])
        case failed(String)
    }

    /// A full read (no early stop) by CropKit's decoders or libjpeg's alone. CropKit's must have been installed on
    /// every progressive file, libjpeg's never.
    static func decode(
        _ data: [UInt8], libjpeg: Bool, parallel: JPEGParallelScans, scale: JPEGScale = .full, strict: Bool = false
    ) -> Outcome {
        var options = DecodeOptions(strict: strict, jpegScale: scale, jpegEarlyStop: .off)
        options.jpegLibjpegEntropy = libjpeg
        options.jpegParallelScans = parallel
        do {
            let decoder = try JPEGDecoder(data: data, options: options)
            do {
                let pixels = try decoder.decodeAll()
                #expect(decoder.ownEntropyDecoder == !libjpeg)
                // The helper thread reads its scans as the decoder reads its own.
                #expect(decoder.helperOwnEntropyDecoder == (!libjpeg && decoder.scansReadInParallel > 0))
                return .decoded(pixels, warnings: decoder.warnings)
            } catch {
                return .failed("\(error)")
            }
        } catch {
            return .failed("\(error)")
        }
    }

    /// The entropy-coded data of each AC scan (Ss > 0), or of each AC refinement scan (Ah > 0 too) when `refinements`.
    static func acScans(_ data: [UInt8], refinements: Bool = false) -> [Range<Int>] {
        Bytes.jpegScans(data).filter { $0.ss > 0 && ($0.ah > 0 || !refinements) }.map(\.data)
    }

    static let fixtures = [
        "progressive/p420.jpg", "progressive/p444.jpg", "progressive/gray.jpg", "scans/photo-script.jpg",
        "scans/bands.jpg", "scans/refine.jpg", "scans/restart-444.jpg", "scans/default-com.jpg",
        "scans/incomplete.jpg",
    ]

    @Test(
        "every progressive fixture (libjpeg's script, a camera's and mozjpeg's bands, refinements with restart markers, a progression that never completes) gives libjpeg's pixels at 1/1, 1/2 and 1/4, on one thread and two, without a warning"
    )
    func fixtureFiles() throws {
        var refined = 0
        for name in Self.fixtures {
            let data = try Fixtures.bytes(name)
            if !Self.acScans(data, refinements: true).isEmpty { refined += 1 }
            for scale in [JPEGScale.full, .half, .quarter] {
                for parallel in [JPEGParallelScans.off, .always] {
                    let reference = Self.decode(data, libjpeg: true, parallel: parallel, scale: scale)
                    let fast = Self.decode(data, libjpeg: false, parallel: parallel, scale: scale)
                    #expect(fast == reference, "\(name) at 1/\(scale.denominator), \(parallel)")
                    #expect(fast == .decoded(try #require(reference.pixels), warnings: []), "\(name)")
                }
            }
        }
        // The suite means something only if the fixtures have refinement scans for the decoder to read.
        #expect(refined == 7, "\(refined) fixtures have AC refinement scans")
    }

    @Test(
        "120 seeded random progressive files (sizes, qualities, samplings, gray, restart intervals, noise) give libjpeg's pixels"
    )
    func randomFiles() throws {
        let files = try TestImages.randomJPEGs(
            120, seed: 2026_11_30, maxWidth: 300, maxHeight: 200, progressive: true, noise: true)
        for (index, file) in files.enumerated() {
            #expect(
                !Self.acScans(file.data, refinements: true).isEmpty, "libjpeg's script refines every component's AC")
            let scale = [JPEGScale.full, .half, .quarter][index % 3]
            let parallel: JPEGParallelScans = index % 2 == 0 ? .off : .always
            let reference = Self.decode(file.data, libjpeg: true, parallel: parallel, scale: scale)
            let fast = Self.decode(file.data, libjpeg: false, parallel: parallel, scale: scale)
            #expect(reference.pixels != nil, "file \(index): \(file.description)")
            #expect(fast == reference, "file \(index) at 1/\(scale.denominator): \(file.description)")
        }
    }

    /// Damage where CropKit's decoder reads (an AC scan: a refinement one time in two) three times in four, else
    /// anywhere after the first scan's header: libjpeg's pixels, warnings (the same text: bytes are consumed where libjpeg consumes them) and
    /// outcome, lenient and strict, on one thread and two.
    @Test("500 seeded damaged progressive files give libjpeg's pixels, warnings and outcome, lenient and strict")
    func damagedFiles() throws {
        var rng = SplitMix64(seed: 30)
        var sources = try Self.fixtures.map { try Fixtures.bytes($0) }
        for (index, restart) in [1, 5, 0].enumerated() {
            var options = JPEGEncodeOptions(
                quality: 75 + 10 * index, subsampling: [.s420, .s444, .s422][index], progressive: true)
            options.restartInterval = restart
            let image = try TestImages.random(
                width: 100 + 30 * index, height: 60 + 30 * index, format: PixelFormat(.rgb), seed: UInt64(7 + index))
            sources.append(try JPEGEncoder.encode(image, options: options))
        }
        sources = sources.filter { !Self.acScans($0, refinements: true).isEmpty }
        var differing: [Int] = []
        var failures = 0, warned = 0
        for trial in 0..<500 {
            var data = sources[trial % sources.count]
            let scans = Self.acScans(data, refinements: rng.next() % 2 == 0)
            let scan = scans[Int(rng.next() % UInt64(scans.count))]
            let first = ACSkippingDecoderTests.scanStart(data)
            let region = rng.next() % 4 == 0 ? first..<(data.count - 2) : scan
            Bytes.damage(&data, in: region, &rng)
            let strict = trial % 3 == 0
            let parallel: JPEGParallelScans = trial % 2 == 0 ? .off : .always
            let reference = Self.decode(data, libjpeg: true, parallel: parallel, strict: strict)
            let fast = Self.decode(data, libjpeg: false, parallel: parallel, strict: strict)
            if fast != reference { differing.append(trial) }
            switch reference {
            case .failed: failures += 1
            case .decoded(_, let warnings): if !warnings.isEmpty { warned += 1 }
            }
        }
        #expect(differing.isEmpty, "trials whose pixels, warnings or outcome differ: \(differing)")
        // The damage must exercise both outcomes: decodes that fail, and decodes that warn and go on.
        #expect(failures > 30 && failures < 400, "\(failures) failed")
        #expect(warned > 30, "\(warned) warned")
    }
}

extension ProgressiveACDecoderTests {
    /// The AC first scans of narrow bands (Se - Ss < 8: a camera's chroma 1-2, libjpeg's luma 1-5), where damaged data
    /// soon runs past the band's end, and libjpeg then writes the coefficient up to 15 positions past it.
    @Test("200 files with bits flipped in narrow AC first scans (runs past the band's end) give libjpeg's pixels")
    func runsPastTheBand() throws {
        var rng = SplitMix64(seed: 31)
        let sources = try ["scans/photo-script.jpg", "progressive/p420.jpg", "scans/default-com.jpg"].map {
            try Fixtures.bytes($0)
        }
        let intact = sources.map { Self.decode($0, libjpeg: true, parallel: .off).pixels }
        var differing: [Int] = []
        var changed = 0
        for trial in 0..<200 {
            var data = sources[trial % sources.count]
            let scans = Self.narrowFirstScans(data)
            try #require(!scans.isEmpty)
            let scan = scans[Int(rng.next() % UInt64(scans.count))]
            for _ in 0..<(1 + rng.next() % 3) {
                data[scan.lowerBound + Int(rng.next() % UInt64(scan.count))] ^= UInt8(1 << (rng.next() % 8))
            }
            let parallel: JPEGParallelScans = trial % 2 == 0 ? .off : .always
            let reference = Self.decode(data, libjpeg: true, parallel: parallel)
            if reference != Self.decode(data, libjpeg: false, parallel: parallel) { differing.append(trial) }
            if reference.pixels != nil && reference.pixels != intact[trial % sources.count] { changed += 1 }
        }
        #expect(differing.isEmpty, "trials whose pixels, warnings or outcome differ: \(differing)")
        #expect(changed > 100, "\(changed) damaged files decode to other pixels")
    }

    /// The entropy-coded data of each AC first scan of a band narrower than 8 coefficients (and of more than 16 bytes).
    static func narrowFirstScans(_ data: [UInt8]) -> [Range<Int>] {
        Bytes.jpegScans(data).filter { $0.ss > 0 && $0.ah == 0 && $0.se - $0.ss < 8 && $0.data.count > 16 }.map(\.data)
    }
}

extension ProgressiveACDecoderTests.Outcome {
    var pixels: PixelBuffer? {
        if case .decoded(let pixels, _) = self { return pixels }
        return nil
    }
}
