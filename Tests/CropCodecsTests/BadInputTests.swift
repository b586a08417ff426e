import CropGeometry
import CropPixels
import Foundation
import Testing

@testable import CropCodecs

/// Hostile and broken input: every case ends in a typed error (or a decode with warnings), never a crash, a hang or
/// a large allocation.
@Suite("Bad input")
struct BadInputTests {
    static let imageResult = Result { try TestImages.smooth(width: 61, height: 47, seed: 11) }
    static var image: PixelBuffer { get throws { try imageResult.get() } }
    static let baselineResult = Result { try JPEGEncoder.encode(try image) }
    static var baseline: [UInt8] { get throws { try baselineResult.get() } }
    static let progressiveResult = Result {
        try JPEGEncoder.encode(try image, options: JPEGEncodeOptions(progressive: true))
    }
    static var progressive: [UInt8] { get throws { try progressiveResult.get() } }
    static let pngResult = Result { try PNGEncoder.encode(try image) }
    static var png: [UInt8] { get throws { try pngResult.get() } }
    static let interlacedPNGResult = Result { try Fixtures.bytes("pngsuite/png/basi2c08.png") }
    static var interlacedPNG: [UInt8] { get throws { try interlacedPNGResult.get() } }

    @Test("empty data is not an image, for every entry point")
    func empty() throws {
        let expected = CodecError.notAnImage(reason: "the data is empty (0 bytes)")
        #expect(throws: expected) { try ImageCodec.decode([]) }
        #expect(throws: expected) { try ImageInfo.read([]) }
        #expect(throws: CodecError.notAnImage(reason: "Not a JPEG file: starts with 0x00 0x00")) {
            try JPEGDecoder.decode([0, 0, 0, 0])
        }
        #expect(
            throws: CodecError.truncated(
                format: .jpeg, detail: "Premature end of JPEG data in the header (the file is truncated)")
        ) {
            try JPEGDecoder.decode([])
        }
        #expect(throws: CodecError.self) { try PNGDecoder.decode([]) }
    }

    @Test("random bytes, bare or behind a valid signature, give typed errors")
    func randomBytes() throws {
        var rng = SplitMix64(seed: 1234)
        let prefixes: [[UInt8]] = [
            [], [0xFF, 0xD8, 0xFF], [0xFF, 0xD8, 0xFF, 0xC0], Array(try Self.png.prefix(8)),
            Array(try Self.png.prefix(33)),
        ]
        for round in 0..<400 {
            let length = Int(rng.next() % 600)
            let bytes =
                prefixes[round % prefixes.count] + (0..<length).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            do {
                _ = try ImageCodec.decode(bytes)
                Issue.record("random bytes decoded (round \(round))")
            } catch {
                #expect(!error.description.isEmpty)
            }
        }
    }

    static let cutFractions = [0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.97]

    @Test(
        "files cut at several points are reported as truncated",
        arguments: ["baseline", "progressive", "png", "interlacedPNG"])
    func truncated(_ kind: String) throws {
        let data = [
            "baseline": try Self.baseline, "progressive": try Self.progressive, "png": try Self.png,
            "interlacedPNG": try Self.interlacedPNG,
        ][kind]!
        let format = try ImageFormat.detect(data)
        // Cut anywhere before the end marker (JPEG's 2-byte EOI, PNG's 12-byte IEND chunk; losing only those is a
        // warning, tested below).
        let trailer = format == .jpeg ? 2 : 12
        var cuts = Self.cutFractions.map { Int(Double(data.count - trailer) * $0) }
        cuts += [2, 3, 9, 20, data.count - trailer - 1]
        for cut in cuts {
            let part = Array(data.prefix(cut))
            do {
                let decoded = try ImageCodec.decode(part)
                Issue.record("\(kind) cut at \(cut) of \(data.count) decoded with \(decoded.warnings)")
            } catch {
                guard case .truncated(let f, _) = error else {
                    Issue.record("\(kind) cut at \(cut): \(error)")
                    continue
                }
                #expect(f == format)
            }
            // The streaming decoder fails the same way and keeps failing.
            if let decoder = try? ImageCodec.makeDecoder(data: part) {
                let memory = UnsafeMutableRawPointer.allocate(byteCount: decoder.outputWidth * 8 * 64, alignment: 8)
                defer { memory.deallocate() }
                var failed = false
                for _ in 0..<100 {
                    do {
                        if try decoder.readRows(into: memory, bytesPerRow: decoder.outputWidth * 8, maxRows: 64) == 0 {
                            try decoder.finish()
                            break
                        }
                    } catch {
                        failed = true
                        #expect(throws: CodecError.self) { try decoder.finish() }
                        break
                    }
                }
                #expect(failed, "\(kind) cut at \(cut): streaming decode did not fail")
            }
        }
    }

    @Test(
        "a file missing only its end marker decodes with a warning, and fails in strict mode",
        arguments: ["baseline", "progressive", "png", "interlacedPNG"])
    func missingEndMarker(_ kind: String) throws {
        let data = [
            "baseline": try Self.baseline, "progressive": try Self.progressive, "png": try Self.png,
            "interlacedPNG": try Self.interlacedPNG,
        ][kind]!
        let format = try ImageFormat.detect(data)
        let cut = Array(data.dropLast(format == .jpeg ? 2 : 12))
        let decoded = try ImageCodec.decode(cut)
        #expect(decoded.pixels == (try ImageCodec.decode(data).pixels))
        #expect(
            decoded.warnings.contains { $0.message.contains(format == .jpeg ? "EOI" : "IEND") }, "\(decoded.warnings)")
        #expect(throws: CodecError.self) { try ImageCodec.decode(cut, options: DecodeOptions(strict: true)) }
    }

    @Test("seeded random byte flips never crash the decoders")
    func mutations() throws {
        var rng = SplitMix64(seed: 555)
        var outcomes = [0, 0]
        for (index, source) in [try Self.baseline, try Self.progressive, try Self.png, try Self.interlacedPNG]
            .enumerated()
        {
            for _ in 0..<150 {
                var bytes = source
                for _ in 0..<(1 + Int(rng.next() % 6)) {
                    let at = Int(rng.next() % UInt64(bytes.count))
                    bytes[at] = UInt8(truncatingIfNeeded: rng.next())
                }
                for scale in [JPEGScale.full, .eighth] where index < 2 || scale == .full {
                    do {
                        _ = try ImageCodec.decode(bytes, options: DecodeOptions(jpegScale: scale))
                        outcomes[0] += 1
                    } catch {
                        outcomes[1] += 1
                    }
                }
            }
        }
        // Both outcomes occur: some flips only hit entropy data (warnings), others break the structure.
        #expect(outcomes[0] > 0 && outcomes[1] > 0, "\(outcomes)")
    }

    /// A JPEG header claiming 60000×60000 (JPEG's 16-bit size fields cannot say 100000) and a PNG header claiming
    /// 100000×100000, followed by a few bytes of data.
    static func hugeJPEG() throws -> [UInt8] {
        var bytes = try baseline
        let sof = try #require(Bytes.jpegSegments(bytes).first { $0.marker == 0xC0 })
        bytes[sof.start + 5] = 0xEA  // height 60000 = 0xEA60
        bytes[sof.start + 6] = 0x60
        bytes[sof.start + 7] = 0xEA  // width
        bytes[sof.start + 8] = 0x60
        return bytes
    }

    static func hugePNG() throws -> [UInt8] {
        var bytes = try png
        let dimensions = Bytes.bigEndian32(100_000) + Bytes.bigEndian32(100_000)
        bytes.replaceSubrange(16..<24, with: dimensions)
        bytes.replaceSubrange(29..<33, with: Bytes.bigEndian32(Bytes.crc32(bytes[12..<29])))
        return bytes
    }

    @Test("a header claiming a giant image is refused before anything is allocated")
    func decompressionBomb() throws {
        let rssBefore = Measure.peakResidentBytes()
        for _ in 0..<20 {
            #expect(throws: CodecError.tooManyPixels(width: 60000, height: 60000, limit: 200_000_000)) {
                try JPEGDecoder.decode(Self.hugeJPEG())
            }
            #expect(throws: CodecError.tooManyPixels(width: 100_000, height: 100_000, limit: 200_000_000)) {
                try PNGDecoder.decode(try Self.hugePNG())
            }
            #expect(throws: CodecError.tooManyPixels(width: 60000, height: 60000, limit: 200_000_000)) {
                try ImageCodec.makeDecoder(data: Self.hugeJPEG())
            }
        }
        let growth = Measure.peakResidentBytes() - rssBefore
        // Decoding even one 3.6-gigapixel claim would take gigabytes (no wall-clock bound: a busy machine is slow).
        #expect(growth < 32 << 20, "peak RSS grew by \(growth >> 20) MB")
        // The header itself is readable: info reports the claimed size without decoding.
        #expect(try ImageInfo.read(Self.hugeJPEG()).storedSize == PixelSize(validWidth: 60000, height: 60000))
        #expect(try ImageInfo.read(try Self.hugePNG()).storedSize == PixelSize(validWidth: 100_000, height: 100_000))
    }

    @Test("custom limits are applied to the stored size")
    func customLimits() throws {
        let options = DecodeOptions(limits: PixelLimits(maxPixels: 61 * 47 - 1), jpegScale: .eighth)
        #expect(throws: CodecError.tooManyPixels(width: 61, height: 47, limit: 61 * 47 - 1)) {
            try ImageCodec.decode(try Self.baseline, options: options)
        }
        #expect(throws: CodecError.tooManyPixels(width: 61, height: 47, limit: 61 * 47 - 1)) {
            try ImageCodec.decode(try Self.png, options: options)
        }
        #expect(throws: Never.self) {
            try ImageCodec.decode(try Self.png, options: DecodeOptions(limits: PixelLimits(maxPixels: 61 * 47)))
        }
    }

    @Test("strict mode turns a JPEG corrupt-data warning into an error")
    func strictJPEG() throws {
        // Garbage between two header segments: libjpeg warns "3 extraneous bytes before marker 0xc0" and goes on.
        let sof = try #require(Bytes.jpegSegments(try Self.baseline).first { $0.marker == 0xC0 })
        let bytes =
            Array(try Self.baseline[..<sof.start]) + [0x12, 0x34, 0x56] + Array(try Self.baseline[sof.start...])
        let lenient = try JPEGDecoder.decode(bytes)
        #expect(lenient.warnings.contains { $0.message.contains("extraneous bytes") }, "\(lenient.warnings)")
        #expect(lenient.pixels == (try JPEGDecoder.decode(try Self.baseline).pixels))
        do {
            _ = try JPEGDecoder.decode(bytes, options: DecodeOptions(strict: true))
            Issue.record("strict decode succeeded")
        } catch {
            guard case .corruptData(.jpeg, let message) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(message.contains("extraneous bytes"))
            #expect(message.contains("strict"))
        }
        // Corrupt entropy data: a warning, or an error when strict.
        var damaged = try Self.baseline
        let sos = try #require(Bytes.jpegSegments(damaged).first { $0.marker == 0xDA })
        for i in stride(from: sos.end + 40, to: sos.end + 60, by: 2) {
            damaged[i] = 0xFF
            damaged[i + 1] = 0xD3
        }
        let recovered = try JPEGDecoder.decode(damaged)
        #expect(!recovered.warnings.isEmpty)
        #expect(throws: CodecError.self) { try JPEGDecoder.decode(damaged, options: DecodeOptions(strict: true)) }
    }

    @Test("strict mode turns a PNG warning (bad CRC in an ancillary chunk) into an error")
    func strictPNG() throws {
        // Insert a tEXt chunk with a wrong CRC after IHDR.
        let text = Array("tEXt".utf8) + Array("Comment".utf8) + [0] + Array("hi".utf8)
        let chunk = Bytes.bigEndian32(UInt32(text.count - 4)) + text + [0xDE, 0xAD, 0xBE, 0xEF]
        let bytes = Array(try Self.png.prefix(33)) + chunk + Array(try Self.png.dropFirst(33))
        let lenient = try PNGDecoder.decode(bytes)
        #expect(try lenient.pixels == Self.image)
        #expect(lenient.warnings.contains { $0.message.contains("CRC") }, "\(lenient.warnings)")
        #expect(throws: CodecError.self) { try PNGDecoder.decode(bytes, options: DecodeOptions(strict: true)) }
    }

    @Test("unsupported JPEG processes are named")
    func unsupportedJPEG() throws {
        // Turn SOF0 into SOF3 (lossless).
        var bytes = try Self.baseline
        let sof = try #require(Bytes.jpegSegments(bytes).first { $0.marker == 0xC0 })
        bytes[sof.start + 1] = 0xC3
        do {
            _ = try JPEGDecoder.decode(bytes)
            Issue.record("lossless JPEG decoded")
        } catch {
            guard case .unsupportedFeature(.jpeg, let feature) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(feature.contains("SOF type 0xc3"))
        }
    }
}
