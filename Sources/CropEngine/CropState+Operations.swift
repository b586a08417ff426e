import CropGeometry

extension CropState {
    // MARK: Straighten

    /// Sets the straighten angle in degrees, counter-clockwise on screen.
    ///
    /// The picture turns about the crop's centre: the content point under it (``cropContentCenter``) stays, and the
    /// crop's frame position follows. Throws `GeometryError.invalidValue(name:value:reason:)` unless `degrees` is
    /// finite and in −45…45. Only the angle changes (the allowed crop is re-derived from the untouched wanted
    /// crop), so setting the angle back restores the state exactly.
    public mutating func setStraightenAngle(_ degrees: Double) throws(GeometryError) {
        try requireFinite(degrees, "straightenAngle")
        guard abs(degrees) <= Self.maximumStraightenAngle else {
            throw .invalidValue(name: "straightenAngle", value: degrees, reason: "must be in −45…45 degrees")
        }
        setAngle(upright: degrees)
    }

    /// Adds `delta` degrees to the straighten angle, stopping at ±45°; the picture turns about the crop's centre.
    public mutating func straighten(by delta: Double) throws(GeometryError) {
        try requireFinite(delta, "delta")
        let limit = Self.maximumStraightenAngle
        setAngle(upright: (straightenAngle + delta).clamped(-limit, limit))
    }

    // MARK: Crop gestures (they act on the crop the user sees, which becomes the wanted crop)

    /// Moves the crop by `delta` (frame pixels, as seen on screen) as far as the picture allows; at an edge it
    /// slides along it. The content point under its centre moves by `delta` turned back by the straighten.
    public mutating func moveCrop(by delta: Point) throws(GeometryError) {
        try requireFinite(delta, "delta")
        let picture = uprightPicture
        let c = crop.center
        let limited = picture.tamed(delta + c) - c
        setWanted(upright: picture.moved(uprightAllowed, by: limited))
    }

    /// Pans the picture under a fixed crop by `delta` frame pixels (the crop moves by `−delta`).
    public mutating func panPicture(by delta: Point) throws(GeometryError) {
        try moveCrop(by: Point(x: -delta.x, y: -delta.y))
    }

    /// Zooms the picture in by `factor` (> 1 zooms in, < 1 out) about `anchor` (frame coordinates): the crop scales
    /// by `1/factor` about the anchor, staying between the minimum size and the largest crop of its proportions
    /// that fits, then moves inside if needed. Unconstrained, the anchor keeps its place in the crop.
    public mutating func zoom(by factor: Double, anchor: Point) throws(GeometryError) {
        try requirePositive(factor, "factor")
        try requireFinite(anchor, "anchor")
        let picture = uprightPicture
        setWanted(
            upright: picture.zoomed(
                uprightAllowed, factor: factor, anchor: picture.tamed(anchor), minimumSide: effectiveMinimumCropSize))
    }

    /// Resizes the crop by dragging `handle` to `point` (frame coordinates); the opposite corner (or, locked on an
    /// edge, the opposite edge's midpoint) stays put. Aspect lock, minimum size and picture apply.
    public mutating func resizeCrop(_ handle: CropHandle, to point: Point) throws(GeometryError) {
        try requireFinite(point, "point")
        let picture = uprightPicture
        setWanted(
            upright: picture.resized(
                uprightAllowed, handle: handle, to: picture.tamed(point), unit: lockUnit,
                minimumSide: effectiveMinimumCropSize))
    }

    /// Replaces the crop by a new one dragged from `start` to `end` (frame coordinates), in whichever quadrant
    /// `end` lies. `start` is first moved into the picture; aspect lock, minimum size and picture apply.
    public mutating func drawCrop(from start: Point, to end: Point) throws(GeometryError) {
        try requireFinite(start, "start")
        try requireFinite(end, "end")
        let picture = uprightPicture
        let anchor = picture.clampPoint(picture.tamed(start))
        let end = picture.tamed(end)
        let desired = Size(width: abs(end.x - anchor.x), height: abs(end.y - anchor.y))
        setWanted(
            upright: picture.cornerCrop(
                anchor: anchor, dx: end.x - anchor.x, dy: end.y - anchor.y, desired: desired, unit: lockUnit,
                minimumSide: effectiveMinimumCropSize))
    }

    /// Sets the wanted crop (frame coordinates, as seen; the content under its centre becomes the crop's content
    /// point). A locked crop is first reduced to the largest crop of the lock's proportions inside `rect`, centred;
    /// a side under the minimum grows about the centre (a locked crop grows uniformly). The allowed crop is then
    /// derived (shrunk, not moved, if `rect` reaches outside the straightened picture).
    public mutating func setCrop(_ rect: Rect) throws(GeometryError) {
        try requireValid(rect, "crop")
        let picture = uprightPicture
        var rect = rect
        let a = picture.tamed(Point(x: rect.minX, y: rect.minY)), b = picture.tamed(Point(x: rect.maxX, y: rect.maxY))
        if a != Point(x: rect.minX, y: rect.minY) || b != Point(x: rect.maxX, y: rect.maxY) {
            // Reaching further out than any fit can use: keep the part within reach (so sizes cannot overflow).
            rect = Rect(x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y)
            guard rect.width > 0, rect.height > 0 else {
                throw .invalidRect("crop lies entirely beyond eight picture sizes from the picture")
            }
        }
        setWanted(uprightFrame: Rect(center: rect.center, size: wantedSize(inside: rect.size, unit: lockUnit)))
    }

    /// The size a crop set inside `bounds` wants: with a lock (`unit`, its proportions along the same axes), the
    /// largest of them inside `bounds`; free, `bounds` itself. A side under the minimum grows (a locked crop
    /// uniformly).
    package func wantedSize(inside bounds: Size, unit: Size?) -> Size {
        let m = effectiveMinimumCropSize
        guard let unit else { return Size(width: Swift.max(bounds.width, m), height: Swift.max(bounds.height, m)) }
        let k = Swift.max(
            Swift.min(bounds.width / unit.width, bounds.height / unit.height),
            m / unit.width, m / unit.height)
        return unit * k
    }

    /// Makes the crop the whole picture again (the largest crop of the lock's proportions, centred), keeping
    /// angle, turns, flips and lock. This is what a tap outside the crop does.
    public mutating func resetCrop() {
        let whole = ContentCrop(whole: Rect(size: uprightSize.size))
        guard let unit = lockUnit else { return setWanted(upright: whole) }
        let k = Swift.min(whole.size.width / unit.width, whole.size.height / unit.height)
        setWanted(upright: ContentCrop(center: whole.center, size: unit * k))
    }

    /// Back to the untouched state: no turn, flip or straighten, no lock, the whole picture.
    public mutating func reset() {
        setUserOrientation(.up)
        setLock(.free)
        setAngle(upright: 0)
        setWanted(oriented: ContentCrop(whole: Rect(size: orientedSize.size)))
    }

    // MARK: Turns and flips

    /// Turns the picture a quarter turn; the same region stays selected. `aspectPolicy` says what happens to a W:H
    /// lock (see ``RotationAspectPolicy``); it has no default on purpose.
    public mutating func rotate(_ direction: QuarterTurn, aspectPolicy: RotationAspectPolicy) {
        let previousRatio = aspectRatio
        setUserOrientation(
            direction == .clockwise
                ? userOrientation.rotatedClockwise() : userOrientation.rotatedCounterClockwise())
        // The stored (oriented) crops and angle are untouched: the same region stays selected.
        switch (aspectPolicy, aspectLock) {
        case (_, .free):
            break
        case (.followPicture, .original):
            break
        case (.followPicture, .ratio(let r)):
            setLock(.ratio(r.transposed))
        case (.keepOutputRatio, _):
            guard let ratio = previousRatio else { break }
            setLock(.ratio(ratio))  // `.original` becomes the explicit pre-turn ratio
            let turned = uprightWanted
            let unit = Size(width: Double(ratio.width), height: Double(ratio.height))
            let k = (turned.size.area / unit.area).squareRoot()
            setWanted(upright: ContentCrop(center: turned.center, size: unit * k))
        }
    }

    /// Mirrors the picture as seen on screen; the same region stays selected and the straighten angle changes sign
    /// (a mirrored counter-clockwise turn is a clockwise one). Flipping twice restores the state exactly.
    public mutating func flip(_ axis: FlipAxis) {
        setUserOrientation(
            axis == .horizontal
                ? userOrientation.flippedHorizontally() : userOrientation.flippedVertically())
    }

    // MARK: Aspect

    /// Sets the aspect lock. A ratio lock makes the crop the largest crop of that ratio in the straightened
    /// picture, centred on the current crop's content point as far as the picture allows. `.free` keeps the crop.
    public mutating func setAspectLock(_ lock: AspectLock) {
        setLock(lock)
        guard let unit = lockUnit else { return }
        setWanted(upright: uprightPicture.largestCrop(unit: unit, near: cropContentCenter))
    }

    /// Sets the aspect lock keeping the person's framing, as an editor's aspect presets do: a ratio lock makes the
    /// crop the largest crop of that ratio inside the current one, around its centre (it touches two opposite sides
    /// of the current crop); `.free` keeps the crop. ``setAspectLock(_:)`` instead takes the largest crop of the
    /// ratio in the whole picture.
    public mutating func fitAspectLock(_ lock: AspectLock) {
        let current = uprightAllowed
        setLock(lock)
        guard let unit = lockUnit else { return }
        let k = min(current.size.width / unit.width, current.size.height / unit.height)
        setWanted(upright: ContentCrop(center: current.center, size: unit * k))
    }

    /// Exchanges the lock's terms (3:2 becomes 2:3; `.original` becomes the transposed picture ratio) and fits the
    /// crop as ``setAspectLock(_:)`` does. Does nothing when free.
    public mutating func swapAspect() {
        guard let ratio = aspectRatio else { return }
        setAspectLock(.ratio(ratio.transposed))
    }

    // MARK: Queries

    /// Whether the crop can move at least `distance` frame pixels in some direction (a crop that fills the
    /// picture cannot).
    public func canMoveCrop(by distance: Double = 0.5) -> Bool {
        let picture = uprightPicture, c = crop
        let e = picture.halfExtents(of: c.size)
        return uprightSize.size.width / 2 - e.x >= distance || uprightSize.size.height / 2 - e.y >= distance
    }
}
