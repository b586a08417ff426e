import CropEngine
import CropGeometry
import CropInteraction

/// The JSON form of a ``CropViewState`` sent to the browser editor: all coordinates in view points, y down; rects
/// are `{x, y, width, height}`.
///
/// ```json
/// {
///   "viewport": {"width": 800, "height": 600},
///   "image": {"width": 1000, "height": 750,
///             "transform": {"a": 0.5, "b": 0, "c": 0, "d": 0.5, "tx": 150, "ty": 112.5}},
///   "cropBox": {"x": 150, "y": 112.5, "width": 500, "height": 375},
///   "handles": [{"handle": "topLeft", "x": 140, "y": 102.5, "width": 20, "height": 20}, …],
///   "pictureCorners": [{"x": 150, "y": 112.5}, …],
///   "showsGrid": false,
///   "angle": 0, "quarterTurns": 0, "flipped": false, "aspect": "free",
///   "outputSize": {"width": 4032, "height": 3024},
///   "canUndo": false, "canRedo": false,
///   "mode": "crop", "gesture": "none",
///   "recipe": { …see Recipe… },
///   "wantedBox": {"x": 150, "y": 112.5, "width": 500, "height": 375}, "minimumSide": 0.5
/// }
/// ```
///
/// `image` is the stored-orientation preview and `image.transform` its preview-pixel → view transform (draw it with
/// `transform-origin: 0 0` and `image-orientation: none`); see ``CropViewState`` for what each field means.
struct ViewStateMessage: Codable, Hashable, Sendable {
    /// The state.
    var state: CropViewState

    init(_ state: CropViewState) {
        self.state = state
    }

    private enum Key: String, CodingKey {
        case viewport, image, cropBox, handles, pictureCorners, showsGrid, angle, quarterTurns, flipped, aspect
        case outputSize, canUndo, canRedo, mode, gesture, recipe, wantedBox, minimumSide
    }

    private struct FlatRect: Codable {
        var x, y, width, height: Double
        init(_ r: Rect) { (x, y, width, height) = (r.minX, r.minY, r.width, r.height) }
        var rect: Rect { Rect(x: x, y: y, width: width, height: height) }
    }

    private struct FlatHandle: Codable {
        var handle: CropHandle
        var x, y, width, height: Double
    }

    private struct Image: Codable {
        var width: Int
        var height: Int
        var transform: AffineTransform2D
    }

    private struct Extent: Codable {
        var width: Double
        var height: Double
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        let viewport = try c.decode(Extent.self, forKey: .viewport)
        let image = try c.decode(Image.self, forKey: .image)
        state = CropViewState(
            viewportSize: Size(width: viewport.width, height: viewport.height),
            imageSize: try PixelSize(width: image.width, height: image.height),
            imageTransform: image.transform,
            cropBox: try c.decode(FlatRect.self, forKey: .cropBox).rect,
            handles: try c.decode([FlatHandle].self, forKey: .handles).map {
                CropViewState.HandleRect(
                    handle: $0.handle, rect: Rect(x: $0.x, y: $0.y, width: $0.width, height: $0.height))
            },
            pictureCorners: try c.decode([Point].self, forKey: .pictureCorners),
            showsGrid: try c.decode(Bool.self, forKey: .showsGrid),
            angle: try c.decode(Double.self, forKey: .angle),
            quarterTurns: try c.decode(Int.self, forKey: .quarterTurns),
            flipped: try c.decode(Bool.self, forKey: .flipped),
            aspect: try c.decode(AspectLock.self, forKey: .aspect),
            outputSize: try c.decode(PixelSize.self, forKey: .outputSize),
            canUndo: try c.decode(Bool.self, forKey: .canUndo),
            canRedo: try c.decode(Bool.self, forKey: .canRedo),
            mode: try c.decode(InteractionMode.self, forKey: .mode),
            gesture: try c.decode(CropGesture.self, forKey: .gesture),
            recipe: try c.decode(Recipe.self, forKey: .recipe),
            wantedBox: try c.decodeIfPresent(FlatRect.self, forKey: .wantedBox)?.rect,
            minimumSide: try c.decodeIfPresent(Double.self, forKey: .minimumSide) ?? 0)
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(Extent(width: state.viewportSize.width, height: state.viewportSize.height), forKey: .viewport)
        try c.encode(
            Image(width: state.imageSize.width, height: state.imageSize.height, transform: state.imageTransform),
            forKey: .image)
        try c.encode(FlatRect(state.cropBox), forKey: .cropBox)
        try c.encode(
            state.handles.map {
                FlatHandle(
                    handle: $0.handle, x: $0.rect.minX, y: $0.rect.minY, width: $0.rect.width,
                    height: $0.rect.height)
            }, forKey: .handles)
        try c.encode(state.pictureCorners, forKey: .pictureCorners)
        try c.encode(state.showsGrid, forKey: .showsGrid)
        try c.encode(state.angle, forKey: .angle)
        try c.encode(state.quarterTurns, forKey: .quarterTurns)
        try c.encode(state.flipped, forKey: .flipped)
        try c.encode(state.aspect, forKey: .aspect)
        try c.encode(state.outputSize, forKey: .outputSize)
        try c.encode(state.canUndo, forKey: .canUndo)
        try c.encode(state.canRedo, forKey: .canRedo)
        try c.encode(state.mode, forKey: .mode)
        try c.encode(state.gesture, forKey: .gesture)
        try c.encode(state.recipe, forKey: .recipe)
        try c.encode(FlatRect(state.wantedBox), forKey: .wantedBox)
        try c.encode(state.minimumSide, forKey: .minimumSide)
    }
}
