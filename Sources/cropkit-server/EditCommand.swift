import ArgumentParser
import CropCLI
import CropCodecs
import CropEditor
import CropKit
import Dispatch
import Foundation

/// `cropkit edit [IMAGE… | DIR] [--port P] [--host H] [--open] [--recipe FILE | --aspect W:H --gravity G --straighten auto]`:
/// the browser crop editor on a local web server, on one picture or a folder of photos, starting from the untouched
/// picture, a saved crop, a recipe or a proposal.
struct EditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Crop, straighten, turn and flip pictures in the browser: one, a list, or a whole folder.",
        discussion: """
            Starts a web server on the loopback interface and prints its URL; open it in a browser (or pass --open). \
            The page draws the picture under a crop box; every gesture goes to CropKit's crop engine over a \
            WebSocket. Done renders the crop at full source resolution and offers it for download. Without IMAGE \
            the bundled sample photo is edited. The same server answers POST /api/render for apps. Stop it with \
            Ctrl-C.

            Given a folder (its photos, by name) or several files, the page shows a strip of thumbnails with \
            Previous and Next (keys , and .). Each photo's crop is saved as it changes, beside the photo, as \
            NAME.cropkit.json (the photo itself is never written), and reopening restores every crop. Copy to \
            next and Copy to all give other photos the same aspect, straighten, turns and relative placement. \
            Export all renders every photo with a saved crop into --export-dir (default: cropkit-export beside \
            the photos), several at once, and names each failure. The same is true of a single IMAGE, except the \
            bundled sample: its crop is saved beside it.

            The editor starts from the untouched picture, from a saved crop (--recipe), or from a crop CropKit \
            proposes: --aspect W:H with --gravity attention|entropy|face|top… or --focus X,Y places the crop as \
            `cropkit crop` would, and --straighten auto levels the picture when it is sure. The page draws the \
            proposal, says what it is, and the person moves it from there.

            A host can require things of the crop: --lock-aspect keeps the --aspect W:H ratio (the page cannot \
            change it), --min-size keeps every side of the crop at least that many source pixels, --output-size \
            makes Done render exactly W×H (and locks the aspect to W:H), and --round draws a circle and makes \
            Done's output round (PNG with transparent corners, unless another format with alpha is chosen).

            Examples:
              cropkit edit photo.jpg --open
              cropkit edit shoot/ --aspect 4:5 --gravity attention --export-dir shoot/4x5
              cropkit edit photo.jpg --aspect 1:1 --gravity attention --straighten auto
              cropkit edit portrait.jpg --aspect 1:1 --gravity face --round
              cropkit crop sea.jpg -o level.jpg --straighten auto --save-recipe level.json
              cropkit edit sea.jpg --recipe level.json
              cropkit edit avatar.jpg --output-size 256x256 --round --min-size 128
              cropkit edit --port 8080
            """)

    @Argument(
        help: ArgumentHelp(
            "The pictures to edit: files, or one folder of photos (default: a bundled sample photo).",
            valueName: "image|folder"))
    var images: [String] = []

    @Option(
        help: ArgumentHelp("Where Export all writes (default: cropkit-export beside the photos).", valueName: "dir"))
    var exportDir: String?

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port = 0

    @Option(help: "The address to listen on. Anything but loopback exposes the editor to the network.")
    var host = "127.0.0.1"

    @Flag(help: "Open the editor in the default browser.")
    var open = false

    @Option(help: "The largest render request body accepted, in megabytes.")
    var maxRequestMB = 50

    @Option(help: "The largest picture accepted, in megapixels.")
    var maxMegapixels = 200

    @Option(help: "Renders running at once (default: one per core).")
    var renderConcurrency: Int?

    @Option(help: "Render requests that may wait for a slot; more are answered 503.")
    var renderQueue = 8

    @Option(help: ArgumentHelp("Start from this saved crop recipe (JSON).", valueName: "file"))
    var recipe: String?

    @Option(help: "Start from the largest crop of this aspect (W:H), placed by --gravity or --focus.")
    var aspect: AspectArgument?

    @OptionGroup var placement: GravityOptions

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Start straightened: degrees counter-clockwise, −45…45, or auto.", valueName: "degrees|auto")
    )
    var straighten: StraightenArgument?

    @Flag(help: "Keep --aspect W:H: the page cannot change the ratio.")
    var lockAspect = false

    @Option(help: ArgumentHelp("The smallest side the crop may have, in source pixels.", valueName: "pixels"))
    var minSize: Int?

    @Option(help: ArgumentHelp("Done renders exactly this size (and the aspect is locked to W:H).", valueName: "WxH"))
    var outputSize: SizeArgument?

    @Flag(help: "A round output: the page draws a circle; Done makes the outside transparent.")
    var round = false

    @OptionGroup var embedding: EmbedOriginOptions

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port \(port) must be in 0…65535.") }
        guard maxRequestMB >= 1 else { throw ValidationError("--max-request-mb must be at least 1.") }
        guard maxMegapixels >= 1 else { throw ValidationError("--max-megapixels must be at least 1.") }
        if let renderConcurrency, renderConcurrency < 1 {
            throw ValidationError("--render-concurrency must be at least 1.")
        }
        guard renderQueue >= 0 else { throw ValidationError("--render-queue must not be negative.") }
        if recipe != nil, aspect != nil || straighten != nil || placement.focus != nil || placement.gravity != nil {
            throw ValidationError("--recipe says the whole crop; give it or --aspect/--gravity/--focus/--straighten.")
        }
        if let minSize, minSize < 1 { throw ValidationError("--min-size must be at least 1 pixel.") }
        if lockAspect {
            guard case .ratio = aspect?.lock else {
                throw ValidationError("--lock-aspect locks an --aspect W:H; give one.")
            }
        }
        if let outputSize, case .ratio(let ratio) = aspect?.lock, ratio != AspectRatio(of: outputSize.size) {
            throw ValidationError("--aspect \(ratio) is not the ratio of --output-size \(outputSize).")
        }
        if placement.focus != nil || placement.gravity != nil {
            guard case .ratio = aspect?.lock else {
                throw ValidationError("--gravity and --focus place an --aspect W:H crop; give --aspect W:H.")
            }
        }
    }

    /// What the host requires: the locked aspect, the minimum size, the output size, roundness.
    var constraints: CropConstraints {
        get throws {
            var locked: AspectRatio?
            if lockAspect, case .ratio(let ratio) = aspect?.lock { locked = ratio }
            return try CropConstraints(
                aspect: locked, minimumCropSize: Double(minSize ?? 1), outputSize: outputSize?.size, isRound: round)
        }
    }

    /// The proposal's steps: the aspect crop, placed by the gravity, then the straighten.
    var startOperations: [ImageOperation] {
        var steps: [ImageOperation] = []
        if case .ratio(let ratio) = aspect?.lock {
            steps.append(.aspectCrop(ratio, gravity: placement.resolved))
        } else if let aspect {
            steps.append(.aspect(aspect.lock))
        }
        if let straighten { steps.append(straighten.step) }
        return steps
    }

    /// Where sessions on a single picture start: the recipe, the proposal, or (`nil`) the untouched picture (or
    /// its saved crop).
    private func start(bytes: [UInt8], steps: [ImageOperation], pipeline: ImagePipeline) throws -> EditorStart? {
        if let recipe, case .recipe(let loaded)? = steps.first {
            // Checked now, so a recipe that cannot apply fails here rather than in the page.
            _ = try pipeline.cropState(.data(bytes), [.recipe(loaded)])
            return EditorStart(recipe: loaded, notice: "Started from \((recipe as NSString).lastPathComponent)")
        }
        return steps.isEmpty ? nil : try EditorStart.proposed(for: .data(bytes), steps, pipeline: pipeline)
    }

    func run() throws {
        var configuration = EditorServer.Configuration(
            host: host, port: port, maximumRequestBytes: maxRequestMB * 1024 * 1024,
            pixelLimits: PixelLimits(maxPixels: maxMegapixels * 1_000_000), renderQueueCapacity: renderQueue)
        if let renderConcurrency { configuration.renderConcurrency = renderConcurrency }
        configuration.constraints = try constraints
        configuration.hostPages = try embedding.hostPages
        let pipeline = configuration.pipeline, side = configuration.previewMaximumSide
        let library: EditorLibrary
        var start: EditorStart?
        var first: EditedImage?
        let headline: String
        do {
            // The recipe file is read once, here: it is every photo's start (and a single picture's).
            let steps = try recipeSteps()
            let files = try photoFiles()
            if let files {
                // A folder or a list: every photo without a saved crop starts from the flags' steps.
                library = EditorLibrary(
                    files: files, pipeline: pipeline, previewMaximumSide: side,
                    maximumUploads: configuration.maximumUploads, start: steps)
                headline = files.count == 1 ? "" : "\(files.count) photos"
            } else {
                let path = try Samples.directory() + "/" + Samples.photo
                library = EditorLibrary(
                    [
                        try EditedImage(
                            name: Samples.photo, bytes: try ImageSource.file(path).bytes(), pipeline: pipeline,
                            previewMaximumSide: side)
                    ], maximumUploads: configuration.maximumUploads)
                headline = ""
            }
            if library.ids.count == 1 {
                // One picture: read now, so an unreadable file fails here; the flags say where it starts.
                let image = try runBlockingValue { try await library.image(library.firstID) }
                first = image
                start = try self.start(bytes: image.bytes, steps: steps, pipeline: pipeline)
            }
        } catch {
            reportFailure(
                "cannot edit \(images.isEmpty ? "the sample" : images.joined(separator: " ")): \(describe(error))")
            throw ExitCode.failure
        }
        let page: EditorPage
        do { page = try EditorPage() } catch {
            reportFailure("\(error)")
            throw ExitCode.failure
        }
        let server = EditorServer(
            library: library, configuration: configuration, page: page, start: start,
            exportFolder: exportDir)
        let host = self.host, open = self.open, notice = start?.notice
        let what = first.map { "\($0.name) (\($0.info.displayedSize))" } ?? headline
        let saving =
            library.savesCrops
            ? "Crops are saved beside each photo as NAME\(RecipeSidecar.suffix)"
                + (server.export.map { "; Export all writes to \($0.folder)" } ?? "") + ".\n"
            : ""
        stopWithin(seconds: 1.9, saving: server)
        do {
            try runBlocking {
                try await server.run { boundPort in
                    let url = "http://\(host.contains(":") ? "[\(host)]" : host):\(boundPort)/"
                    // Written unbuffered: scripts wait for this line to learn the port.
                    FileHandle.standardOutput.write(
                        Data(
                            """
                            cropkit edit: editing \(what) at \(url)
                            \(notice.map { $0 + "\n" } ?? "")\(saving)Press Ctrl-C to stop.

                            """.utf8))
                    if open { openInBrowser(url) }
                }
            }
        } catch {
            reportFailure("the server stopped: \(error)")
            throw ExitCode.failure
        }
    }

    /// The photos named on the command line: one folder's photos (``PhotoFolder``), or the files as given;
    /// `nil` for the bundled sample.
    private func photoFiles() throws -> [String]? {
        guard !images.isEmpty else { return nil }
        var isDirectory: ObjCBool = false
        if images.count == 1, FileManager.default.fileExists(atPath: images[0], isDirectory: &isDirectory),
            isDirectory.boolValue
        {
            let photos = try PhotoFolder.photos(in: images[0])
            guard !photos.isEmpty else {
                throw CommandError(
                    "\(images[0]) holds no photos (JPEG, PNG, WebP, HEIF, AVIF, GIF, TIFF, BMP, JPEG XL or JPEG 2000 files)"
                )
            }
            return photos
        }
        for path in images {
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                throw CommandError("\(path) is a folder: give one folder, or files")
            }
            guard FileManager.default.fileExists(atPath: path) else { throw CommandError("\(path): no such file") }
        }
        return images
    }

    /// The steps every photo of a folder or list starts from: the recipe, or the proposal's steps.
    private func recipeSteps() throws -> [ImageOperation] {
        guard let recipe else { return startOperations }
        return [.recipe(try loadRecipe(recipe))]
    }

    private func loadRecipe(_ path: String) throws -> Recipe {
        do { return try Recipe(json: Data(try FileIO.readFile(atPath: path))) } catch {
            throw CommandError("\(path): \(describe(error))")
        }
    }

}
