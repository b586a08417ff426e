import CropEngine
import CropGeometry

/// The fixed-frame crop screen, as a state machine: a crop frame fixed in a viewport, the image zoomed and panned
/// under it.
///
/// - The image is drawn at ``zoomScale`` view points per image pixel with its top-left corner at ``imageOrigin``.
/// - The minimum zoom makes the image cover the frame (``MinimumZoom/cover``) or fit inside it
///   (``MinimumZoom/fit``); the maximum is ``maximumScale`` (never below the minimum).
/// - A pinch keeps the image point under its anchor fixed (unless a limit stops it); gestures are computed from
///   their start, as UIKit's recognizers report cumulative scale and translation.
/// - Where the zoomed image is larger than the frame it can pan until its edge meets the frame's; where it is
///   smaller it stays centred in the frame, like a scroll view's content inset.
/// - ``cropRect`` converts the frame to an image rectangle (full-resolution pixels).
public struct ZoomViewport: Hashable, Sendable {
    /// How far the image may zoom out.
    public enum MinimumZoom: String, CaseIterable, Hashable, Sendable {
        /// The image always covers the frame (no empty space in it).
        case cover
        /// The image may shrink until it fits inside the frame.
        case fit
    }

    /// A gesture or discrete event, in viewport coordinates.
    public enum Event: Hashable, Sendable {
        /// A pan or pinch starts with its touches' centroid at `anchor`.
        case began(anchor: Point)
        /// The gesture's cumulative translation of the centroid and scale since it began.
        case changed(translation: Point, scale: Double)
        /// The gesture finished; the view keeps where it is.
        case ended
        /// The gesture was interrupted: the view returns to where it began.
        case cancelled
        /// A discrete zoom by `factor` about `anchor` (wheel, double tap).
        case zoom(factor: Double, anchor: Point)
    }

    /// The image's upright full-resolution size.
    public let imageSize: PixelSize
    /// How far the image may zoom out.
    public let minimumZoom: MinimumZoom
    /// The largest zoom (view points per image pixel) asked for.
    public let maximumZoomSetting: Double
    /// The viewport's size.
    public private(set) var viewportSize: Size
    /// The fixed crop frame, in viewport coordinates.
    public private(set) var cropFrame: Rect
    /// View points per image pixel.
    public private(set) var zoomScale: Double
    /// Where the image's top-left corner is, in viewport coordinates.
    public private(set) var imageOrigin: Point

    private struct GestureStart: Hashable, Sendable {
        var scale: Double
        var origin: Point
        var anchor: Point
    }

    private var gestureStart: GestureStart?

    /// Creates a viewport at its minimum zoom with the image centred in the frame.
    public init(
        imageSize: PixelSize, viewportSize: Size, cropFrame: Rect, minimumZoom: MinimumZoom = .cover,
        maximumScale: Double = 4
    ) throws(GeometryError) {
        try requirePositive(viewportSize, "viewportSize")
        try requireValid(cropFrame, "cropFrame")
        try requirePositive(maximumScale, "maximumScale")
        self.imageSize = imageSize
        self.minimumZoom = minimumZoom
        self.maximumZoomSetting = maximumScale
        self.viewportSize = viewportSize
        self.cropFrame = cropFrame
        self.zoomScale = 1
        self.imageOrigin = .zero
        zoomScale = minimumScale
        imageOrigin = clampedOrigin(
            Point(
                x: cropFrame.midX - Double(imageSize.width) * zoomScale / 2,
                y: cropFrame.midY - Double(imageSize.height) * zoomScale / 2), scale: zoomScale)
    }

    // MARK: Geometry

    /// The smallest zoom: the image covers, or fits, the frame.
    public var minimumScale: Double {
        let sx = cropFrame.width / Double(imageSize.width), sy = cropFrame.height / Double(imageSize.height)
        return minimumZoom == .cover ? Swift.max(sx, sy) : Swift.min(sx, sy)
    }

    /// The largest zoom: ``maximumZoomSetting``, never below ``minimumScale``.
    public var maximumScale: Double { Swift.max(minimumScale, maximumZoomSetting) }

    /// The image's frame in viewport coordinates.
    public var imageFrame: Rect {
        Rect(origin: imageOrigin, size: imageSize.size * zoomScale)
    }

    /// Image pixel coordinates → viewport coordinates.
    public var imageToView: AffineTransform2D {
        AffineTransform2D(a: zoomScale, b: 0, c: 0, d: zoomScale, tx: imageOrigin.x, ty: imageOrigin.y)
    }

    /// The crop frame as an image rectangle in full-resolution pixels (only the part covered by the image, which is
    /// all of it at cover zoom).
    public var cropRect: Rect {
        let r = Rect(
            x: (cropFrame.minX - imageOrigin.x) / zoomScale, y: (cropFrame.minY - imageOrigin.y) / zoomScale,
            width: cropFrame.width / zoomScale, height: cropFrame.height / zoomScale)
        let image = Rect(size: imageSize.size)
        return r.intersection(image)
            ?? Rect(
                x: r.minX.clamped(0, image.width), y: r.minY.clamped(0, image.height), width: 0, height: 0)
    }

    // MARK: Events

    /// Feeds one event.
    public mutating func handle(_ event: Event) throws(GeometryError) {
        switch event {
        case .began(let anchor):
            try requireFinite(anchor, "anchor")
            gestureStart = GestureStart(scale: zoomScale, origin: imageOrigin, anchor: anchor)
        case .changed(let translation, let scale):
            try requireFinite(translation, "translation")
            try requirePositive(scale, "scale")
            guard let start = gestureStart else { return }
            apply(
                scale: start.scale * scale, anchor: start.anchor, from: (start.scale, start.origin),
                translation: translation)
        case .ended:
            gestureStart = nil
        case .cancelled:
            if let start = gestureStart {
                zoomScale = start.scale
                imageOrigin = start.origin
            }
            gestureStart = nil
        case .zoom(let factor, let anchor):
            try zoom(by: factor, anchor: anchor)
        }
    }

    /// Zooms by `factor` about `anchor` (viewport coordinates), within the zoom limits.
    public mutating func zoom(by factor: Double, anchor: Point) throws(GeometryError) {
        try requirePositive(factor, "factor")
        try requireFinite(anchor, "anchor")
        apply(scale: zoomScale * factor, anchor: anchor, from: (zoomScale, imageOrigin), translation: .zero)
    }

    /// Pans the image by `translation` viewport points, as far as the frame allows.
    public mutating func pan(by translation: Point) throws(GeometryError) {
        try requireFinite(translation, "translation")
        imageOrigin = clampedOrigin(imageOrigin + translation, scale: zoomScale)
    }

    /// Shows `rect` (image pixels) as large as fits in the frame, centred, within the zoom limits (to restore a
    /// saved crop).
    public mutating func show(_ rect: Rect) throws(GeometryError) {
        try requireValid(rect, "rect")
        let s = Swift.min(cropFrame.width / rect.width, cropFrame.height / rect.height)
            .clamped(minimumScale, maximumScale)
        zoomScale = s
        imageOrigin = clampedOrigin(
            Point(x: cropFrame.midX - rect.midX * s, y: cropFrame.midY - rect.midY * s), scale: s)
    }

    /// Changes the viewport and frame (a rotation or resize), keeping the image point at the frame's centre there
    /// and the zoom relative to the minimum.
    public mutating func resize(viewportSize: Size, cropFrame: Rect) throws(GeometryError) {
        try requirePositive(viewportSize, "viewportSize")
        try requireValid(cropFrame, "cropFrame")
        let relative = zoomScale / minimumScale
        let centre = Point(
            x: (self.cropFrame.midX - imageOrigin.x) / zoomScale,
            y: (self.cropFrame.midY - imageOrigin.y) / zoomScale)
        self.viewportSize = viewportSize
        self.cropFrame = cropFrame
        zoomScale = (relative * minimumScale).clamped(minimumScale, maximumScale)
        imageOrigin = clampedOrigin(
            Point(x: cropFrame.midX - centre.x * zoomScale, y: cropFrame.midY - centre.y * zoomScale),
            scale: zoomScale)
    }

    private mutating func apply(
        scale: Double, anchor: Point, from start: (scale: Double, origin: Point),
        translation: Point
    ) {
        let s = scale.clamped(minimumScale, maximumScale)
        let ratio = s / start.scale
        // The image point under the anchor stays under it (then follows the translation).
        let origin = Point(
            x: anchor.x + translation.x - (anchor.x - start.origin.x) * ratio,
            y: anchor.y + translation.y - (anchor.y - start.origin.y) * ratio)
        zoomScale = s
        imageOrigin = clampedOrigin(origin, scale: s)
    }

    /// The nearest allowed origin: the image's edges may not enter the frame where the image is larger than it;
    /// where it is smaller, it is centred.
    private func clampedOrigin(_ origin: Point, scale: Double) -> Point {
        func axis(_ o: Double, _ extent: Double, _ lo: Double, _ hi: Double) -> Double {
            extent >= hi - lo ? o.clamped(hi - extent, lo) : (lo + hi) / 2 - extent / 2
        }
        return Point(
            x: axis(origin.x, Double(imageSize.width) * scale, cropFrame.minX, cropFrame.maxX),
            y: axis(origin.y, Double(imageSize.height) * scale, cropFrame.minY, cropFrame.maxY))
    }
}
