import CropPixels
import Foundation
import Testing

@testable import CropCodecs

/// A progressive JPEG's scans read on two threads (``JPEGParallelScans``): the pixels, warnings and errors must be
/// exactly those of one thread reading every scan, on any file, damaged ones included.
@Suite("Progressive JPEG scans on two threads")
struct ParallelScansTests {
    /// What one decode gave: the pixels and how many warnings, or the error.
    enum Outcome: Equatable {
        case decoded(PixelBuffer, warnings: Int)
        case failed(String)
    }

    static func decode(
        _ input: DecoderInput, _ mode: JPEGParallelScans, scale: JPEGScale = .full, strict: Bool = false
    ) -> (Outcome, scansInParallel: Int) {
        var options = DecodeOptions(strict: strict, jpegScale: scale, jpegEarlyStop: .off)
        options.jpegParallelScans = mode
        do {
            let decoder = try JPEGDecoder(input: input, options: options)
            do {
                let pixels = try decoder.decodeAll()
                return (.decoded(pixels, warnings: decoder.warnings.count), decoder.scansReadInParallel)
            } catch {
                return (.failed("\(error)"), decoder.scansReadInParallel)
            }
        } catch {
            return (.failed("\(error)"), 0)
        }
    }

    static func decode(_ data: [UInt8], _ mode: JPEGParallelScans, scale: JPEGScale = .full, strict: Bool = false)
        -> (Outcome, scansInParallel: Int)
    {
        decode(.memory(InputBytes(data)), mode, scale: scale, strict: strict)
    }

    /// The scans (SOS markers) of a well-formed file, counted as the fixture script's comments do.
    static func scanCount(_ data: [UInt8]) -> Int {
        var count = 0
        var i = 2
        while i + 4 <= data.count, data[i] == 0xFF {
            let marker = data[i + 1]
            if marker == 0xD9 { break }
            let length = Int(data[i + 2]) << 8 | Int(data[i + 3])
            i += 2 + length
            guard marker == 0xDA else { continue }
            count += 1
            while i + 1 < data.count, !(data[i] == 0xFF && data[i + 1] != 0 && !(0xD0...0xD7).contains(data[i + 1])) {
                i += 1
            }
        }
        return count
    }

    @Test(
        "files with the scan scripts cameras, mozjpeg and libjpeg write (restart markers, refinements, a COM between scans) decode byte-identically on two threads at every scale",
        arguments: ["photo-script", "bands", "refine", "restart-444", "default-com"])
    func scripts(_ name: String) throws {
        let data = try Fixtures.bytes("scans/\(name).jpg")
        let scans = Self.scanCount(data)
        for scale in [JPEGScale.full, .half, .quarter, .eighth] {
            let (serial, serialHelper) = Self.decode(data, .off, scale: scale)
            let (parallel, helper) = Self.decode(data, .always, scale: scale)
            #expect(serialHelper == 0)
            #expect(helper > 0 && helper < scans, "\(name) at 1/\(scale.denominator): \(helper) of \(scans) scans")
            guard case .decoded(let pixels, let warnings) = parallel else {
                Issue.record("\(name): \(parallel)")
                continue
            }
            #expect(pixels.width == (320 + scale.denominator - 1) / scale.denominator)
            #expect(pixels.height == (213 + scale.denominator - 1) / scale.denominator)
            #expect(warnings == 0)
            #expect(parallel == serial, "\(name) at 1/\(scale.denominator)")
        }
    }

    @Test(
        "the camera photo's script splits by component: the decoder keeps the 3 DC scans and the chroma's 8 AC scans, the second thread reads the luma's 2"
    )
    func photoScriptPlan() throws {
        let data = try Fixtures.bytes("scans/photo-script.jpg")
        let plan = try #require(data.withUnsafeBufferPointer { JPEGDecoder.parallelScanPlan($0) })
        #expect(plan.decoder == 11 && plan.helper == 2)
        // Cut short anywhere, the file no longer qualifies: its last scans (or its EOI) are missing.
        for cut in stride(from: 2, to: data.count, by: 997) {
            let head = Array(data[..<cut])
            #expect(head.withUnsafeBufferPointer { JPEGDecoder.parallelScanPlan($0) } == nil, "cut at \(cut)")
        }
    }

    @Test(
        "a progression that never completes (libjpeg smooths it) and small files in automatic mode stay on one thread")
    func staysSerial() throws {
        let incomplete = try Fixtures.bytes("scans/incomplete.jpg")
        let (serial, _) = Self.decode(incomplete, .off)
        let (parallel, helper) = Self.decode(incomplete, .always)
        #expect(helper == 0)
        #expect(parallel == serial)
        for name in ["scans/photo-script.jpg", "progressive/p420.jpg", "progressive/gray.jpg"] {
            let (automatic, automaticHelper) = Self.decode(try Fixtures.bytes(name), .automatic)
            #expect(automaticHelper == 0, "\(name): under 64 KiB of scans for a second thread")
            #expect(automatic == Self.decode(try Fixtures.bytes(name), .off).0)
        }
        let baseline = try Fixtures.bytes("sequential/r420.jpg")
        #expect(Self.decode(baseline, .always).scansInParallel == 0)
    }

    @Test("a file read from disk, a chunk at a time, is read whole for the split and gives the same pixels")
    func fromFile() throws {
        let path = Fixtures.path("scans/photo-script.jpg")
        let (serial, _) = Self.decode(try Fixtures.bytes("scans/photo-script.jpg"), .off)
        let (parallel, helper) = Self.decode(.file(try InputFile(path: path)), .always)
        #expect(helper > 0)
        #expect(parallel == serial)
    }

    @Test(
        "rows read while the second thread may still be reading are final, and a decode abandoned after a few rows finishes cleanly"
    )
    func partialReads() throws {
        let data = try Fixtures.bytes("scans/refine.jpg")
        guard case .decoded(let whole, _) = Self.decode(data, .off).0 else {
            Issue.record("refine.jpg does not decode")
            return
        }
        var options = DecodeOptions(jpegEarlyStop: .off)
        options.jpegParallelScans = .always
        for rows in [1, 8, 16, 100, 213] {
            let decoder = try JPEGDecoder(data: data, options: options)
            var band = try PixelBuffer(width: 320, height: rows, format: decoder.outputFormat)
            var read = 0
            while read < rows {
                read += try decoder.readRows(into: &band, startRow: read, maxRows: rows - read)
            }
            #expect(decoder.scansReadInParallel > 0)
            #expect(band == (try whole.cropped(x: 0, y: 0, width: 320, height: rows)), "\(rows) rows")
            try decoder.finish()
            #expect(decoder.warnings.isEmpty)
        }
    }

    @Test(
        "120 seeded random progressive files (sizes, qualities, subsamplings, gray, restart intervals) decode byte-identically on two threads"
    )
    func randomFiles() throws {
        var split = 0
        let files = try TestImages.randomJPEGs(120, seed: 2026_11_28, maxWidth: 260, maxHeight: 180, progressive: true)
        for (index, (data, _, _, description)) in files.enumerated() {
            let scale = [JPEGScale.full, .half, .quarter][index % 3]
            let (serial, _) = Self.decode(data, .off, scale: scale)
            let (parallel, helper) = Self.decode(data, .always, scale: scale)
            if helper > 0 { split += 1 }
            #expect(parallel == serial, "file \(index): \(description)")
            guard case .decoded = parallel else {
                Issue.record("file \(index) failed: \(parallel)")
                continue
            }
        }
        #expect(split == 120, "every file of libjpeg's script has scans for a second thread")
    }

    @Test(
        "400 seeded damaged files (bytes flipped in the scans, cut short, markers broken) give the same pixels and warnings, or both fail"
    )
    func damagedFiles() throws {
        let sources = try ["photo-script", "bands", "refine", "restart-444"].map {
            try Fixtures.bytes("scans/\($0).jpg")
        }
        var rng = SplitMix64(seed: 4242)
        var split = 0, failed = 0
        for index in 0..<400 {
            var data = sources[index % sources.count]
            let firstScan = Self.firstScanData(data)
            switch rng.next() % 4 {
            case 0:
                data.removeLast(Int(rng.next() % UInt64(data.count - firstScan)))
            case 1:
                let at = firstScan + Int(rng.next() % UInt64(data.count - firstScan))
                data[at] = 0xFF
                data.insert(UInt8(truncatingIfNeeded: rng.next()), at: at + 1)
            default:
                for _ in 0..<(1 + rng.next() % 4) {
                    let at = firstScan + Int(rng.next() % UInt64(data.count - firstScan - 2))
                    data[at] ^= UInt8(1 << (rng.next() % 8))
                }
            }
            let strict = rng.next() % 4 == 0
            let (serial, _) = Self.decode(data, .off, strict: strict)
            let (parallel, helper) = Self.decode(data, .always, strict: strict)
            if helper > 0 { split += 1 }
            switch (serial, parallel) {
            case (.decoded, .decoded):
                #expect(parallel == serial, "file \(index)")
            case (.failed, .failed):
                failed += 1
                // Both fail; in strict mode each thread stops at the first damage in its own scans, so the
                // message may name another scan's damage.
                if !strict { #expect(parallel == serial, "file \(index)") }
            default:
                Issue.record("file \(index): one thread \(serial), two threads \(parallel)")
            }
        }
        #expect(split > 150, "most damage inside scans leaves the file splittable: \(split) of 400")
        #expect(failed > 20 && failed < 380)
    }

    /// Where the first scan's entropy-coded data starts.
    static func firstScanData(_ data: [UInt8]) -> Int {
        var i = 2
        while i + 4 <= data.count {
            let length = Int(data[i + 2]) << 8 | Int(data[i + 3])
            if data[i + 1] == 0xDA { return i + 2 + length }
            i += 2 + length
        }
        return data.count
    }
}
