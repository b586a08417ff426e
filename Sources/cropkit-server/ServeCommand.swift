import ArgumentParser
import CropCLI
import CropCodecs
import CropEditor
import CropKit
import CropServer
import Foundation
import Logging

/// `cropkit serve --root DIR [--host H] [--port P] …`: the image service.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve resized, cropped and straightened images from a folder at signed URLs.",
        discussion: """
            GET /img/<path>?<options>&sig=<signature> answers with the image at <path> under --root, processed by \
            the options, whose names and values are this tool's flags: rect, straighten, turn, flip, aspect, width, \
            height, size, mode, gravity, filter, linear, background, format (or auto, from Accept), quality, icc, \
            strip, metadata, recipe and preset. sig is the base64url HMAC-SHA256 of the path and query before it; \
            `cropkit sign` makes it. Keys come from CROPKIT_SIGNING_KEY (hex, comma-separated for several) or \
            --key-file (one hex key per line); the first signs, all verify. /health and /ready answer for load \
            balancers, /metrics for Prometheus. Stop with Ctrl-C or SIGTERM: /ready turns 503 (for --drain-seconds), \
            then the listener closes and in-flight requests finish before the process exits 0.

            Examples:
              export CROPKIT_SIGNING_KEY=$(openssl rand -hex 32)
              cropkit serve --root photos --port 8080 &
              url=$(cropkit sign "/img/beach.jpg?width=500&format=auto")
              curl -H "Accept: image/webp" -o beach.webp "http://127.0.0.1:8080$url"
            """)

    @Option(help: "The folder images are served from.")
    var root: String

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port = 8080

    @Option(help: ArgumentHelp("A file of hex signing keys, one per line (the first signs).", valueName: "file"))
    var keyFile: String?

    @Flag(help: "Serve unsigned URLs (development only: anyone can make the server work).")
    var allowUnsigned = false

    @Option(
        help: ArgumentHelp(
            "A file of presets, one per line: NAME=QUERY (e.g. thumb=size=300x300&mode=fill).", valueName: "file"))
    var presets: String?

    @Option(
        name: .customLong("watermark"),
        help: ArgumentHelp(
            "A mark requests may lay over the output with watermark=NAME: NAME=FILE (PNG, WebP or AVIF with alpha). Repeat for more.",
            valueName: "name=file"))
    var watermarks: [String] = []

    @Option(
        name: .customLong("font"),
        help: ArgumentHelp(
            "A font requests may draw watermark-text=TEXT in, with font=NAME: NAME=FILE (TrueType or OpenType). Repeat for more.",
            valueName: "name=file"))
    var fonts: [String] = []

    @Flag(help: "Accept only preset=NAME.")
    var onlyPresets = false

    @Option(help: "Cache-Control max-age of images, in seconds.")
    var cacheMaxAge = 86_400

    @Option(help: "The largest source file, in megabytes.")
    var maxSourceMB = 64

    @Option(help: "The largest source picture, in megapixels.")
    var maxMegapixels = 100

    @Option(
        help: "The most megapixels an animation's frames may add up to (frames × canvas); past it the answer is 413.")
    var maxAnimationMegapixels = 400

    @Option(help: "The largest output side, in pixels.")
    var maxOutputSide = 8192

    @Option(help: "The longest a request may take, in seconds (then 503).")
    var timeout = 30.0

    @Option(help: "Images processed at once (default: one per core).")
    var concurrency: Int?

    @Option(help: "Requests that may wait for a slot; more are answered 503.")
    var queue = 64

    @Option(
        help: ArgumentHelp(
            "The memory renders may hold at once, in megabytes: each request reserves its planned peak (from the header, before decoding) and waits while it does not fit (default: half of the container's or machine's memory).",
            valueName: "MB"))
    var memoryBudget: Int?

    @Option(
        help: ArgumentHelp(
            "The most memory one request may plan to hold, in megabytes; more is refused with 413 before decoding (default: the whole budget).",
            valueName: "MB"))
    var maxRequestMemory: Int?

    @Option(
        name: .customLong("origin"),
        help: ArgumentHelp(
            "An HTTP(S) URL prefix GET /fetch?url=… may fetch from (repeatable), e.g. https://images.example.com/photos/.",
            valueName: "url-prefix"))
    var origins: [String] = []

    @Flag(help: "Let origins resolve to private, loopback and link-local addresses (refused by default).")
    var originAllowPrivate = false

    @Option(help: "The longest an origin may take to deliver a source, in seconds (then 504).")
    var originTimeout = 10.0

    @Option(
        help: ArgumentHelp(
            "Shrink-on-load leaves the resampling filter at least this reduction: 1 (as imgproxy) is fastest, 2 (as libvips) a little sharper.",
            valueName: "1|2"))
    var shrinkHeadroom = 1.0

    @Flag(help: "Host the crop editor: a signed /edit/<path>?<options> URL opens it on that source (docs/embed.md).")
    var editor = false

    @OptionGroup var embedding: EmbedOriginOptions

    @Option(help: "With --editor: how many editors are kept open at once (the least recently used is closed).")
    var maxEditors = 32

    @Option(
        help: ArgumentHelp(
            "With --editor behind a load balancer: this instance's name (a-z, 0-9), which starts its editors' addresses (/editor/NAME-…/) so the balancer can route each editor to the instance that holds it (docs/deploy.md).",
            valueName: "name"))
    var instance: String?

    @Option(help: "On SIGTERM, answer /ready with 503 for this many seconds before closing the listener.")
    var drainSeconds = 0.0

    @Option(help: "Log level: trace, debug, info (one line per request, with its id), notice, warning, error.")
    var logLevel = "warning"

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port \(port) must be in 0…65535.") }
        guard maxSourceMB >= 1, maxMegapixels >= 1, maxAnimationMegapixels >= 1, maxOutputSide >= 1, cacheMaxAge >= 0,
            queue >= 0
        else {
            throw ValidationError("limits must be positive (the queue and max-age may be 0).")
        }
        guard timeout > 0, timeout.isFinite else { throw ValidationError("--timeout must be above 0.") }
        guard drainSeconds >= 0, drainSeconds.isFinite else {
            throw ValidationError("--drain-seconds must not be negative.")
        }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be trace, debug, info, notice, warning, error or critical.")
        }
        guard originTimeout > 0, originTimeout.isFinite else {
            throw ValidationError("--origin-timeout must be above 0.")
        }
        guard shrinkHeadroom >= 1, shrinkHeadroom <= 8 else {
            throw ValidationError("--shrink-headroom must be in 1…8.")
        }
        if let concurrency, concurrency < 1 { throw ValidationError("--concurrency must be at least 1.") }
        if let memoryBudget, memoryBudget < 16 { throw ValidationError("--memory-budget must be at least 16 (MB).") }
        if let maxRequestMemory, maxRequestMemory < 1 {
            throw ValidationError("--max-request-memory must be at least 1 (MB).")
        }
        if !editor, !embedding.origins.isEmpty { throw ValidationError("--embed-origin needs --editor.") }
        guard maxEditors >= 1 else { throw ValidationError("--max-editors must be at least 1.") }
        if !editor, instance != nil { throw ValidationError("--instance needs --editor.") }
        if let instance, !HostedEditors.isInstanceName(instance) {
            throw ValidationError("--instance '\(instance)' must be 1 to 32 lowercase letters a-z and digits 0-9.")
        }
    }

    func run() throws {
        let configuration: ServiceConfiguration
        do {
            configuration = try makeConfiguration()
        } catch {
            printError("cropkit serve: \(error)")
            throw ExitCode.failure
        }
        if configuration.signer == nil {
            printError(
                """
                cropkit serve: WARNING: --allow-unsigned: every URL is served without a signature. Anyone who can \
                reach this port can make the server resize anything under \(configuration.root.root). Development only.
                """)
        }
        LargeBlockRelease.enable()
        let service = ImageService(configuration: configuration)
        let host = self.host, port = self.port, root = configuration.root.root
        var logger = Logger(label: "cropkit.serve")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .warning
        let drain = Duration.nanoseconds(Int64(drainSeconds * 1e9)), log = logger
        do {
            try runBlocking {
                try await service.run(host: host, port: port, drainDelay: drain, logger: log) { boundPort in
                    let url = "http://\(host.contains(":") ? "[\(host)]" : host):\(boundPort)/img/"
                    FileHandle.standardOutput.write(Data("cropkit serve: serving \(root) at \(url)\n".utf8))
                }
            }
        } catch {
            printError("cropkit serve: the server stopped: \(error)")
            throw ExitCode.failure
        }
    }

    func makeConfiguration() throws -> ServiceConfiguration {
        let folder = try SourceFolder(root: root)
        var keysText = ProcessInfo.processInfo.environment["CROPKIT_SIGNING_KEY"] ?? ""
        if let keyFile {
            do {
                keysText += "\n" + String(decoding: try FileIO.readFile(atPath: keyFile), as: UTF8.self)
            } catch {
                throw ServiceSetupError.badKeys("cannot read \(keyFile): \(error)")
            }
        }
        var signer: URLSigner?
        if keysText.contains(where: { !$0.isWhitespace && $0 != "," }) {
            do { signer = try URLSigner(hexKeys: keysText) } catch {
                throw ServiceSetupError.badKeys(error.description)
            }
        } else if !allowUnsigned {
            throw ServiceSetupError.noSigningKey
        }
        var configuration = ServiceConfiguration(root: folder, signer: signer)
        configuration.cacheMaxAge = cacheMaxAge
        configuration.onlyPresets = onlyPresets
        configuration.maximumSourceBytes = maxSourceMB << 20
        configuration.pixelLimits = PixelLimits(
            maxPixels: maxMegapixels * 1_000_000, maxAnimationPixels: maxAnimationMegapixels * 1_000_000)
        configuration.maximumOutputSide = maxOutputSide
        configuration.processingTimeout = timeout
        configuration.queueCapacity = queue
        configuration.shrinkOnLoadHeadroom = shrinkHeadroom
        if !origins.isEmpty {
            configuration.origins = OriginFetcher(
                allowlist: try OriginAllowlist(origins),
                addressGuard: OriginAddressGuard(allowPrivate: originAllowPrivate),
                maximumBytes: configuration.maximumSourceBytes, timeout: originTimeout)
        }
        if let concurrency { configuration.concurrency = concurrency }
        if let memoryBudget { configuration.memoryBudget = memoryBudget << 20 }
        if let maxRequestMemory { configuration.memoryPerRequest = maxRequestMemory << 20 }
        if editor {
            configuration.editors = try HostedEditors(
                hostPages: try embedding.hostPages, capacity: maxEditors, instance: instance)
        }
        do {
            configuration.watermarks = try Watermark.named(watermarks, limits: configuration.pixelLimits)
            configuration.fonts = try Watermark.fonts(named: fonts)
        } catch {
            guard case .invalidRequest(let option, let reason) = error else { throw error }
            throw ServiceSetupError.badWatermark("--\(option) \(reason)")
        }
        if let presets {
            do {
                configuration.presets = try PresetFile.parse(
                    String(decoding: try FileIO.readFile(atPath: presets), as: UTF8.self))
            } catch {
                throw ServiceSetupError.badPresets("\(presets): \(error)")
            }
        }
        return configuration
    }
}
