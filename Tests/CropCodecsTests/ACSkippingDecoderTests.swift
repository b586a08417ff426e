import CropPixels
import Testing

@testable import CropCodecs

/// CropKit's entropy decoder for sequential JPEGs, at every scale (value tables; at 1/8 it skips the AC coefficients
/// too): it must give exactly libjpeg's pixels (``JPEGEarlyStop/exact``), on any file, damaged ones included.
@Suite("CropKit's JPEG entropy decoder (sequential files)")
struct ACSkippingDecoderTests {
    static func decode(
        _ data: [UInt8], _ stop: JPEGEarlyStop = .exact, libjpeg: Bool, strict: Bool = false,
        scale: JPEGScale = .eighth
    ) throws -> (PixelBuffer, JPEGDecoder) {
        var options = DecodeOptions(strict: strict, jpegScale: scale, jpegEarlyStop: stop)
        options.jpegLibjpegEntropy = libjpeg
        let decoder = try JPEGDecoder(data: data, options: options)
        return (try decoder.decodeAll(), decoder)
    }

    /// A picture with detail at every frequency: a smooth scene, or seeded noise (large coefficients, long codes).
    static func picture(width: Int, height: Int, layout: ChannelLayout, noisy: Bool, seed: UInt64) throws
        -> PixelBuffer
    {
        noisy
            ? try TestImages.random(width: width, height: height, format: PixelFormat(layout), seed: seed)
            : try TestImages.smooth(width: width, height: height, layout: layout, seed: seed)
    }

    @Test(
        "160 seeded random files (sizes, qualities, subsamplings, gray, optimised tables, restart intervals) decode byte-identically to libjpeg at 1/8 and at one other scale each"
    )
    func randomFiles() throws {
        var ownCount = 0
        var ownOutputCount = 0
        let files = try TestImages.randomJPEGs(
            160, seed: 2026_11_25, maxWidth: 300, maxHeight: 200, progressive: false, noise: true)
        for (index, (data, width, height, description)) in files.enumerated() {
            for scale in [JPEGScale.eighth, [.full, .half, .quarter][index % 3]] {
                let (reference, referenceDecoder) = try Self.decode(data, libjpeg: true, scale: scale)
                let (fast, fastDecoder) = try Self.decode(data, libjpeg: false, scale: scale)
                #expect(!referenceDecoder.ownEntropyDecoder)
                #expect(fastDecoder.ownEntropyDecoder, "file \(index) at \(scale) was not read by CropKit's decoder")
                // At 1/8 luma is one pixel per block in every sampling, so CropKit's output pass runs.
                #expect(fastDecoder.ownOutputPass == (scale == .eighth), "file \(index) at \(scale)")
                #expect(!referenceDecoder.ownOutputPass)
                if fastDecoder.ownEntropyDecoder { ownCount += 1 }
                if fastDecoder.ownOutputPass { ownOutputCount += 1 }
                let size = scale.scaledSize(width: width, height: height)
                #expect(fast.width == size.width && fast.height == size.height)
                #expect(fast == reference, "file \(index) at \(scale): \(description)")
                #expect(fastDecoder.warnings.isEmpty && referenceDecoder.warnings.isEmpty)
            }
        }
        #expect(ownCount == 320)
        #expect(ownOutputCount == 160)
    }

    @Test(
        "files libvips wrote with restart markers decode byte-identically",
        arguments: ["sequential/r420.jpg", "sequential/r444.jpg", "sequential/gray.jpg"])
    func vipsFiles(_ name: String) throws {
        let data = try Fixtures.bytes(name)
        let (reference, _) = try Self.decode(data, libjpeg: true)
        let (fast, decoder) = try Self.decode(data, libjpeg: false)
        #expect(decoder.ownEntropyDecoder)
        #expect(fast.width == 16 && fast.height == 11)
        #expect(fast == reference)
        #expect(decoder.warnings.isEmpty)
    }

    @Test(
        "every sequential JPEG fixture (camera EXIF samples, Adobe CMYK, restart markers, 4:4:0, 4:1:1 and luma 2×2 over chroma 1×2) decodes byte-identically at every scale, at 1/8 in both modes"
    )
    func fixtures() throws {
        let names =
            [
                "cmyk-adobe.jpg", "exif/leica-orient8-ii.jpg", "sequential/r420.jpg", "sequential/s440.jpg",
                "sequential/s411.jpg", "sequential/s420-422.jpg",
            ]
            + (0...8).map { "exif/landscape-\($0)-mm.jpg" }
        let cases: [(JPEGScale, JPEGEarlyStop)] = [
            (.eighth, .exact), (.eighth, .off), (.quarter, .exact), (.half, .exact), (.full, .exact),
        ]
        for name in names {
            let data = try Fixtures.bytes(name)
            for (scale, stop) in cases {
                let (reference, _) = try Self.decode(data, stop, libjpeg: true, scale: scale)
                let (fast, decoder) = try Self.decode(data, stop, libjpeg: false, scale: scale)
                #expect(decoder.ownEntropyDecoder, "\(name)")
                #expect(decoder.ownOutputPass == (scale == .eighth), "\(name) \(scale)")
                #expect(fast.width == reference.width && fast.height == reference.height)
                #expect(fast == reference, "\(name) \(scale) \(stop)")
            }
        }
    }

    @Test(
        "a single-scan sequential file uses it at every scale; progressive files keep libjpeg's decoder but for their DC-first scans at 1/8 and their AC scans read whole; DC-only approximates at 1/8 alone"
    )
    func whereItApplies() throws {
        let image = try TestImages.smooth(width: 120, height: 90, seed: 3)
        let baseline = try JPEGEncoder.encode(image, options: JPEGEncodeOptions(quality: 85, subsampling: .s420))
        for scale in JPEGScale.allCases {
            let (pixels, decoder) = try Self.decode(baseline, .dcOnly, libjpeg: false, scale: scale)
            #expect(decoder.ownEntropyDecoder, "\(scale)")
            #expect(decoder.ownOutputPass == (scale == .eighth), "\(scale)")
            // At 1/8 the 4:2:0 chroma comes from DC alone; other scales ignore DC-only and stay exact.
            let (exact, _) = try Self.decode(baseline, .exact, libjpeg: true, scale: scale)
            #expect((pixels == exact) == (scale != .eighth), "\(scale)")
        }
        let progressive = try JPEGEncoder.encode(image, options: JPEGEncodeOptions(quality: 85, progressive: true))
        for scale in JPEGScale.allCases {
            // At 1/8 a progressive file stops early, and CropKit reads its DC-first scans (DCFirstDecoderTests); read
            // whole, its AC scans (ProgressiveACDecoderTests).
            let decoder = try Self.decode(progressive, libjpeg: false, scale: scale).1
            #expect(decoder.ownEntropyDecoder && !decoder.ownOutputPass, "\(scale)")
            #expect(!decoder.ownDCRows, "\(scale)")
        }
    }

    @Test(
        "DC-only on a 4:2:0 file skips the chroma's AC too: the same pixels as the progressive DC-only decode of the same picture",
        arguments: [ChromaSubsampling.s420, .s422, .s444])
    func dcOnlyMatchesProgressive(_ subsampling: ChromaSubsampling) throws {
        let image = try TestImages.smooth(width: 203, height: 141, seed: 99)
        let baseline = try JPEGEncoder.encode(
            image, options: JPEGEncodeOptions(quality: 88, subsampling: subsampling))
        let progressive = try JPEGEncoder.encode(
            image, options: JPEGEncodeOptions(quality: 88, subsampling: subsampling, progressive: true))
        let (fromBaseline, decoder) = try Self.decode(baseline, .dcOnly, libjpeg: false)
        let (fromProgressive, _) = try Self.decode(progressive, .dcOnly, libjpeg: false)
        let (exact, _) = try Self.decode(baseline, .exact, libjpeg: true)
        #expect(decoder.ownEntropyDecoder)
        // Both encoders quantise the same coefficients, so DC alone gives the same picture either way.
        #expect(fromBaseline == fromProgressive)
        if subsampling == .s420 {
            // The 2×2 chroma IDCT lost its AC coefficients: close, not equal.
            #expect(fromBaseline != exact)
            #expect(Measure.psnr(fromBaseline, exact) > 30)
        } else {
            #expect(fromBaseline == exact)
        }
    }

    /// Files cut short, with bytes flipped, with markers dropped into the data: the decoder must not crash and must
    /// give libjpeg's pixels and outcome whatever the damage.
    @Test("600 seeded damaged files give libjpeg's pixels and outcome, at every scale")
    func damagedFiles() throws {
        var rng = SplitMix64(seed: 8)
        var sources: [[UInt8]] = []
        for (index, restart) in [0, 1, 3, 0, 7, 0].enumerated() {
            var options = JPEGEncodeOptions(
                quality: 60 + 8 * index, subsampling: [.s420, .s422, .s444][index % 3],
                optimizeHuffman: index % 2 == 1)
            options.restartInterval = restart
            let image = try Self.picture(
                width: 97 + 31 * index, height: 75 + 17 * index, layout: index == 5 ? .gray : .rgb,
                noisy: index % 2 == 0, seed: UInt64(40 + index))
            sources.append(try JPEGEncoder.encode(image, options: options))
        }
        var differing: [Int] = []
        var failures = 0
        for trial in 0..<600 {
            // Every source at every scale: the value tables (full, 1/2, 1/4) and the skipping (1/8).
            let scale = JPEGScale.allCases[trial / sources.count % 4]
            var data = sources[trial % sources.count]
            let scanStart = Self.scanStart(data)
            switch rng.next() % 4 {
            case 0:  // cut short inside the data
                data.removeLast(Int(rng.next() % UInt64(data.count - scanStart)))
            case 1:  // flipped bits
                for _ in 0..<(1 + rng.next() % 6) {
                    data[scanStart + Int(rng.next() % UInt64(data.count - scanStart - 2))] ^= UInt8(
                        1 << (rng.next() % 8))
                }
            case 2:  // a marker (a restart marker, the wrong one, or EOI) inside the data
                let at = scanStart + Int(rng.next() % UInt64(data.count - scanStart - 2))
                data.insert(contentsOf: [0xFF, [0xD0, 0xD3, 0xD7, 0xD9, 0xC4][Int(rng.next() % 5)]], at: at)
            default:  // random bytes overwritten, 0xFF among them
                let at = scanStart + Int(rng.next() % UInt64(data.count - scanStart - 8))
                for i in 0..<Int(1 + rng.next() % 8) {
                    data[at + i] = rng.next() % 3 == 0 ? 0xFF : UInt8(rng.next() & 0xFF)
                }
            }
            let reference = Result { try Self.decode(data, libjpeg: true, scale: scale).0 }
            let fast = Result { try Self.decode(data, libjpeg: false, scale: scale).0 }
            switch (reference, fast) {
            case (.success(let a), .success(let b)):
                if a != b { differing.append(trial) }
            case (.failure, .failure):
                failures += 1
            default:
                differing.append(trial)
            }
        }
        #expect(differing.isEmpty, "trials whose pixels or outcome differ: \(differing)")
        // Most damage is recoverable (warnings, gray blocks); some is fatal (a cut header table, two SOIs).
        #expect(failures < 300)
    }

    @Test("a file cut inside its data is refused as truncated; damaged data warns, and fails in strict mode")
    func truncationAndStrictness() throws {
        let image = try TestImages.smooth(width: 160, height: 120, seed: 5)
        let data = try JPEGEncoder.encode(image, options: JPEGEncodeOptions(quality: 90, subsampling: .s420))
        let cut = Array(data.prefix(data.count * 2 / 3))
        for libjpeg in [false, true] {
            #expect {
                try Self.decode(cut, libjpeg: libjpeg)
            } throws: { error in
                guard case .truncated(format: .jpeg, _) = error as? CodecError else { return false }
                return true
            }
        }
        // A marker in the middle of the data: the rest of the picture is gray, with a warning.
        var marked = data
        marked.insert(contentsOf: [0xFF, 0xD3], at: Self.scanStart(data) + (data.count - Self.scanStart(data)) / 2)
        let (pixels, decoder) = try Self.decode(marked, libjpeg: false)
        #expect(decoder.ownEntropyDecoder)
        #expect(decoder.warnings.contains { $0.message.contains("premature end of data segment") })
        #expect(pixels.width == 20 && pixels.height == 15)
        #expect(pixels[x: 19, y: 14, channel: 0] == 128 && pixels[x: 19, y: 14, channel: 2] == 128)
        #expect(throws: CodecError.self) { try Self.decode(marked, libjpeg: false, strict: true) }
    }

    /// Once the data has run out, only running out (the entropy decoder needing bits that are not there, or a
    /// restart marker missing) makes a file truncated; a bad code warned about before the end does not, however far
    /// the reader had read ahead. The fuzzer's file: CropKit's reader loads whole words and had reached the end before
    /// the second bad code, libjpeg's had not, and one decode failed where the other succeeded.
    @Test("a damaged file whose data ends without its EOI: the same outcome, pixels and warnings by both decoders")
    func badCodesBeforeTheEnd() throws {
        let data = try Fixtures.bytes("fuzz/jpeg-eof-bad-codes.jpg")
        for scale in JPEGScale.allCases {
            let (pixels, decoder) = try Self.decode(data, .off, libjpeg: false, scale: scale)
            let (reference, libjpeg) = try Self.decode(data, .off, libjpeg: true, scale: scale)
            #expect(decoder.ownEntropyDecoder)
            #expect(pixels == reference && decoder.warnings == libjpeg.warnings, "\(scale)")
            #expect(decoder.warnings.filter { $0.message.contains("bad Huffman code") }.count == 2)
            #expect(decoder.warnings.last?.message.contains("EOI marker is missing") == true)
        }
    }

    /// Data that ends just before a restart marker holds every block of the intervals before it, and no bits past
    /// the end; the restart marker found missing is only a warning, and the blocks after it, which need bits that are
    /// not there, make the file truncated for both decoders.
    @Test("a file cut just before a restart marker is refused as truncated by both decoders")
    func cutBeforeARestartMarker() throws {
        let image = try TestImages.smooth(width: 160, height: 120, seed: 6)
        var options = JPEGEncodeOptions(quality: 90, subsampling: .s420)
        options.restartInterval = 1
        let data = try JPEGEncoder.encode(image, options: options)
        let start = Self.scanStart(data)
        let markers = (start..<(data.count - 1)).filter { data[$0] == 0xFF && (0xD0...0xD7).contains(data[$0 + 1]) }
        let cut = Array(data.prefix(try #require(markers.dropFirst(markers.count / 2).first)))
        for libjpeg in [false, true] {
            #expect {
                try Self.decode(cut, .off, libjpeg: libjpeg, scale: .full)
            } throws: { error in
                guard case .truncated(format: .jpeg, _) = error as? CodecError else { return false }
                return true
            }
        }
    }

    /// AC symbols that fill the bit reader: every AC table replaced by one whose commonest codes are 4 bits long and
    /// carry 8 to 15 value bits (12-19 bits a symbol, the rest 9-bit codes of any size), over random entropy-coded
    /// data. The skipping decoder reads three skip-table entries per refill, which holds only if no entry takes more
    /// than CK_SKIP_MAX_USED bits: without that limit these files decode wrongly (camera photos do not show it).
    /// The table is incomplete, so random data also meets codes that are in no table. Only pixels and outcome are
    /// compared: libjpeg-turbo's fast path reads such a code as symbol 0 without a warning, and uses it except near
    /// the end of the data, so it warns less often than CropKit's decoder, which warns at each (same pixels).
    @Test("random data under AC tables of long symbols: libjpeg's pixels and outcome at every scale")
    func longSymbols() throws {
        var rng = SplitMix64(seed: 18)
        var differing: [String] = []
        var badCodes = 0
        for (index, subsampling) in [ChromaSubsampling.s420, .s422, .s444, .s420].enumerated() {
            var options = JPEGEncodeOptions(quality: 90, subsampling: subsampling)
            options.restartInterval = index == 3 ? 2 : 0
            let image = try TestImages.smooth(width: 96 + 40 * index, height: 72 + 24 * index, seed: UInt64(index))
            let source = try JPEGEncoder.encode(image, options: options)
            var data: [UInt8] = []
            var at = 0
            for segment in Bytes.jpegSegments(source) where segment.marker == 0xC4 {
                data += source[at..<segment.start] + Self.longSymbolTables(source[segment.start..<segment.end])
                at = segment.end
            }
            let start = Self.scanStart(source)
            data += source[at..<start]
            // Random data in place of the scan's (0xFF stuffed), its restart markers kept where they were.
            var i = start
            while i < source.count - 2 {
                if source[i] == 0xFF, (0xD0...0xD7).contains(source[i + 1]) {
                    data += source[i...(i + 1)]
                    i += 2
                    continue
                }
                let byte = UInt8(truncatingIfNeeded: rng.next())
                data += byte == 0xFF ? [0xFF, 0] : [byte]
                i += source[i] == 0xFF ? 2 : 1
            }
            data += [0xFF, 0xD9]
            for scale in JPEGScale.allCases {
                let reference = Result { try Self.decode(data, libjpeg: true, scale: scale) }
                let fast = Result { try Self.decode(data, libjpeg: false, scale: scale) }
                switch (reference, fast) {
                case (.success(let a), .success(let b)):
                    #expect(b.1.ownEntropyDecoder)
                    if a.0 != b.0 { differing.append("\(index) \(scale)") }
                    badCodes += b.1.warnings.contains { $0.message.contains("bad Huffman code") } ? 1 : 0
                case (.failure, .failure):
                    break
                default:
                    differing.append("\(index) \(scale): one failed")
                }
            }
        }
        #expect(differing.isEmpty, "files and scales whose pixels or outcome differ: \(differing)")
        // Every file, at every scale, met codes that are in no table: the incomplete table's path was read.
        #expect(badCodes == 16)
    }

    /// A DHT segment with its AC tables (class 1) replaced by the long-symbol table of ``longSymbols()``.
    static func longSymbolTables(_ segment: ArraySlice<UInt8>) -> [UInt8] {
        let short = (8...15).map { UInt8($0) }  // run 0, 8-15 value bits
        let long = (0...255).map { UInt8($0) }.filter { symbol in
            !short.contains(symbol) && (symbol & 15 != 0 || symbol == 0 || symbol == 0xF0)
        }
        var counts = [UInt8](repeating: 0, count: 16)
        counts[3] = UInt8(short.count)  // 4 bits
        counts[8] = UInt8(long.count)  // 9 bits: 8/16 + 234/512 < 1
        var body: [UInt8] = []
        var i = segment.startIndex + 4
        while i < segment.endIndex {
            let tableClass = segment[i] >> 4
            let count = segment[(i + 1)...(i + 16)].reduce(0) { $0 + Int($1) }
            if tableClass == 1 {
                body += [segment[i]] + counts + short + long
            } else {
                body += segment[i..<(i + 17 + count)]
            }
            i += 17 + count
        }
        return [0xFF, 0xC4, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
    }

    /// The offset just past the SOS segment's header, where the entropy-coded data starts.
    static func scanStart(_ data: [UInt8]) -> Int {
        let sos = Bytes.jpegSegments(data).first { $0.marker == 0xDA }!
        return sos.end
    }
}
