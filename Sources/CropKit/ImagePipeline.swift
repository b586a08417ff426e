/// File-to-file (or file-to-memory) image operations with shrink-on-load and streaming: the fast, low-memory way to
/// resize, thumbnail, crop and straighten photos.
///
/// Every operation:
/// - reads the header first and fails before decoding when the request, the output path or the pixel limit is wrong;
/// - applies the EXIF orientation exactly once (target sizes are in *displayed* pixels, so a portrait phone photo
///   stored sideways behaves as it looks);
/// - decodes a JPEG at 1/2, 1/4 or 1/8 scale when that still leaves the final filter at least a 2× reduction, as
///   libvips does, so a thumbnail of a 24-megapixel photo never decodes 24 megapixels;
/// - resamples once (orientation, crop, straighten and scale folded into one pass);
/// - streams rows from the decoder through the resampler to the encoder where the geometry allows, so peak memory
///   stays near the decoder's own needs rather than "decoded image + output";
/// - writes atomically, keeping the ICC profile and the EXIF block (orientation reset to 1) unless stripped.
///
/// ```swift
/// let pipeline = ImagePipeline()
/// let result = try pipeline.thumbnail(.file("photo.jpg"), ThumbnailRequest(side: 256, cornerRadius: 24),
///                                     to: .file("thumb.png"))
/// print(result.size)   // 256×256
/// ```
///
/// `ImagePipeline` is a value with no shared state: use one from many threads at once.
public struct ImagePipeline: Sendable {
    /// The decompression-bomb guard, checked against each header before anything large is allocated.
    public var limits: PixelLimits
    /// Treat the codec's corrupt-data warnings as errors.
    public var strict: Bool
    /// Decode JPEGs at a reduced scale when the output is at least 2× smaller than that scale (default on).
    public var shrinkOnLoad: Bool
    /// At 1/8 scale, stop reading a progressive JPEG once every DC coefficient is known (``JPEGEarlyStop/dcOnly``).
    ///
    /// Only used when the output is at least 16× smaller than the source, so the final filter still reduces by 2× or
    /// more; then the one approximation (4:2:0 chroma rebuilt from DC alone) is far below what the output can show.
    /// It skips most of the file: thumbnails of progressive photos decode several times faster. Default on.
    public var fastThumbnailDecode: Bool
    /// The most threads one operation uses; 0 for one per core.
    public var maxThreads: Int

    /// Creates a pipeline; every argument has the default described on its property.
    public init(
        limits: PixelLimits = .default, strict: Bool = false, shrinkOnLoad: Bool = true,
        fastThumbnailDecode: Bool = true, maxThreads: Int = 0
    ) {
        self.limits = limits
        self.strict = strict
        self.shrinkOnLoad = shrinkOnLoad
        self.fastThumbnailDecode = fastThumbnailDecode
        self.maxThreads = maxThreads
    }

    // MARK: Operations

    /// Resizes to a width, a height or a box with a content mode (fit, fill with a gravity, pad, stretch).
    ///
    /// Sizes are in displayed pixels (after the EXIF orientation). Unless ``ResizeRequest/allowUpscale`` is set,
    /// nothing is enlarged: a fit stops at the source size, a fill covers at most the source's own pixels (the output
    /// keeps the box's proportions but may be smaller), a pad centres the unenlarged image in the full box.
    /// - Throws: ``CropKitError`` naming the problem; nothing is written on failure.
    public func resize(
        _ source: ImageSource, _ request: ResizeRequest, to destination: Destination = .image,
        options: SaveOptions = SaveOptions()
    ) throws(CropKitError) -> PipelineResult {
        try destination.checkWritable(options)
        let opened = try open(source)
        let shown = opened.displayedSize
        let box = try request.target.box(for: shown)
        let plan = try request.plan(shown: shown, box: box)
        var post: PostProcess?
        if let pad = plan.pad {
            post = { image in
                try image.padded(
                    toWidth: pad.size.width, height: pad.size.height, x: pad.x, y: pad.y, background: pad.background)
            }
        }
        return try runAxisAligned(
            opened, displayedRect: plan.sourceRect, orientation: opened.info.orientation, outputSize: plan.imageSize,
            resample: ResampleOptions(filter: request.filter, linearLight: request.linearLight, maxThreads: maxThreads),
            post: post, destination: destination, options: options)
    }

    /// A square thumbnail: the picture scaled to cover the square with the longer side cropped about the centre,
    /// optionally inside a transparent border and with rounded corners. Always exactly `side × side` pixels.
    /// - Throws: ``CropKitError`` naming the problem; nothing is written on failure.
    public func thumbnail(
        _ source: ImageSource, _ request: ThumbnailRequest, to destination: Destination = .image,
        options: SaveOptions = SaveOptions()
    ) throws(CropKitError) -> PipelineResult {
        try destination.checkWritable(options)
        let inner = request.side - 2 * request.border
        guard request.side >= 1, request.border >= 0, inner >= 1 else {
            throw .invalidRequest(
                name: "thumbnail", reason: "side \(request.side) with border \(request.border) leaves no picture")
        }
        guard request.cornerRadius >= 0, request.cornerRadius.isFinite else {
            throw .invalidRequest(name: "corner radius", reason: "\(request.cornerRadius) must be a number ≥ 0")
        }
        let opened = try open(source)
        let shown = opened.displayedSize
        let layout = try mappingErrors {
            try ResizeMode.fill(gravity: .center).layout(
                sourceWidth: shown.width, sourceHeight: shown.height, width: inner, height: inner)
        }
        return try runAxisAligned(
            opened, displayedRect: layout.sourceRect, orientation: opened.info.orientation, outputSize: layout.imageSize,
            resample: ResampleOptions(filter: request.filter, linearLight: request.linearLight, maxThreads: maxThreads),
            post: { image in
                try image.framed(border: request.border, cornerRadius: request.cornerRadius)
            },
            destination: destination, options: options)
    }

    /// Renders a crop (a recipe, a crop state or a crop request) at full source resolution, or scaled down to fit
    /// `maximumSize`, in one resampling pass.
    ///
    /// Without a straighten the render is exact: a pixel copy at scale 1, a separable Lanczos3 resize otherwise.
    /// With one, each output pixel is filtered from the source with a Catmull-Rom kernel widened by the reduction,
    /// and the crop engine guarantees that no fill pixel can appear.
    /// - Throws: ``CropKitError`` naming the problem (a recipe field, a rect outside the picture …).
    public func render(
        _ source: ImageSource, _ crop: CropSpec, maximumSize: PixelSize? = nil, to destination: Destination = .image,
        options: SaveOptions = SaveOptions()
    ) throws(CropKitError) -> PipelineResult {
        try destination.checkWritable(options)
        let opened = try open(source)
        let state = try crop.state(sourceSize: opened.storedSize, orientation: opened.info.orientation)
        let plan = state.renderPlan(maximumOutputSize: maximumSize)
        if let storedRect = plan.sourceRect {
            let displayedRect = plan.orientation.displayedRect(fromStored: storedRect, storedSize: plan.sourceSize.size)
            return try runAxisAligned(
                opened, displayedRect: displayedRect, orientation: plan.orientation, outputSize: plan.outputSize,
                resample: ResampleOptions(filter: .lanczos3, maxThreads: maxThreads), post: nil,
                destination: destination, options: options)
        }
        return try runAffine(opened, plan: plan, destination: destination, options: options)
    }

    /// Turns the stored pixels upright according to the EXIF orientation (a lossless permutation) and writes them
    /// with orientation 1.
    public func orient(
        _ source: ImageSource, to destination: Destination = .image, options: SaveOptions = SaveOptions()
    ) throws(CropKitError) -> PipelineResult {
        try destination.checkWritable(options)
        let opened = try open(source)
        return try runAxisAligned(
            opened, displayedRect: Rect(size: opened.displayedSize.size), orientation: opened.info.orientation,
            outputSize: opened.displayedSize, resample: ResampleOptions(maxThreads: maxThreads), post: nil,
            destination: destination, options: options)
    }

    /// Rounds the upright picture's corners (anti-aliased, alpha added), or cuts its largest centred square as a
    /// circle, optionally inside a transparent border.
    public func roundCorners(
        _ source: ImageSource, radius: CornerRadius, border: Int = 0, to destination: Destination = .image,
        options: SaveOptions = SaveOptions()
    ) throws(CropKitError) -> PipelineResult {
        try destination.checkWritable(options)
        if case .pixels(let r) = radius, !(r >= 0 && r.isFinite) {
            throw .invalidRequest(name: "radius", reason: "\(r) must be a number ≥ 0")
        }
        let opened = try open(source)
        return try runAxisAligned(
            opened, displayedRect: Rect(size: opened.displayedSize.size), orientation: opened.info.orientation,
            outputSize: opened.displayedSize, resample: ResampleOptions(maxThreads: maxThreads),
            post: { image in
                switch radius {
                case .circle: try image.circleCropped(border: border)
                case .pixels(let r): try image.roundedCorners(radius: r, border: border)
                }
            },
            destination: destination, options: options)
    }
}

/// A corner radius for ``ImagePipeline/roundCorners(_:radius:border:to:options:)``.
public enum CornerRadius: Hashable, Sendable {
    /// Quarter circles of this many pixels (clamped to half the shorter side).
    case pixels(Double)
    /// The largest centred square, cut as a circle.
    case circle
}

/// What ``ImagePipeline/resize(_:_:to:options:)`` should produce.
public struct ResizeRequest: Hashable, Sendable {
    /// The requested size, in displayed pixels.
    public enum Target: Hashable, Sendable {
        /// This width; the height keeps the aspect ratio.
        case width(Int)
        /// This height; the width keeps the aspect ratio.
        case height(Int)
        /// A box, filled according to the ``ResizeRequest/mode``.
        case box(PixelSize)

        /// The box for a picture displayed at `shown`.
        func box(for shown: PixelSize) throws(CropKitError) -> PixelSize {
            switch self {
            case .width(let w):
                guard w >= 1 else { throw .invalidRequest(name: "width", reason: "\(w) must be at least 1") }
                return PixelSize(validWidth: w, height: Swift.max(1, Int((Double(shown.height) * Double(w) / Double(shown.width)).rounded())))
            case .height(let h):
                guard h >= 1 else { throw .invalidRequest(name: "height", reason: "\(h) must be at least 1") }
                return PixelSize(validWidth: Swift.max(1, Int((Double(shown.width) * Double(h) / Double(shown.height)).rounded())), height: h)
            case .box(let size):
                return size
            }
        }
    }

    /// The requested size.
    public var target: Target
    /// How the picture fills the box. Default ``ResizeMode/fit``.
    public var mode: ResizeMode
    /// The resampling filter. Default Lanczos3.
    public var filter: ResamplingFilter
    /// Filter in linear light (see ``ResampleOptions/linearLight``).
    public var linearLight: Bool
    /// Allow the output to be larger than the source. Default `false`.
    public var allowUpscale: Bool

    /// Creates a request; every argument but the target has the default described on its property.
    public init(
        _ target: Target, mode: ResizeMode = .fit, filter: ResamplingFilter = .lanczos3, linearLight: Bool = false,
        allowUpscale: Bool = false
    ) {
        self.target = target
        self.mode = mode
        self.filter = filter
        self.linearLight = linearLight
        self.allowUpscale = allowUpscale
    }

    /// Where the resize samples (displayed coordinates), what size it resamples to, and the padding after.
    struct Plan {
        var sourceRect: Rect
        var imageSize: PixelSize
        var pad: (size: PixelSize, x: Int, y: Int, background: PixelColor)?
    }

    func plan(shown: PixelSize, box: PixelSize) throws(CropKitError) -> Plan {
        func layout(_ mode: ResizeMode, _ box: PixelSize) throws(CropKitError) -> ResizeLayout {
            try mappingErrors {
                try mode.layout(sourceWidth: shown.width, sourceHeight: shown.height, width: box.width, height: box.height)
            }
        }
        var result = try layout(mode, box)
        // The largest enlargement on either axis; above 1 means upscaling.
        let enlargement = Swift.max(
            Double(result.imageSize.width) / result.sourceRect.width,
            Double(result.imageSize.height) / result.sourceRect.height)
        let upscales = !allowUpscale && enlargement > 1 + 1e-9
        switch mode {
        case .pad(let background, let alignment):
            let fitted = try layout(.fit, upscales ? PixelSize(validWidth: Swift.min(box.width, shown.width), height: Swift.min(box.height, shown.height)) : box)
            let image = upscales
                ? PixelSize(validWidth: Swift.min(fitted.imageSize.width, shown.width), height: Swift.min(fitted.imageSize.height, shown.height))
                : fitted.imageSize
            let x = Int((Double(box.width - image.width) * alignment.horizontalFraction).rounded())
            let y = Int((Double(box.height - image.height) * alignment.verticalFraction).rounded())
            let pad = image == box ? nil : (box, x, y, background)
            return Plan(sourceRect: fitted.sourceRect, imageSize: image, pad: pad)
        case .fit where upscales:
            result = try layout(.fit, shown)
        case .fill where upscales:
            result = try layout(mode, PixelSize(validWidth: Swift.max(1, Int((Double(box.width) / enlargement).rounded(.down))), height: Swift.max(1, Int((Double(box.height) / enlargement).rounded(.down)))))
        case .stretch where upscales:
            result = try layout(mode, PixelSize(validWidth: Swift.min(box.width, shown.width), height: Swift.min(box.height, shown.height)))
        default:
            break
        }
        return Plan(sourceRect: result.sourceRect, imageSize: result.imageSize, pad: nil)
    }
}

/// What ``ImagePipeline/thumbnail(_:_:to:options:)`` should produce.
public struct ThumbnailRequest: Hashable, Sendable {
    /// The square's side in pixels, border included.
    public var side: Int
    /// A transparent border inside the square, in pixels. Default 0.
    public var border: Int
    /// The corner radius of the picture inside the border, in pixels; 0 for square corners, `side / 2` or more for
    /// a circle. Default 0.
    public var cornerRadius: Double
    /// The resampling filter. Default Lanczos3.
    public var filter: ResamplingFilter
    /// Filter in linear light. Default `false`.
    public var linearLight: Bool

    /// Creates a request; every argument but the side has the default described on its property.
    public init(
        side: Int, border: Int = 0, cornerRadius: Double = 0, filter: ResamplingFilter = .lanczos3,
        linearLight: Bool = false
    ) {
        self.side = side
        self.border = border
        self.cornerRadius = cornerRadius
        self.filter = filter
        self.linearLight = linearLight
    }
}

/// The crop ``ImagePipeline/render(_:_:maximumSize:to:options:)`` renders.
public enum CropSpec: Hashable, Sendable {
    /// A saved recipe, applied to the source at its resolution.
    case recipe(Recipe)
    /// A crop state made for this very source (its size and orientation must match).
    case state(CropState)

    /// The crop state for a source stored at `sourceSize` with `orientation`.
    func state(sourceSize: PixelSize, orientation: Orientation) throws(CropKitError) -> CropState {
        switch self {
        case .recipe(let recipe):
            return try mappingErrors { try CropState(recipe: recipe, sourceSize: sourceSize, orientation: orientation) }
        case .state(let state):
            guard state.sourceSize == sourceSize, state.sourceOrientation == orientation else {
                throw .invalidRequest(
                    name: "crop state",
                    reason: "made for a \(state.sourceSize) picture with orientation \(state.sourceOrientation.exifValue), "
                        + "the source is \(sourceSize) with orientation \(orientation.exifValue)")
            }
            return state
        }
    }
}
