import CropEngine
import CropGeometry
import CropInteraction

/// What a new session needs, as ``count`` numbers: the picture, the viewport, the session's configuration and an
/// optional starting recipe. The page's module writes them; `ck_session_new` reads them.
///
/// | index | field |
/// |---|---|
/// | 0, 1 | the stored picture's width, height in pixels |
/// | 2 | its EXIF orientation, 1…8 |
/// | 3 | the minimum crop side in source pixels |
/// | 4, 5 | viewport width, height |
/// | 6…9 | insets top, left, bottom, right |
/// | 10…18 | `CropSession.Configuration`: touchRadius, handleSize, tapSlop, historyLimit, preview width, preview height (0: the source size), maximumBoxFraction, straightenSnap, rotationThreshold |
/// | 19, 20 | the fixed aspect W, H (0, 0: none) |
/// | 21 | 1 when a recipe follows |
/// | 22…25 | recipe crop centre x, y, width, height |
/// | 26…29 | recipe angle, quarter turns, flip horizontal, flip vertical |
/// | 30…32 | recipe aspect lock: kind, W, H |
package enum SessionParameters {
    /// How many numbers the parameters take.
    package static let count = 33

    /// Why a session could not be made.
    package enum Failure: Error, Equatable {
        /// A number out of its range (a size, the orientation, a configuration value, the recipe).
        case invalidParameter(index: Int)
        /// The engine refused the picture, viewport or recipe.
        case refused(GeometryError)
    }

    /// A session from the numbers in `n`.
    package static func session(_ n: UnsafePointer<Double>) throws(Failure) -> CropSession {
        func whole(_ i: Int, _ range: ClosedRange<Double>) throws(Failure) -> Int {
            let v = n[i]
            guard range.contains(v), v == v.rounded(.towardZero) else { throw .invalidParameter(index: i) }
            return Int(v)
        }
        let width = try whole(0, 1...1e9), height = try whole(1, 1...1e9)
        guard let orientation = Orientation(rawValue: try whole(2, 1...8)) else { throw .invalidParameter(index: 2) }
        let source: PixelSize
        do { source = try PixelSize(width: width, height: height) } catch { throw .refused(error) }
        var configuration = CropSession.Configuration(
            touchRadius: n[10], handleSize: n[11], tapSlop: n[12], historyLimit: try whole(13, 0...1e6),
            maximumBoxFraction: n[16], straightenSnap: n[17], rotationThreshold: n[18])
        if n[14] != 0 || n[15] != 0 {
            let previewWidth = try whole(14, 1...1e9), previewHeight = try whole(15, 1...1e9)
            do { configuration.previewSize = try PixelSize(width: previewWidth, height: previewHeight) } catch {
                throw .refused(error)
            }
        }
        if n[19] != 0 || n[20] != 0 {
            let lock = [2, n[19], n[20]].withUnsafeBufferPointer { NumericEvent.aspectLock($0.baseAddress!) }
            guard case .ratio(let ratio)? = lock else { throw .invalidParameter(index: 19) }
            configuration.fixedAspect = ratio
        }
        var recipe: Recipe?
        if n[21] != 0 {
            guard let aspect = NumericEvent.aspectLock(n + 30) else { throw .invalidParameter(index: 30) }
            let turns = try whole(27, 0...3)
            do {
                recipe = try Recipe(
                    cropCenter: Point(x: n[22], y: n[23]), cropSize: Size(width: n[24], height: n[25]), angle: n[26],
                    quarterTurns: turns, flipHorizontal: n[28] != 0, flipVertical: n[29] != 0, aspect: aspect)
            } catch { throw .refused(error) }
        }
        do {
            let state =
                if let recipe {
                    try CropState(recipe: recipe, sourceSize: source, orientation: orientation, minimumCropSize: n[3])
                } else {
                    try CropState(sourceSize: source, orientation: orientation, minimumCropSize: n[3])
                }
            return try CropSession(
                state: state, viewportSize: Size(width: n[4], height: n[5]),
                insets: EdgeInsets(top: n[6], left: n[7], bottom: n[8], right: n[9]), configuration: configuration)
        } catch {
            throw .refused(error)
        }
    }

    /// The numbers that make a session like `session`'s start (for tests and the parity trace).
    package static func numbers(
        source: PixelSize, orientation: Orientation, minimumCropSize: Double, viewport: Size, insets: EdgeInsets,
        configuration c: CropSession.Configuration, recipe: Recipe?
    ) -> [Double] {
        var row: [Double] = [
            Double(source.width), Double(source.height), Double(orientation.rawValue),
            minimumCropSize, viewport.width, viewport.height, insets.top, insets.left, insets.bottom,
            insets.right, c.touchRadius, c.handleSize, c.tapSlop, Double(c.historyLimit),
            Double(c.previewSize?.width ?? 0), Double(c.previewSize?.height ?? 0),
            c.maximumBoxFraction, c.straightenSnap, c.rotationThreshold,
            Double(c.fixedAspect?.width ?? 0), Double(c.fixedAspect?.height ?? 0),
        ]
        if let r = recipe {
            row += [
                1, r.cropCenter.x, r.cropCenter.y, r.cropSize.width, r.cropSize.height, r.angle,
                Double(r.quarterTurns), r.flipHorizontal ? 1 : 0, r.flipVertical ? 1 : 0,
            ]
            row += NumericEvent.numbers(r.aspect)
        } else {
            row += [Double](repeating: 0, count: count - row.count)
        }
        return row
    }
}
