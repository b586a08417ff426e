import CropKit
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `cropkit serve` and `cropkit sign` as a user runs them: a real server process on loopback, real HTTP.
@Suite("cropkit serve and sign, live on loopback")
struct ServeCommandTests {
    static let key = "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0"

    /// A running `cropkit serve` on a free port; stopped (SIGTERM) by ``stop()``. Its stdout and stderr are read
    /// as they come (``output``), so a test waits for what the server says, not for a time.
    final class Server {
        let process = Process()
        let port: Int
        let output = ServerOutput()

        init(root: String, arguments: [String] = [], environment: [String: String]) throws {
            process.executableURL = URL(fileURLWithPath: try #require(CLI.binary))
            process.arguments = ["serve", "--root", root, "--port", "0"] + arguments
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            try process.run()
            output.read(pipe.fileHandleForReading)
            // The first line names the bound port (or the server exits, ending its output, without one).
            let pattern = #"127\.0\.0\.1:(\d+)/img/"#
            let text = output.wait { $0.range(of: pattern, options: .regularExpression) != nil }
            let found = text.range(of: pattern, options: .regularExpression)
                .flatMap { Int(text[$0].dropFirst("127.0.0.1:".count).prefix { $0.isNumber }) }
            port = try #require(found, "the server did not say its port: \(text)")
        }

        /// Sends SIGTERM and returns the exit status.
        func stop() -> Int32 {
            process.terminate()
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    /// A process's output, read on a thread of its own until it ends; ``wait(until:)`` blocks until the text says
    /// something or the output ends, with no clock involved.
    final class ServerOutput: @unchecked Sendable {
        private let condition = NSCondition()
        private var text = ""
        private var ended = false

        /// Starts reading `handle` until its end.
        func read(_ handle: FileHandle) {
            Thread.detachNewThread { [self] in
                while true {
                    let data = handle.availableData  // blocks until bytes arrive; empty at the end
                    condition.lock()
                    if data.isEmpty { ended = true } else { text += String(decoding: data, as: UTF8.self) }
                    condition.broadcast()
                    condition.unlock()
                    if data.isEmpty { return }
                }
            }
        }

        /// The output so far, once `says` holds for it or the output has ended.
        func wait(until says: (String) -> Bool) -> String {
            condition.lock()
            defer { condition.unlock() }
            while !says(text) && !ended { condition.wait() }
            return text
        }

        /// ``wait(until:)`` without holding a thread of the caller's pool.
        func waitAsync(until says: @escaping @Sendable (String) -> Bool) async -> String {
            await withCheckedContinuation { continuation in
                Thread.detachNewThread { [self] in continuation.resume(returning: wait(until: says)) }
            }
        }
    }

    /// A temporary folder with `photos/fall.jpg` (the bundled sample, stored sideways): the folder and the photos root.
    static func photoFolder() throws -> (folder: String, root: String) {
        let folder = try CLI.temporaryDirectory()
        let root = folder + "/photos"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: CLI.samples + "/waterfall-orientation6.jpg", toPath: root + "/fall.jpg")
        return (folder, root)
    }

    /// GET `target` from the server: status and body.
    static func fetch(_ port: Int, _ target: String, accept: String? = nil) async throws -> (
        Int, Data, [AnyHashable: Any]
    ) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(target)")!)
        if let accept { request.setValue(accept, forHTTPHeaderField: "Accept") }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        return (http.statusCode, data, http.allHeaderFields)
    }

    @Test("sign, then fetch over real HTTP: the signed URL is served, the unsigned one is 403; SIGTERM exits 0")
    func signAndFetch() async throws {
        let (folder, root) = try Self.photoFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let environment = ["CROPKIT_SIGNING_KEY": Self.key]
        let sign = try CLI.run(["sign", "/img/fall.jpg?width=120&format=auto"], in: folder, environment: environment)
        #expect(sign.status == 0, "\(sign)")
        let signed = sign.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(signed.hasPrefix("/img/fall.jpg?width=120&format=auto&sig="))

        let server = try Server(root: root, environment: environment)
        let (status, body, headers) = try await Self.fetch(server.port, signed, accept: "image/webp,*/*")
        #expect(status == 200)
        #expect(try ImageFormat.detect(Array(body)) == .webp)
        let image = try Image(source: .data(Array(body)))
        // Stored 1200×1800 with EXIF orientation 6, displayed 1800×1200: 120×80 (the stored shape would give 120×180).
        #expect(image.size == PixelSize(validWidth: 120, height: 80))
        #expect((headers["Vary"] as? String) == "Accept")
        let (unsigned, _, _) = try await Self.fetch(server.port, "/img/fall.jpg?width=120")
        #expect(unsigned == 403)
        let (health, _, _) = try await Self.fetch(server.port, "/health")
        #expect(health == 200)
        #expect(server.stop() == 0)
    }

    @Test(
        "one presets file for both: the CLI's convert and placeholder give the served bytes of the same preset; marks by name"
    )
    func presetsAndMarks() async throws {
        let (folder, root) = try Self.photoFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try CLI.writePicture(folder + "/mark.png", width: 40, height: 20, alpha: true) { x, y in
            [255, 255, 255, UInt8(x * 6)]
        }
        try
            "# both faces\navatar=size=96x96&mode=fill&gravity=attention&format=webp&quality=70\ncard=aspect=4:3&width=160&format=jpeg&watermark=logo&watermark-opacity=0.6\nsigned=width=160&format=png&watermark-text=%C2%A9%20Ada&font=sans&watermark-shadow=black\n"
            .write(toFile: folder + "/presets.txt", atomically: true, encoding: .utf8)
        let server = try Server(
            root: root,
            arguments: [
                "--allow-unsigned", "--presets", folder + "/presets.txt", "--watermark", "logo=" + folder + "/mark.png",
                "--font", "sans=" + WatermarkCommandTests.fontPath,
            ],
            environment: ["CROPKIT_SIGNING_KEY": ""])
        defer { _ = server.stop() }
        for (name, ext) in [("avatar", "webp"), ("card", "jpg"), ("signed", "png")] {
            let (status, served, _) = try await Self.fetch(server.port, "/img/fall.jpg?preset=\(name)")
            #expect(status == 200)
            let run = try CLI.run(
                [
                    "convert", "photos/fall.jpg", "-o", "\(name).\(ext)", "--presets", "presets.txt", "--preset", name,
                    "--preset-watermark", "logo=mark.png", "--preset-font", "sans=" + WatermarkCommandTests.fontPath,
                ], in: folder)
            #expect(run.status == 0, "\(run)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/\(name).\(ext)")) == served, "\(name)")
            let (_, json, _) = try await Self.fetch(server.port, "/img/fall.jpg?preset=\(name)&placeholder=thumbhash")
            let line = try CLI.run(
                [
                    "placeholder", "photos/fall.jpg", "--kind", "thumbhash", "--presets", "presets.txt", "--preset",
                    name,
                    "--preset-watermark", "logo=mark.png", "--preset-font", "sans=" + WatermarkCommandTests.fontPath,
                ], in: folder)
            #expect(line.stdout == String(decoding: json, as: UTF8.self) + "\n", "\(line)")
        }
        // Without the mark's file, the CLI says which name it does not know.
        let card = try CLI.run(
            ["convert", "photos/fall.jpg", "-o", "card.jpg", "--presets", "presets.txt", "--preset", "card"], in: folder
        )
        #expect(card.status == 1 && card.stderr.contains("watermark") && card.stderr.contains("logo"), "\(card)")
        let refused = try CLI.run(
            [
                "convert", "photos/fall.jpg", "-o", "a.webp", "--presets", "presets.txt", "--preset", "avatar",
                "--quality", "50",
            ], in: folder)
        #expect(refused.status == 64, "\(refused)")
        let wrongName = try CLI.run(
            ["convert", "photos/fall.jpg", "-o", "a.jpg", "--presets", "presets.txt", "--preset", "avatar"], in: folder)
        #expect(wrongName.status != 0 && wrongName.stderr.contains(".webp"), "\(wrongName)")
        let unknown = try CLI.run(
            ["convert", "photos/fall.jpg", "-o", "a.jpg", "--presets", "presets.txt", "--preset", "nope"], in: folder)
        #expect(unknown.status == 1 && unknown.stderr.contains("nope"), "\(unknown)")
    }

    @Test(
        "--origin: a second instance fetches from the first over HTTP; a loopback origin needs --origin-allow-private")
    func origins() async throws {
        let (folder, root) = try Self.photoFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let environment = ["CROPKIT_SIGNING_KEY": Self.key]
        // The origin: an unsigned instance serving the photo at full size.
        let origin = try Server(root: root, arguments: ["--allow-unsigned"], environment: ["CROPKIT_SIGNING_KEY": ""])
        defer { _ = origin.stop() }
        let prefix = "http://127.0.0.1:\(origin.port)/img/"
        let url = (prefix + "fall.jpg").addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let sign = try CLI.run(["sign", "/fetch?url=\(url)&width=90"], in: folder, environment: environment)
        let signed = sign.stdout.trimmingCharacters(in: .whitespacesAndNewlines)

        let open = try Server(
            root: root, arguments: ["--origin", prefix, "--origin-allow-private"], environment: environment)
        let (status, body, _) = try await Self.fetch(open.port, signed)
        #expect(status == 200, "\(String(decoding: body, as: UTF8.self))")
        #expect(try Image(source: .data(Array(body))).size == PixelSize(validWidth: 90, height: 60))
        #expect(open.stop() == 0)

        let guarded = try Server(root: root, arguments: ["--origin", prefix], environment: environment)
        let (refused, message, _) = try await Self.fetch(guarded.port, signed)
        #expect(refused == 403)
        #expect(String(decoding: message, as: UTF8.self).contains("loopback"))
        #expect(guarded.stop() == 0)

        let bad = try CLI.run(
            ["serve", "--root", root, "--origin", "cdn.example.com"], in: folder, environment: environment)
        #expect(bad.status == 1 && bad.stderr.contains("cdn.example.com"), "\(bad)")
    }

    @Test(
        "SIGTERM drains: /ready turns 503 while images are still served for --drain-seconds, then the process exits 0")
    func drain() async throws {
        let (folder, root) = try Self.photoFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let line = "draining: /ready answers 503"
        // A short drain ends by itself with exit 0, having logged the moment /ready turned 503 (its output ends with
        // the process, so reading all of it cannot hang). Required: the long drain below waits for that line.
        let short = try Server(
            root: root, arguments: ["--allow-unsigned", "--drain-seconds", "0.2", "--log-level", "notice"],
            environment: [:])
        #expect(try await Self.fetch(short.port, "/img/fall.jpg?width=50").0 == 200)
        kill(short.process.processIdentifier, SIGTERM)
        short.process.waitUntilExit()
        #expect(short.process.terminationStatus == 0)
        let shortSaid = await short.output.waitAsync { _ in false }  // all of it
        try #require(shortSaid.contains(line), "\(shortSaid)")

        // No wall-clock window: a drain far longer than the test checks it, which no loaded machine outlasts; the
        // test waits for the server's line, not for a time, then kills the process.
        let server = try Server(
            root: root, arguments: ["--allow-unsigned", "--drain-seconds", "3600", "--log-level", "notice"],
            environment: [:])
        #expect(try await Self.fetch(server.port, "/ready").0 == 200)
        kill(server.process.processIdentifier, SIGTERM)
        _ = await server.output.waitAsync { $0.contains(line) }
        #expect(try await Self.fetch(server.port, "/ready").0 == 503)
        #expect(server.process.isRunning)
        #expect(try await Self.fetch(server.port, "/img/fall.jpg?width=50").0 == 200)
        kill(server.process.processIdentifier, SIGKILL)
        server.process.waitUntilExit()
    }

    @Test("without a key the service refuses to start, and says how to give one; --allow-unsigned warns loudly")
    func keyRequired() throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try CLI.run(
            ["serve", "--root", folder, "--port", "0"], in: folder, environment: ["CROPKIT_SIGNING_KEY": ""])
        #expect(run.status == 1)
        #expect(run.stderr.contains("CROPKIT_SIGNING_KEY") && run.stderr.contains("--allow-unsigned"))
        let bad = try CLI.run(["serve", "--root", folder], in: folder, environment: ["CROPKIT_SIGNING_KEY": "xyz"])
        #expect(bad.status == 1 && bad.stderr.contains("hex"), "\(bad)")
        let noRoot = try CLI.run(["serve", "--root", folder + "/none", "--allow-unsigned"], in: folder)
        #expect(noRoot.status == 1 && noRoot.stderr.contains("no such folder"), "\(noRoot)")
        // --instance names a hosted editor's instance: it needs --editor and a name of a-z and 0-9.
        for (arguments, expected) in [
            (["--instance", "a1"], "--instance needs --editor"),
            (
                ["--editor", "--instance", "A-1"],
                "--instance 'A-1' must be 1 to 32 lowercase letters a-z and digits 0-9"
            ),
        ] {
            let run = try CLI.run(["serve", "--root", folder, "--allow-unsigned"] + arguments, in: folder)
            #expect(run.status == 64 && run.stderr.contains(expected), "\(arguments): \(run)")
        }
        let unsigned = try Server(
            root: folder, arguments: ["--allow-unsigned"], environment: ["CROPKIT_SIGNING_KEY": ""])
        #expect(unsigned.stop() == 0)
        let said = unsigned.output.wait { _ in false }  // all of it: the process has exited
        #expect(said.contains("WARNING") && said.contains("--allow-unsigned"))
    }
}
