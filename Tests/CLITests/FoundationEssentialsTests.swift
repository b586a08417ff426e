import CropCLI
import CropKit
import CropTestSupport
import Foundation
import Testing

/// The `cropkit` command links FoundationEssentials only (loading Foundation, its internationalisation and ICU cost
/// every start 3–4 ms); these check the stand-ins for what it used from Foundation against Foundation itself.
@Suite struct FoundationEssentialsTests {
    @Test("decimal(places:) writes what String(format: \"%.*f\") writes, over 6,000 seeded values")
    func decimalMatchesFormat() {
        var random = SplitMix64(seed: 42)
        var values: [Double] = [0, -0.0, 0.5, 1.5, 2.5, 0.125, 0.375, 1e-7, 123_456_789.987_654, 1e300, -1e300]
        values.append(.greatestFiniteMagnitude)
        for _ in 0..<1_000 {
            let magnitude = Double.random(in: -6...12, using: &random)
            let sign: Double = Bool.random(using: &random) ? -1 : 1
            values.append(sign * Foundation.pow(10, magnitude) * Double.random(in: 1..<10, using: &random))
            // Values on a half step of the last place, where the rounding rule shows.
            values.append(Double(Int.random(in: -100_000...100_000, using: &random)) / 8)
        }
        for value in values {
            for places in [0, 1, 2, 3, 5, 20] {
                #expect(
                    value.decimal(places: places) == String(format: "%.*f", places, value), "\(value), \(places)")
            }
        }
    }

    @Test("ImageQuery's percent-decoding agrees with removingPercentEncoding (and refuses bytes that are not UTF-8)")
    func percentDecodingMatchesFoundation() throws {
        var random = SplitMix64(seed: 7)
        // Letters, a plus, escapes of ASCII and of UTF-8 lead and continuation bytes, broken escapes.
        let pieces = [
            "a", "Z", "+", "=", "%20", "%2B", "%2b", "%C3", "%A9", "%E2%82%AC", "%F0", "%", "%4", "%G1", "é", "%00",
        ]
        var texts = ["", "%", "%%", "abc", "%C3%A9", "%C3", "caf%C3%A9", "%e2%82%ac"]
        for _ in 0..<3_000 {
            texts.append(
                (0..<Int.random(in: 1...6, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined())
        }
        for text in texts {
            let decoded = ImageQuery.percentDecoded(Substring(text))
            // Escapes that are not UTF-8: Apple's Foundation returns nil, Linux's puts U+FFFD in their place (the pieces
            // hold no U+FFFD of their own); CropKit refuses them everywhere.
            if let foundation = text.removingPercentEncoding, !foundation.contains("\u{FFFD}") {
                #expect(decoded == foundation, "\(text)")
            } else {
                #expect(decoded == nil, "\(text)")
            }
        }
        #expect(throws: CropKitError.self) { try ImageQuery.items("w=100&text=caf%C3") }
        #expect((try? ImageQuery.items("w=100&text=caf%C3%A9"))?.map(\.value) == ["100", "café"])
    }

    @Test("Paths split and join file paths as NSString does")
    func pathsMatchNSString() {
        let paths = [
            "photo.jpg", "dir/photo.JPG", "/abs/dir/photo.tar.gz", "dir/", "dir//", "/", "a/.profile", ".hidden",
            "noext", "dir.d/noext", "../up/x.png", "ünï/cödé.webp",
        ]
        for path in paths {
            let name = Paths.lastComponent(path)
            #expect(name == (path as NSString).lastPathComponent, "\(path)")
            let (stem, pathExtension) = Paths.splitExtension(name)
            #expect(stem == (name as NSString).deletingPathExtension, "\(name)")
            #expect(pathExtension == (name as NSString).pathExtension, "\(name)")
        }
        for folder in ["out", "out/", "/tmp/x", "./a/b/"] {
            #expect(Paths.joined(folder, "a.jpg") == (folder as NSString).appendingPathComponent("a.jpg"), "\(folder)")
        }
    }

    @Test("a folder that cannot be made is an error naming it and the system's reason")
    func createFolderReason() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir + "/file"))
        #expect(throws: Never.self) { try Console.createFolder(dir + "/a/b") }
        #expect(FileManager.default.fileExists(atPath: dir + "/a/b"))
        let error = #expect(throws: CommandError.self) { try Console.createFolder(dir + "/file/sub") }
        #expect(error?.description == "cannot create the folder \(dir)/file/sub: Not a directory")
    }

    #if os(Linux)
        @Test("cropkit starts without loading Foundation, its internationalisation or ICU (glibc's loader log)")
        func noFoundationAtStart() throws {
            let dir = try CLI.temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: dir) }
            let run = try CLI.run(["--version"], in: dir, environment: ["LD_DEBUG": "libs"])
            #expect(run.status == 0, "\(run)")
            // glibc's loader logs every library it looks for (so the test sees the log before trusting an absence).
            let opened = run.stderr + run.stdout
            try #require(opened.contains("find library=libc.so"), "\(run)")
            for library in ["libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so"] {
                #expect(!opened.contains(library), "cropkit loads \(library)")
            }
        }
    #endif
}
