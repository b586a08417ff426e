import CropEngine
import CropGeometry
import CropInteraction

/// A ``CropViewState`` as ``count`` numbers: what the WebAssembly module writes for the page after every event
/// (a `Float64Array` over its memory; no JSON).
///
/// | index | field |
/// |---|---|
/// | 0, 1 | viewport width, height |
/// | 2, 3 | preview image width, height (stored orientation) |
/// | 4…9 | image transform a, b, c, d, tx, ty |
/// | 10…13 | crop box x, y, width, height |
/// | 14…21 | picture corners x, y × 4 (top-left, top-right, bottom-right, bottom-left) |
/// | 22 | shows grid (0/1) |
/// | 23 | angle (degrees, counter-clockwise on screen) |
/// | 24 | quarter turns (0…3) |
/// | 25 | flipped (0/1) |
/// | 26…28 | aspect lock: kind (0 free, 1 original, 2 W:H), W, H |
/// | 29, 30 | output width, height (full resolution) |
/// | 31, 32 | can undo, can redo (0/1) |
/// | 33 | mode (0 crop, 1 pan) |
/// | 34 | gesture (`CropGesture.allCases` index) |
/// | 35…38 | recipe: crop centre x, y, width, height (fractions of the upright picture) |
/// | 39 | recipe angle |
/// | 40 | recipe quarter turns |
/// | 41, 42 | recipe flip horizontal, vertical (0/1) |
/// | 43…46 | wanted box x, y, width, height |
/// | 47 | minimum side (view points) |
/// | 48…79 | the eight handles' squares, x, y, width, height each, in `CropHandle.allCases` order |
package enum NumericViewState {
    /// How many numbers a view state takes.
    package static let count = 80

    /// Writes `state` into `out[0..<count]`.
    package static func write(_ state: CropViewState, into out: UnsafeMutablePointer<Double>) {
        var i = 0
        func put(_ values: Double...) {
            for v in values {
                out[i] = v
                i += 1
            }
        }
        func put(_ r: Rect) { put(r.minX, r.minY, r.width, r.height) }
        func flag(_ b: Bool) -> Double { b ? 1 : 0 }
        put(state.viewportSize.width, state.viewportSize.height)
        put(Double(state.imageSize.width), Double(state.imageSize.height))
        let t = state.imageTransform
        put(t.a, t.b, t.c, t.d, t.tx, t.ty)
        put(state.cropBox)
        for k in 0..<4 {
            let p = k < state.pictureCorners.count ? state.pictureCorners[k] : Point(x: 0, y: 0)
            put(p.x, p.y)
        }
        put(flag(state.showsGrid), state.angle, Double(state.quarterTurns), flag(state.flipped))
        let lock = NumericEvent.numbers(state.aspect)
        put(lock[0], lock[1], lock[2])
        put(Double(state.outputSize.width), Double(state.outputSize.height))
        put(flag(state.canUndo), flag(state.canRedo), state.mode == .crop ? 0 : 1)
        put(Double(CropGesture.allCases.firstIndex(of: state.gesture) ?? 0))
        let recipe = state.recipe
        put(recipe.cropCenter.x, recipe.cropCenter.y, recipe.cropSize.width, recipe.cropSize.height)
        put(recipe.angle, Double(recipe.quarterTurns), flag(recipe.flipHorizontal), flag(recipe.flipVertical))
        put(state.wantedBox)
        put(state.minimumSide)
        for handle in CropHandle.allCases {
            let rect =
                state.handles.first(where: { $0.handle == handle })?.rect ?? Rect(x: 0, y: 0, width: 0, height: 0)
            put(rect)
        }
    }

    /// `state` as an array of ``count`` numbers.
    package static func numbers(_ state: CropViewState) -> [Double] {
        [Double](unsafeUninitializedCapacity: count) { buffer, initialized in
            write(state, into: buffer.baseAddress!)
            initialized = count
        }
    }
}
