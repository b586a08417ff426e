import CropKit
import Foundation

/// How `cropkit serve` runs: where images come from, who may ask, and the limits that keep it up under load.
public struct ServiceConfiguration: Sendable {
    /// The source folder.
    public var root: SourceFolder
    /// The URL signer, or `nil` to serve unsigned URLs (development only).
    public var signer: URLSigner?
    /// `Cache-Control: public, max-age=…` of images, in seconds. Default one day.
    public var cacheMaxAge: Int = 86_400
    /// Named option sets (`preset=name`), each a query string such as `size=300x300&mode=fill`.
    public var presets: [String: String] = [:]
    /// The marks `watermark=NAME` lays over an output, named by the operator at start (`--watermark NAME=FILE`);
    /// a request can only name one of these, never give a URL.
    public var watermarks: [String: Watermark] = [:]
    /// The fonts `watermark-text=…&font=NAME` draws in, named by the operator at start (`--font NAME=FILE`).
    public var fonts: [String: FontFace] = [:]
    /// Accept only `preset=…` (and `sig`).
    public var onlyPresets = false
    /// The largest source file served, in bytes. Default 64 MB.
    public var maximumSourceBytes = 64 << 20
    /// The largest source picture, in pixels (checked from the header, before decoding), and the most pixels an
    /// animation's frames may add up to (frames × canvas). Default 100 megapixels and 400 megapixels (a 120-frame
    /// 720p clip is 111).
    public var pixelLimits = PixelLimits(maxPixels: 100_000_000, maxAnimationPixels: 400_000_000)
    /// The largest output side: larger `width`, `height` or `size` values are refused, and an output without a size
    /// is fitted within it. Default 8192.
    public var maximumOutputSide = 8192
    /// The longest a request may be processed, in seconds, before it gets 503. Default 30.
    public var processingTimeout: Double = 30
    /// Images processed at once. Default: the number of cores.
    public var concurrency = ProcessInfo.processInfo.activeProcessorCount
    /// Requests that may wait for a slot; one more gets 503 with `Retry-After`. Default 64.
    public var queueCapacity = 64
    /// The memory renders may hold at once, in bytes: each request reserves the peak its memory plan gives (from the
    /// source's header, before anything is decoded) and waits while it does not fit. Default: half of what this process
    /// may use (``MachineMemory/available``: the container's memory limit, else the machine's memory).
    public var memoryBudget = MachineMemory.available / 2
    /// The most memory one request may plan to hold, in bytes; a request planning more gets 413 before it decodes
    /// anything. `nil` (the default): the whole ``memoryBudget``.
    public var memoryPerRequest: Int?
    /// The hosted crop editors (`GET /edit/<path>?…&sig=…`), or `nil` (the default) for none.
    public var editors: HostedEditors?
    /// HTTP(S) origins for `GET /fetch?url=…`, or `nil` (the default) to serve the root folder only.
    public var origins: OriginFetcher?
    /// The reduction shrink-on-load leaves to the resampling filter (`ImagePipeline.shrinkOnLoadHeadroom` in CropKit).
    /// Default 1, as imgproxy: decode at the smallest scale that still covers the output. 2 is libvips' choice,
    /// a little sharper and up to 2× slower on large photos.
    public var shrinkOnLoadHeadroom = ImageQuery.serviceShrinkOnLoadHeadroom

    /// A configuration serving `root`, signed with `signer` (or unsigned when `nil`), with the defaults above.
    public init(root: SourceFolder, signer: URLSigner?) {
        self.root = root
        self.signer = signer
    }
}
