import CropInteraction
import CropKit
import Foundation

extension EditorServer {
    /// The editor server's settings. The defaults suit `cropkit edit` on a workstation. The crop session's own tunables
    /// (touch radius, handle size, history) are ``session``, a `CropSession.Configuration`.
    public struct Configuration: Sendable {
        /// The address to listen on. Default `127.0.0.1` (loopback only).
        public var host: String
        /// The port; 0 lets the system pick a free one. Default 0.
        public var port: Int
        /// The largest request body accepted, in bytes; larger requests get 413. Default 50 MB (50 × 2²⁰).
        public var maximumRequestBytes: Int
        /// The decompression-bomb guard applied to every image. Default 200 megapixels.
        public var pixelLimits: PixelLimits
        /// Renders running at once. Default: one per core.
        public var renderConcurrency: Int
        /// Renders that may wait for a slot; more get 503. Default 8.
        public var renderQueueCapacity: Int
        /// Threads one render may use (0: one per core). Default 0.
        public var renderThreads: Int
        /// How long an unused edit session lives. Default 30 minutes.
        public var sessionLifetime: Duration
        /// How many edit sessions are kept at most. Default 64.
        public var maximumSessions: Int
        /// How many pictures opened in the page (uploads) are kept at once; opening one more forgets the oldest.
        /// Default 16. An upload's size limit is ``maximumRequestBytes``.
        public var maximumUploads: Int = 16
        /// The preview's longer side at most, in pixels. Default 1600.
        public var previewMaximumSide: Int
        /// The largest WebSocket message accepted from a page, in bytes. Default 16 KiB.
        public var maximumEventBytes: Int
        /// The editor session's tunables (touch radius, handle size, tap slop, history, context margin). Its
        /// `previewSize` is replaced by the preview's actual size.
        public var session: CropSession.Configuration
        /// What the host requires of the crop and of Done's output (fixed aspect, minimum size, output size, round).
        /// Its aspect replaces ``session``'s `fixedAspect`. Default: nothing.
        public var constraints: CropConstraints
        /// The pages that may embed the editor in a frame and receive its `ready`, `change`, `done` and `cancel`
        /// messages. Default: none (no page may frame it).
        public var hostPages: HostPageOrigins = .none
        /// Makes the image URL a host page gets with `done`, from the picture's id and the finished recipe (for example
        /// a signed `cropkit serve` URL that renders it); `nil` (the default) or a `nil` answer leaves the URL out.
        public var resultURL: (@Sendable (_ imageID: String, _ recipe: Recipe) -> String?)? = nil
        /// Whether anything may be uploaded: pictures opened in the page (`POST /api/images`) and the render API
        /// (`POST /api/render`). Default true; `cropkit serve` turns it off for the editors it hosts, which edit only
        /// the picture their signed URL names.
        public var acceptsUploads = true
        /// The clock sessions age by (a test injects a manual one; the default is the continuous clock).
        package var now: @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }

        /// Creates a configuration; every argument has the default described on its property.
        public init(
            host: String = "127.0.0.1", port: Int = 0, maximumRequestBytes: Int = 50 * 1024 * 1024,
            pixelLimits: PixelLimits = .default, renderConcurrency: Int = ProcessInfo.processInfo.activeProcessorCount,
            renderQueueCapacity: Int = 8, renderThreads: Int = 0, sessionLifetime: Duration = .seconds(30 * 60),
            maximumSessions: Int = 64, previewMaximumSide: Int = 1600, maximumEventBytes: Int = 16 * 1024,
            session: CropSession.Configuration = CropSession.Configuration(), constraints: CropConstraints = .none
        ) {
            self.constraints = constraints
            self.host = host
            self.port = port
            self.maximumRequestBytes = maximumRequestBytes
            self.pixelLimits = pixelLimits
            self.renderConcurrency = renderConcurrency
            self.renderQueueCapacity = renderQueueCapacity
            self.renderThreads = renderThreads
            self.sessionLifetime = sessionLifetime
            self.maximumSessions = maximumSessions
            self.previewMaximumSide = previewMaximumSide
            self.maximumEventBytes = maximumEventBytes
            self.session = session
        }

        /// The pipeline every render (and the preview) uses: ``pixelLimits`` and ``renderThreads``.
        public var pipeline: ImagePipeline { ImagePipeline(limits: pixelLimits, maxThreads: renderThreads) }
    }
}

/// The editor server's settings under their former name.
@available(*, deprecated, renamed: "EditorServer.Configuration")
public typealias EditorConfiguration = EditorServer.Configuration
