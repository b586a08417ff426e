import CropEngine
import CropGeometry

/// Where every output pixel of a render comes from: the map from output pixels to stored source pixels, and the
/// facts the streaming paths choose by.
struct RenderGeometry: Hashable {
    /// The output's size.
    var outputSize: PixelSize
    /// Output pixel coordinates → stored source pixel coordinates.
    var transform: AffineTransform2D
    /// Stored → upright: the quarter-turn/mirror part of ``transform``.
    var orientation: Orientation
    /// Without a straighten, the rectangle of the upright picture the output covers (the output is that rectangle,
    /// resampled and permuted by ``orientation``); `nil` when straightened.
    var uprightRect: Rect?
    /// Source pixels per output pixel, along the axis that reduces least (what shrink-on-load may use).
    var reduction: Double
    /// The part of the crop state's own render (its output pixels) this output covers: all of it, or a fill's crop.
    var region: Rect

    /// A crop state's render plan as it is.
    init(plan: RenderPlan) {
        outputSize = plan.outputSize
        transform = plan.transform
        orientation = plan.orientation
        uprightRect = plan.isAxisAligned ? plan.uprightRect : nil
        reduction = plan.scale
        region = Rect(x: 0, y: 0, width: Double(plan.outputSize.width), height: Double(plan.outputSize.height))
    }

    /// The `region` of a render plan's output (in its output pixels), resampled to `outputSize`; the scale may
    /// differ between the axes (a stretch, a fill's rounding).
    init(plan: RenderPlan, region: Rect, outputSize: PixelSize) {
        let sx = region.width / Double(outputSize.width), sy = region.height / Double(outputSize.height)
        self.outputSize = outputSize
        transform = AffineTransform2D(a: sx, b: 0, c: 0, d: sy, tx: region.minX, ty: region.minY)
            .concatenating(plan.transform)
        orientation = plan.orientation
        if plan.isAxisAligned {
            // Axis-aligned plan outputs map to the upright picture by a uniform scale and a shift.
            let s = plan.scale, o = plan.uprightRect
            uprightRect = Rect(
                x: o.minX + s * region.minX, y: o.minY + s * region.minY, width: s * region.width,
                height: s * region.height)
        } else {
            uprightRect = nil
        }
        reduction = Swift.min(sx, sy) * plan.scale
        self.region = region
    }
}
