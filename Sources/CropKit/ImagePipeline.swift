import CropAnalysis
import CropEngine
import CropPixels

/// CropKit's one verb: a source, an ordered list of ``ImageOperation``s, and a sink — evaluated with one decode, one
/// resampling pass and one encode.
///
/// ```swift
/// let pipeline = ImagePipeline()
/// // A 256 px square thumbnail, written atomically.
/// try pipeline.run(.file("photo.jpg"), [.thumbnail(ThumbnailRequest(side: 256))], to: .file("thumb.jpg"))
/// // A crop, straightened, at most 1024 px, as PNG bytes in memory.
/// let png = try pipeline.run(.file("photo.jpg"),
///                            [.crop(Rect(x: 100, y: 80, width: 1600, height: 1200)), .straighten(4),
///                             .fit(within: PixelSize(validWidth: 1024, height: 1024))],
///                            to: .data(SaveOptions(format: .png)))
/// ```
///
/// Every run:
/// - reads the header first and fails before decoding when the chain, the output or the pixel limit is wrong;
/// - applies the EXIF orientation exactly once (coordinates and sizes are those of the picture as it is shown, so a
///   portrait phone photo stored sideways behaves as it looks);
/// - folds the geometric steps into one `CropState` and its render plan, so crop, aspect, turns, flips, straighten
///   and scale are one resampling pass;
/// - decodes a JPEG at 1/2, 1/4 or 1/8 scale when that still leaves the final filter at least a 2× reduction (as
///   libvips does), so a thumbnail of a 24-megapixel photo never decodes 24 megapixels;
/// - streams rows from the decoder through the resampler to the encoder where the geometry allows, so peak memory
///   stays near the decoder's own needs rather than "decoded image + output";
/// - writes atomically, keeping the ICC profile and the EXIF block (orientation reset to 1) unless stripped.
///
/// `ImagePipeline` is a value with no shared state: use one from many threads at once.
public struct ImagePipeline: Sendable {
    /// The decompression-bomb guard, checked against each header before anything large is allocated.
    public var limits: PixelLimits
    /// Treat the codec's corrupt-data warnings as errors.
    public var strict: Bool
    /// Decode JPEGs, WebPs, HEIFs and AVIFs at a reduced scale when the output is small enough (default on); see
    /// ``shrinkOnLoadHeadroom``.
    public var shrinkOnLoad: Bool
    /// The reduction shrink-on-load leaves to the final resampling filter: it picks the largest of 1/8, 1/4, 1/2 by
    /// which the output is still at least this many times smaller.
    ///
    /// - `2` (the default, as libvips' `thumbnail`): the filter always reduces by about 2× or more (a reduction 5%
    ///   short still counts: a 4000×4000 square to 256 px decodes at 1/8, leaving 1.95×), so the result is within about
    ///   1/255 on average of a full decode.
    /// - `1` (as imgproxy and Pillow's `draft`): decode to the smallest scale that still covers the output. Faster
    ///   (a 12-megapixel JPEG fitted in 500 pixels decodes at 1/8 rather than 1/4), a little softer.
    ///
    /// Values below 1 are treated as 1.
    public var shrinkOnLoadHeadroom: Double
    /// At 1/8 scale, stop reading a progressive JPEG once every DC coefficient is known, and skip every AC
    /// coefficient of a sequential one, chroma included.
    ///
    /// Only used when the picture is decoded at 1/8 (``shrinkOnLoadHeadroom``); then the one approximation (4:2:0
    /// chroma rebuilt from DC alone) is below what the output can show.
    /// It skips most of a progressive file: thumbnails of progressive photos decode several times faster. A
    /// sequential file is read whole either way, by an entropy decoder that walks past the AC coefficients the
    /// output never reads (about twice as fast as libjpeg's); this setting adds the 4:2:0 chroma's. Default on.
    public var fastThumbnailDecode: Bool
    /// The most threads one run uses; 0 for one per core. With 1, a progressive JPEG's scans are all read by one
    /// thread (otherwise a second thread reads some of them), a re-encode encodes on the decoding thread, and a JPEG
    /// output is encoded by one thread (otherwise a large one is encoded in stripes on two).
    public var maxThreads: Int
    /// What finds the faces a `Gravity.face` step keeps whole (a `HOGFaceDetector` finding faces
    /// from 6% of the short side by default; its `smallestFace` trades time for smaller faces).
    public var faceDetector: any FaceDetecting = HOGFaceDetector()
    /// Read JPEGs with libjpeg's own Huffman decoders instead of CropKit's (sequential files, and progressive files'
    /// DC-first and AC scans: the same pixels, slower); for benchmarks and comparisons.
    package var libjpegEntropy = false
    /// Render the finished output at most this many pixels on its longer side, scaled down whole (a placeholder's
    /// copy); the report's ``RenderReport/unreducedSize`` keeps the size it stands for. `nil`: the output's own size.
    package var outputSideLimit: Int?

    /// Creates a pipeline; every argument has the default described on its property.
    public init(
        limits: PixelLimits = .default, strict: Bool = false, shrinkOnLoad: Bool = true,
        shrinkOnLoadHeadroom: Double = 2, fastThumbnailDecode: Bool = true, maxThreads: Int = 0
    ) {
        self.limits = limits
        self.strict = strict
        self.shrinkOnLoad = shrinkOnLoad
        self.shrinkOnLoadHeadroom = shrinkOnLoadHeadroom
        self.fastThumbnailDecode = fastThumbnailDecode
        self.maxThreads = maxThreads
    }

    // MARK: The verb

    /// Runs `operations` on `source` and delivers the result to `sink`: pixels (``ImageSink/image``), bytes
    /// (``ImageSink/data(_:)``) or a file (``ImageSink/file(_:options:)``).
    ///
    /// - Throws: ``CropKitError`` naming the problem: a step out of order or with a bad value
    ///   (``CropKitError/invalidRequest(name:reason:)``), an unreadable or corrupt source, a pixel limit, an output
    ///   that exists. Nothing is written on failure.
    @discardableResult
    public func run<Output: Sendable>(
        _ source: ImageSource, _ operations: [ImageOperation] = [], to sink: ImageSink<Output>
    ) throws(CropKitError) -> Output {
        try PipelinePlan.validate(operations)
        try sink.checkWritable()
        var opened = try open(source)
        let (straightened, estimate, warning) = try resolveAutoStraighten(source, opened, operations)
        var measuring = self
        if try animationFormat(opened, sink) != nil, straightened.contains(where: \.placesBySmartGravity) {
            // One window for the whole animation: the one holding the most interest over all its frames.
            opened.predecoded = PredecodedPicture(
                scale: 1, pixels: try meanFrame(opened), info: Self.frameInfo(opened.info), metadata: .none,
                warnings: [])
            measuring.shrinkOnLoad = false
        }
        let placement = try measuring.resolvePlacement(source, opened, straightened)
        var operations = placement.operations
        var faces = placement.proposal?.faces
        if let gravity = operations.lazy.compactMap(\.smartGravity).first {
            (operations, opened, _, _, faces) = try measuring.resolveSmartGravity(source, opened, operations, gravity)
        }
        var plan = try PipelinePlan(
            operations, storedSize: opened.storedSize, orientation: opened.info.orientation, maxThreads: maxThreads)
        plan.autoStraighten = estimate
        if let warning { plan.warnings.append(warning) }
        plan.faces = faces
        if let outputSideLimit { plan.reduce(toSide: outputSideLimit) }
        if faces?.placedBy == .attention { plan.warnings.append(.noFaceFound) }
        if let format = try animationFormat(opened, sink) {
            return try runAnimation(source, opened, plan: plan, format: format, sink: sink)
        }
        if let dropped = try droppedFramesWarning(opened, sink) { plan.warnings.append(dropped) }
        if let uprightRect = plan.geometry.uprightRect {
            return try runAxisAligned(opened, plan: plan, uprightRect: uprightRect, sink: sink)
        }
        return try runAffine(opened, plan: plan, sink: sink)
    }

    /// Runs `operations` on `source` and returns the pixels; see ``run(_:_:to:)``.
    public func run(_ source: ImageSource, _ operations: [ImageOperation] = []) throws(CropKitError) -> RenderedImage {
        try run(source, operations, to: .image)
    }

    /// The crop state the geometric steps of `operations` fold into for `source`, from its header alone (nothing
    /// is decoded, except a small copy to measure an ``ImageOperation/autoStraighten(minimumConfidence:)`` or to place
    /// an ``ImageOperation/aspectCrop(_:gravity:)`` by attention or entropy): what a run would render, for showing or
    /// saving as a recipe before rendering.
    public func cropState(_ source: ImageSource, _ operations: [ImageOperation]) throws(CropKitError) -> CropState {
        try measuredCropState(source, operations).state
    }

    /// ``cropState(_:_:)`` with what its automatic steps measured: the estimate of an
    /// ``ImageOperation/autoStraighten(minimumConfidence:)`` (applied or not) and the proposal that placed an
    /// ``ImageOperation/aspectCrop(_:gravity:)`` by attention or entropy.
    package func measuredCropState(_ source: ImageSource, _ operations: [ImageOperation]) throws(CropKitError)
        -> (state: CropState, straighten: StraightenEstimate?, proposal: CropProposal?)
    {
        try PipelinePlan.validate(operations)
        let opened = try open(source)
        let straightened = try resolveAutoStraighten(source, opened, operations)
        let placed = try resolvePlacement(source, opened, straightened.operations)
        let state = try PipelinePlan(
            placed.operations, storedSize: opened.storedSize, orientation: opened.info.orientation,
            maxThreads: maxThreads
        ).state
        return (state, straightened.estimate, placed.proposal)
    }
}
