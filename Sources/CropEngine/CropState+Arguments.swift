import CropGeometry

extension CropState {
    /// A state built in one step from command-line style arguments (`--rect`, `--rotate`, `--flip`, `--straighten`,
    /// `--aspect`).
    ///
    /// The arguments apply in this order, each in the coordinates a person sees at that step:
    /// 1. **Crop.** `crop` is a rectangle of the *displayed* picture (after the EXIF `orientation`, before any turn or
    ///    flip), in its pixels. With an `aspect` W:H (or `.original`) the crop is the largest rectangle of that ratio
    ///    inside `crop`, centred on it; without one it is `crop` as given (the lock stays `.free`). With no `crop` it
    ///    is the largest rectangle of `aspect` centred in the picture; `aspect` then defaults to `.original` (the
    ///    displayed picture's ratio), so the output keeps the picture's exact proportions.
    /// 2. **Turns and flips.** `quarterTurns` clockwise quarter turns (any whole number; negative turns
    ///    counter-clockwise), then `flipHorizontal`, then `flipVertical`. They keep the same region selected
    ///    (``RotationAspectPolicy/followPicture``), so a W:H lock turns with the picture (16:9 becomes 9:16 after an
    ///    odd number of turns).
    /// 3. **Straighten.** `straighten` degrees, counter-clockwise as seen in the *output* (after the turns and flips).
    ///    The picture turns about the crop's centre: the content at the centre of `crop` stays at the output's
    ///    centre, the aspect is kept, and the crop shrinks by the smallest factor that leaves no fill pixels.
    ///
    /// The result is the same state an editor reaches by the same steps, so it renders with
    /// ``renderPlan(maximumOutputSize:)`` and saves with ``recipe``.
    ///
    /// Throws `GeometryError` naming the bad argument: `GeometryError.invalidRect(_:)` (`"crop …"`) for a
    /// rectangle that is not finite, is empty, or reaches outside the displayed picture;
    /// `GeometryError.invalidValue(name:value:reason:)` named `"straighten"` for an angle that is not finite or is
    /// outside −45…45, or `"minimumCropSize"`; `GeometryError.invalidSize(_:)` for a source too large.
    ///
    /// - Parameters:
    ///   - sourceSize: the stored image's size.
    ///   - orientation: its EXIF orientation (stored → displayed).
    ///   - crop: the rectangle to keep, in displayed-picture pixels, or `nil` for the whole picture.
    ///   - quarterTurns: clockwise quarter turns after the crop.
    ///   - flipHorizontal: mirror left–right after the turns.
    ///   - flipVertical: mirror top–bottom after that.
    ///   - straighten: degrees, counter-clockwise in the output, −45…45.
    ///   - aspect: the aspect lock (see step 1 for `nil`).
    ///   - minimumCropSize: the smallest crop side in source pixels.
    public init(
        sourceSize: PixelSize, orientation: Orientation = .up, crop: Rect?, quarterTurns: Int = 0,
        flipHorizontal: Bool = false, flipVertical: Bool = false, straighten: Double = 0, aspect: AspectLock? = nil,
        minimumCropSize: Double = 1
    ) throws(GeometryError) {
        try self.init(sourceSize: sourceSize, orientation: orientation, minimumCropSize: minimumCropSize)
        guard straighten.isFinite, abs(straighten) <= Self.maximumStraightenAngle else {
            throw .invalidValue(
                name: "straighten", value: straighten, reason: "must be a number of degrees in −45…45")
        }
        let displayed = orientedSize
        if let crop {
            try requireValid(crop, "crop")
            guard crop.minX >= 0, crop.minY >= 0, crop.maxX <= Double(displayed.width),
                crop.maxY <= Double(displayed.height)
            else {
                throw .invalidRect("crop \(crop) reaches outside the \(displayed) displayed picture")
            }
        }
        // No turns or flips yet: the upright picture is the displayed one.
        setLock(aspect ?? (crop == nil ? .original : .free))
        if let crop {
            try setCrop(crop)
        } else {
            resetCrop()
        }
        for _ in 0..<(((quarterTurns % 4) + 4) % 4) { rotate(.clockwise, aspectPolicy: .followPicture) }
        if flipHorizontal { flip(.horizontal) }
        if flipVertical { flip(.vertical) }
        try setStraightenAngle(straighten)
    }
}
