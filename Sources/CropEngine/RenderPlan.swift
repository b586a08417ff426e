import CropGeometry

/// Everything a renderer needs to produce a crop state's output in one resampling pass.
///
/// ``transform`` maps *output* pixel coordinates (continuous; output pixel `(i, j)` has its centre at
/// `(i + 0.5, j + 0.5)`) to *stored source* pixel coordinates. It folds the EXIF orientation, the user's turns and
/// flips, the straighten, the crop and the scale into one affine map, so a renderer samples the stored image once:
/// output pixel centre → `transform` → source point → sample.
///
/// The output covers the crop's centred sub-rectangle of `outputSize × scale` source pixels (the crop itself less at
/// most one output pixel lost to the integer rounding, see ``OutputSizing``). When the plan ``isAxisAligned`` and
/// unscaled, that rectangle is snapped to the source pixel grid (it moves by at most half a pixel) so a renderer can
/// copy pixels exactly; then ``isPixelExact`` is true and ``sourceRect`` names the integer source rectangle.
public struct RenderPlan: Hashable, Sendable {
    /// The stored image's size.
    public let sourceSize: PixelSize
    /// The output size. At most the crop's size in source pixels (never limited by a view, never upscaled), scaled
    /// down only to honour a maximum output size.
    public let outputSize: PixelSize
    /// Output pixel coordinates → stored source pixel coordinates.
    public let transform: AffineTransform2D
    /// Stored → upright: the quarter-turn/mirror part of ``transform``.
    public let orientation: Orientation
    /// The straighten angle in degrees (0 exactly when ``isAxisAligned``).
    public let straightenAngle: Double
    /// Source pixels per output pixel: 1 at full resolution, more when scaled down; less than 1 only for a crop
    /// smaller than one pixel, which still renders one pixel.
    public let scale: Double
    /// The rectangle of the straightened upright frame the output covers (upright pixel units), centred on the
    /// crop's frame centre (to within the pixel-grid snap).
    public let uprightRect: Rect

    /// Whether there is no straighten: ``transform`` is then a dihedral permutation (``orientation``), a uniform
    /// scale and a translation, and the output is the upright picture's ``uprightRect`` scaled by `1/scale`.
    public var isAxisAligned: Bool { straightenAngle == 0 }

    /// Whether the output is a plain pixel copy: axis-aligned, scale 1 and integer ``uprightRect``. A renderer can
    /// then apply ``orientation`` and cut ``sourceRect`` without resampling.
    public var isPixelExact: Bool {
        isAxisAligned && scale == 1 && uprightRect.minX == uprightRect.minX.rounded()
            && uprightRect.minY == uprightRect.minY.rounded()
    }

    /// For an axis-aligned plan, the stored-image rectangle the output comes from; `nil` when straightened.
    public var sourceRect: Rect? {
        guard isAxisAligned else { return nil }
        return orientation.storedRect(fromDisplayed: uprightRect, storedSize: sourceSize.size)
    }

    /// Output pixel coordinates → upright picture coordinates (the part of ``transform`` before the orientation).
    public var outputToUpright: AffineTransform2D {
        transform.concatenating(orientation.transform(storedSize: sourceSize.size))
    }
}

extension CropState {
    /// The render plan at full resolution, or scaled down to fit `maximumOutputSize` (aspect kept; never scaled up).
    ///
    /// The output is centred on the crop: its centre maps to the crop's content point ``cropContentCenter`` (in the
    /// stored image, through the orientation), to within the pixel-grid snap of an unscaled axis-aligned plan.
    public func renderPlan(maximumOutputSize: PixelSize? = nil) -> RenderPlan {
        let crop = self.crop, angle = straightenAngle
        var f = 1.0
        if let m = maximumOutputSize {
            f = Swift.min(1, Double(m.width) / crop.width, Double(m.height) / crop.height)
        }
        let out = OutputSizing.outputSize(cropSize: crop.size, aspectRatio: aspectRatio, scale: f)
        var scale = 1 / f
        if crop.width * f < 1 || crop.height * f < 1 {
            // A crop under one output pixel (a sliver of a tiny or steeply straightened picture): the output cannot
            // be smaller than 1 px, so its pixels cover the crop itself (the one case of upscaling) rather than
            // reaching past it into fill.
            scale = Swift.min(crop.width / Double(out.width), crop.height / Double(out.height))
        }
        let regionSize = Size(width: Double(out.width) * scale, height: Double(out.height) * scale)
        let q = cropContentCenter
        let t: AffineTransform2D
        let region: Rect
        if angle == 0 {
            // Frame and upright picture coincide (and q is the crop's centre).
            var origin = Point(x: q.x - regionSize.width / 2, y: q.y - regionSize.height / 2)
            if scale == 1 {
                // Snap to the pixel grid; the region is no larger than the crop, which lies inside the picture.
                let upright = uprightSize.size
                origin = Point(
                    x: origin.x.rounded().clamped(0, Swift.max(0, upright.width - regionSize.width)),
                    y: origin.y.rounded().clamped(0, Swift.max(0, upright.height - regionSize.height)))
            }
            region = Rect(origin: origin, size: regionSize)
            t = AffineTransform2D(a: scale, b: 0, c: 0, d: scale, tx: origin.x, ty: origin.y)
        } else {
            // output → offsets in the frame from the crop's centre → turned back by −θ → upright, about the
            // content point q: "output → frame → upright" with the frame origin derived from q, written so that the
            // output centre lands on q itself.
            region = Rect(center: crop.center, size: regionSize)
            t = AffineTransform2D(
                a: scale, b: 0, c: 0, d: scale,
                tx: -regionSize.width / 2, ty: -regionSize.height / 2
            )
            .concatenating(.rotation(counterClockwiseOnScreen: -angle * .pi / 180))
            .translatedBy(x: q.x, y: q.y)
        }
        // upright → stored
        let transform = t.concatenating(orientation.inverseTransform(storedSize: sourceSize.size))
        return RenderPlan(
            sourceSize: sourceSize, outputSize: out, transform: transform, orientation: orientation,
            straightenAngle: angle, scale: scale, uprightRect: region)
    }
}
