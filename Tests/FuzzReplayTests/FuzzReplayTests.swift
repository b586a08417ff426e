import Foundation
import FuzzBodies
import Testing

/// Every fuzz target's seed corpus (`Fuzz/Corpus/NAME`, crashers included) run through the target's body in the normal
/// build, so `swift test` replays in seconds what a fuzz build replays in minutes: a body traps (failing the run) on a
/// crash or a broken property. The hostile set (`Tests/Hostile/files`) goes through the decoder and pipeline targets too,
/// with the control bytes that decode it whole, strict and lenient.
@Suite struct FuzzReplayTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
        .standardized.path

    static func files(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted().map { folder + "/" + $0 }
    }

    static func run(_ target: String, _ bytes: [UInt8]) -> Int32 {
        guard let body = fuzzTargets[target] else { return -1 }
        return bytes.withUnsafeBufferPointer { buffer in
            // libFuzzer never passes a null pointer, even for an empty input.
            guard let base = buffer.baseAddress else {
                return [UInt8(0)].withUnsafeBufferPointer { body($0.baseAddress!, 0) }
            }
            return body(base, buffer.count)
        }
    }

    @Test("every target's seeds", arguments: fuzzTargets.keys.sorted())
    func seeds(_ target: String) throws {
        let seeds = Self.files(in: Self.root + "/Fuzz/Corpus/" + target)
        #expect(!seeds.isEmpty, "no seeds for \(target)")
        for path in seeds {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(Self.run(target, bytes) == 0, "\(path)")
        }
    }

    @Test("the hostile set through the decoder targets (whole, strict and lenient), FuzzFormat and FuzzPipeline")
    func hostile() throws {
        let decoders: [String: (target: String, controls: [UInt8])] = [
            "png": ("FuzzPNG", [2, 3]), "jpg": ("FuzzJPEG", [32, 35, 48]), "webp": ("FuzzWebP", [8, 12]),
            "avif": ("FuzzHEIF", [6, 7]), "heic": ("FuzzHEIF", [2, 3]), "gif": ("FuzzGIF", [8, 12]),
            "tif": ("FuzzTIFF", [8, 12]), "bmp": ("FuzzBMP", [8, 12]),
        ]
        let files = Self.files(in: Self.root + "/Tests/Hostile/files").filter { !$0.hasSuffix(".txt") }
        #expect(files.count >= 40)
        for path in files {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            let kind = try #require(decoders[(path as NSString).pathExtension], "\(path)")
            for control in kind.controls {
                #expect(Self.run(kind.target, [control] + bytes) == 0, "\(kind.target) \(control): \(path)")
            }
            #expect(Self.run("FuzzFormat", bytes) == 0, "\(path)")
            #expect(Self.run("FuzzPipeline", [0, 0] + bytes) == 0, "\(path)")
        }
    }
}
