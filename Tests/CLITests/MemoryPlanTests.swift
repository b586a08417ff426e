import CropKit
import CropTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The memory plan a service admits work by (`--memory-budget`), held against what a live `cropkit serve` process was
/// measured to hold: for each format and path, the growth of the process's peak resident memory over one request
/// (Linux: the high-water mark reset through `/proc/PID/clear_refs` before it, read from `/proc/PID/status` after it)
/// is at most the request's planned peak (`CropKit-Memory-Plan`), and the plan is not wildly above it.
@Suite("Memory plans against a live server's measured memory")
struct MemoryPlanTests {
    /// A 1200×900 photo-like picture: smooth gradients with seeded noise (so every encoder has work to do).
    static func picture(sixteenBit: Bool = false) throws -> PixelBuffer {
        let (width, height) = (1200, 900)
        var random = SplitMix64(seed: 34)
        var samples = [UInt16](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                let noise = Int(random.next() % 24)
                samples[i] = UInt16(clamping: (x * 255 / width + noise) * 257)
                samples[i + 1] = UInt16(clamping: (y * 255 / height + noise / 2) * 257)
                samples[i + 2] = UInt16(clamping: ((x + y) % 256 + noise / 3) * 257)
            }
        }
        if sixteenBit { return try PixelBuffer(width: width, height: height, layout: .rgb, samples: samples) }
        return try PixelBuffer(width: width, height: height, layout: .rgb, samples: samples.map { UInt8($0 >> 8) })
    }

    /// The sources: every format CropKit writes, and the decoders' whole-picture cases (progressive JPEG, lossless
    /// WebP, 16-bit PNG, HEIF and AVIF).
    static func writeSources(to root: String) throws -> [String] {
        let eight = try picture(), sixteen = try picture(sixteenBit: true)
        let sources: [(String, PixelBuffer, SaveOptions)] = [
            ("photo.jpg", eight, SaveOptions(format: .jpeg, quality: 90)),
            ("progressive.jpg", eight, SaveOptions(format: .jpeg, quality: 90, progressive: true)),
            ("photo.png", eight, SaveOptions(format: .png)),
            ("deep.png", sixteen, SaveOptions(format: .png)),
            ("photo.webp", eight, SaveOptions(format: .webp, quality: 80)),
            ("lossless.webp", eight, SaveOptions(format: .webp, lossless: true)),
            ("photo.avif", eight, SaveOptions(format: .avif, quality: 60)),
            ("photo.heic", eight, SaveOptions(format: .heif, quality: 60)),
        ]
        for (name, pixels, options) in sources {
            try Data(Image(pixels: pixels).encoded(options: options)).write(to: URL(fileURLWithPath: root + "/" + name))
        }
        return sources.map(\.0)
    }

    /// Each path of the pipeline, on every source: a full decode into PNG bytes, a shrink-on-load thumbnail, a
    /// straighten (the source row window), a quarter turn (the output collected and turned), a pixel step.
    static let queries = [
        "format=png", "width=256&format=jpeg", "straighten=5&format=jpeg", "turn=90&format=jpeg",
        "width=300&format=png&round",
    ]
    /// The whole-picture encoders, on one source (they hold the same whatever the source).
    static let encoderQueries = ["format=webp", "width=600&format=avif", "width=600&format=heic"]

    #if os(Linux)
        /// A field of `/proc/PID/status`, in kilobytes.
        static func status(_ pid: Int32, _ field: String) throws -> Int {
            let text = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
            let line = try #require(text.split(separator: "\n").first { $0.hasPrefix(field + ":") })
            return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
        }

        @Test(
            "Every format and path: the measured growth of the server's peak memory is at most the plan, and the plan at most 3x it plus 48 MB"
        )
        func plansHoldMeasuredPeaks() async throws {
            let (folder, root) = try ServeCommandTests.photoFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let files = try Self.writeSources(to: root)
            let server = try ServeCommandTests.Server(
                root: root, arguments: ["--allow-unsigned", "--concurrency", "1", "--memory-budget", "4096"],
                environment: [:])
            defer { _ = server.stop() }
            let pid = server.process.processIdentifier

            // Warm up: every decoder and encoder loaded once, so a library's code pages are not counted as a request's.
            for file in files {
                let (status, _, _) = try await ServeCommandTests.fetch(server.port, "/img/\(file)?width=64&format=jpeg")
                #expect(status == 200)
            }
            for query in Self.queries + Self.encoderQueries {
                _ = try await ServeCommandTests.fetch(server.port, "/img/photo.jpg?\(query)")
            }

            var checked = 0
            let requests =
                files.flatMap { file in Self.queries.map { "/img/\(file)?\($0)" } }
                + Self.encoderQueries.map { "/img/photo.jpg?\($0)" }
            for target in requests {
                try "5".write(toFile: "/proc/\(pid)/clear_refs", atomically: false, encoding: .utf8)
                let before = try Self.status(pid, "VmRSS")
                let (status, _, headers) = try await ServeCommandTests.fetch(server.port, target)
                let peak = try Self.status(pid, "VmHWM")
                #expect(status == 200, "\(target)")
                let header = headers.first { ($0.key as? String)?.lowercased() == "cropkit-memory-plan" }?.value
                let plan = try #require((header as? String).flatMap { Int($0) }, "\(target): no plan header")
                let grown = (peak - before) * 1024
                #expect(grown <= plan, "\(target): grew \(grown >> 20) MB, planned \(plan >> 20) MB")
                #expect(plan <= 3 * grown + (48 << 20), "\(target): planned \(plan >> 20) MB, grew \(grown >> 20) MB")
                checked += 1
            }
            #expect(checked == files.count * Self.queries.count + Self.encoderQueries.count)
        }
    #endif
}
