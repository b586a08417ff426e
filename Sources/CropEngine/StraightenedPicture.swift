import CropGeometry

/// A picture rectangle turned about its centre: the region a crop must stay inside. All the closed-form crop
/// mathematics lives here.
///
/// Two coordinate systems share the same origin and units:
/// - *picture* coordinates, in which the picture is the axis-aligned ``bounds``;
/// - *frame* coordinates, the picture turned counter-clockwise on screen by θ about its centre. A crop is an
///   axis-aligned rectangle in the frame.
///
/// Crops are ``ContentCrop``s: a content point `q` (picture coordinates) and a size. Gestures that are naturally
/// axis-aligned in the frame (resize, draw) work on the frame rectangle ``frameRect(_:)`` and convert back; every
/// fit that only moves or scales a crop works on `q` directly, so a crop that needs no change keeps its exact
/// numbers at any angle.
///
/// A crop `(q, w, h)` is inside the picture exactly when, with `q' = q − centre` and
/// `ex = (w/2)|cos θ| + (h/2)|sin θ|`, `ey = (w/2)|sin θ| + (h/2)|cos θ|` (the half-extents of the crop turned back
/// into the picture), `|q'x| + ex ≤ W/2` and `|q'y| + ey ≤ H/2`. Both are linear in a uniform scale of the crop and
/// in a translation, so every fit below is a closed-form expression; none iterates.
package struct StraightenedPicture: Sendable {
    /// The picture, axis-aligned, in picture coordinates.
    package let bounds: Rect
    /// cos θ and sin θ, θ counter-clockwise on screen. Exactly 1 and 0 when θ is 0.
    package let cosine: Double
    package let sine: Double

    /// A scale this close to 1 counts as 1, so a crop that touches the picture edge is not shrunk by rounding noise.
    package static let unitScaleTolerance = 1e-12

    package init(bounds: Rect, angleDegrees: Double) {
        self.bounds = bounds
        if angleDegrees == 0 {
            (cosine, sine) = (1, 0)
        } else {
            let radians = angleDegrees * .pi / 180
            (cosine, sine) = (EngineMath.cos(radians), EngineMath.sin(radians))
        }
    }

    package var center: Point { bounds.center }
    package var isAxisAligned: Bool { sine == 0 }

    // MARK: Coordinates

    /// Frame → picture: turns clockwise on screen by θ about the centre.
    package func toPicture(_ q: Point) -> Point {
        if isAxisAligned { return q }
        let (dx, dy) = (q.x - center.x, q.y - center.y)
        return Point(x: center.x + cosine * dx - sine * dy, y: center.y + sine * dx + cosine * dy)
    }

    /// Picture → frame: turns counter-clockwise on screen by θ about the centre.
    package func toFrame(_ p: Point) -> Point {
        if isAxisAligned { return p }
        let (dx, dy) = (p.x - center.x, p.y - center.y)
        return Point(x: center.x + cosine * dx + sine * dy, y: center.y - sine * dx + cosine * dy)
    }

    /// The linear part of ``toPicture(_:)``, for direction vectors.
    package func vectorToPicture(_ v: Point) -> Point {
        Point(x: cosine * v.x - sine * v.y, y: sine * v.x + cosine * v.y)
    }

    /// The linear part of ``toFrame(_:)``.
    package func vectorToFrame(_ v: Point) -> Point {
        Point(x: cosine * v.x + sine * v.y, y: -sine * v.x + cosine * v.y)
    }

    /// The crop's axis-aligned rectangle in the frame.
    package func frameRect(_ crop: ContentCrop) -> Rect {
        Rect(center: toFrame(crop.center), size: crop.size)
    }

    /// The crop whose frame rectangle is `rect`.
    package func contentCrop(frame rect: Rect) -> ContentCrop {
        ContentCrop(center: toPicture(rect.center), size: rect.size)
    }

    /// The half-extents, along the picture's axes, of a crop of `size` turned back into the picture.
    package func halfExtents(of size: Size) -> (x: Double, y: Double) {
        let (a, b) = (size.width / 2, size.height / 2)
        let (c, s) = (abs(cosine), abs(sine))
        return (a * c + b * s, a * s + b * c)
    }

    // MARK: Constraint

    /// Whether all four corners of `rect` (frame coordinates), turned back into the picture, lie inside it within
    /// `tolerance`.
    package func contains(_ rect: Rect, tolerance: Double) -> Bool {
        rect.corners.allSatisfy { inside(toPicture($0), tolerance: tolerance) }
    }

    /// Whether all four corners of `crop` lie inside the picture within `tolerance` (computed from its content
    /// point, without a round trip through the frame).
    package func contains(_ crop: ContentCrop, tolerance: Double) -> Bool {
        let (a, b) = (crop.size.width / 2, crop.size.height / 2)
        // The crop's half-axes turned back into the picture.
        let u = vectorToPicture(Point(x: a, y: 0)), v = vectorToPicture(Point(x: 0, y: b))
        return [u + v, u - v, v - u, Point.zero - u - v].allSatisfy {
            inside(crop.center + $0, tolerance: tolerance)
        }
    }

    private func inside(_ p: Point, tolerance: Double) -> Bool {
        p.x >= bounds.minX - tolerance && p.x <= bounds.maxX + tolerance
            && p.y >= bounds.minY - tolerance && p.y <= bounds.maxY + tolerance
    }

    /// The largest factor `s` such that the crop with content point `q` and size `s·size` is inside the picture
    /// (negative when `q` itself is outside).
    package func scaleBound(center q: Point, size: Size) -> Double {
        let e = halfExtents(of: size)
        let sx = (bounds.width / 2 - abs(q.x - center.x)) / e.x
        let sy = (bounds.height / 2 - abs(q.y - center.y)) / e.y
        return Swift.min(sx, sy)
    }

    /// `side`, capped at the side of the largest square that fits: `min(W, H) / (|cos θ| + |sin θ|)`.
    package func largestSquareSide(capping side: Double) -> Double {
        Swift.min(side, Swift.min(bounds.width, bounds.height) / (abs(cosine) + abs(sine)))
    }

    /// The largest factor `s` such that a crop of size `s·size` fits anywhere (it then fits centred).
    package func largestScale(for size: Size) -> Double {
        let e = halfExtents(of: size)
        return Swift.min(bounds.width / 2 / e.x, bounds.height / 2 / e.y)
    }

    /// The nearest content point to `q` at which a crop of `size` is inside the picture. Feasible content points
    /// form an axis-aligned box in picture coordinates, so the nearest one is a clamp (and since the straighten is
    /// an isometry it is also the nearest frame position). A crop too large to fit anywhere is centred on that
    /// axis. Each coordinate that needs no clamping is returned unchanged, bit for bit.
    package func clampCenter(_ q: Point, size: Size) -> Point {
        let e = halfExtents(of: size)
        let limitX = Swift.max(0, bounds.width / 2 - e.x), limitY = Swift.max(0, bounds.height / 2 - e.y)
        let (dx, dy) = (q.x - center.x, q.y - center.y)
        return Point(
            x: abs(dx) <= limitX ? q.x : center.x + dx.clamped(-limitX, limitX),
            y: abs(dy) <= limitY ? q.y : center.y + dy.clamped(-limitY, limitY))
    }

    /// The nearest point to `f` (frame coordinates) inside the picture, in frame coordinates.
    package func clampPoint(_ f: Point) -> Point {
        let p = toPicture(f)
        if bounds.contains(p) { return f }
        return toFrame(Point(x: p.x.clamped(bounds.minX, bounds.maxX), y: p.y.clamped(bounds.minY, bounds.maxY)))
    }

    /// `q` with each coordinate limited to within eight picture sizes of the picture. Every fit clamps to the
    /// picture, so a point further out has no different effect, and limiting it keeps astronomically far (but
    /// finite) input from overflowing to infinity inside the fits. (The frame and the picture share their centre,
    /// so the limit serves both coordinate systems.)
    package func tamed(_ q: Point) -> Point {
        let reach = 8 * Swift.max(bounds.width, bounds.height, 1)
        return Point(
            x: q.x.clamped(bounds.minX - reach, bounds.maxX + reach),
            y: q.y.clamped(bounds.minY - reach, bounds.maxY + reach))
    }

    /// For a crop whose corners move as `corners[i] + t·velocities[i]`, the largest `t` in `0...1` that keeps every
    /// corner inside the picture, assuming `t = 0` is inside (0 when it is not).
    package func largestStep(corners: [Point], velocities: [Point]) -> Double {
        var t = 1.0
        for (q, v) in zip(corners, velocities) {
            let p = toPicture(q), dv = vectorToPicture(v)
            for (p0, d, lo, hi) in [(p.x, dv.x, bounds.minX, bounds.maxX), (p.y, dv.y, bounds.minY, bounds.maxY)] {
                if d > 0 {
                    t = Swift.min(t, (hi - p0) / d)
                } else if d < 0 {
                    t = Swift.min(t, (lo - p0) / d)
                }
            }
        }
        return Swift.max(0, t)
    }

    // MARK: Fits

    /// The *allowed* crop for a *wanted* one: the wanted crop scaled about its content point by the smallest factor
    /// that puts it inside the picture, `s = min(1, scaleBound)`. When that would leave a side under `minimumSide`,
    /// it takes the minimum size instead (or the largest of its proportions that fits, if that is smaller) and its
    /// content point moves the shortest way to where that size fits. A wanted crop under the minimum therefore
    /// grows to it.
    package func allowedCrop(wanted: ContentCrop, minimumSide: Double) -> ContentCrop {
        let size = wanted.size
        var s = Swift.min(1, scaleBound(center: wanted.center, size: size))
        if s >= 1 - Self.unitScaleTolerance { s = 1 }
        let floor = Swift.min(
            Swift.max(minimumSide / size.width, minimumSide / size.height), largestScale(for: size))
        if s >= floor - Self.unitScaleTolerance {
            return s == 1 ? wanted : ContentCrop(center: wanted.center, size: size * s)
        }
        let newSize = size * floor
        return ContentCrop(center: clampCenter(wanted.center, size: newSize), size: newSize)
    }

    /// `crop` made feasible by the smallest change: moved the shortest way if it fits somewhere, else also shrunk.
    package func settle(_ crop: ContentCrop, minimumSide: Double) -> ContentCrop {
        let moved = ContentCrop(center: clampCenter(crop.center, size: crop.size), size: crop.size)
        return allowedCrop(wanted: moved, minimumSide: minimumSide)
    }

    /// The frame rectangle `rect` made feasible by the smallest change (see ``settle(_:minimumSide:)``).
    package func settle(frame rect: Rect, minimumSide: Double) -> ContentCrop {
        settle(contentCrop(frame: rect), minimumSide: minimumSide)
    }

    /// The largest crop with the proportions of `unit` that fits, its content point as near to `near` (picture
    /// coordinates) as it can be.
    package func largestCrop(unit: Size, near: Point) -> ContentCrop {
        let size = unit * largestScale(for: unit)
        return ContentCrop(center: clampCenter(near, size: size), size: size)
    }

    /// `crop` moved by `delta` (frame coordinates, so its content point moves by `R(−θ)·delta`) as far as the
    /// picture allows; it slides along an edge it meets.
    package func moved(_ crop: ContentCrop, by delta: Point) -> ContentCrop {
        let target = crop.center + vectorToPicture(delta)
        return ContentCrop(center: clampCenter(target, size: crop.size), size: crop.size)
    }

    /// `crop` scaled by `1/factor` about `anchor` (frame coordinates; zooming the picture in by `factor`), its size
    /// kept between the minimum side and the largest that fits, its content point then clamped inside.
    package func zoomed(_ crop: ContentCrop, factor: Double, anchor: Point, minimumSide: Double) -> ContentCrop {
        let size = crop.size
        let lower = Swift.min(1, Swift.max(minimumSide / size.width, minimumSide / size.height))
        let upper = Swift.max(lower, largestScale(for: size))
        let s = (1 / factor).clamped(lower, upper)
        // Scaling about a point commutes with the turn, so it can be done on content points.
        let a = toPicture(anchor), q = crop.center
        let center = Point(x: a.x + (q.x - a.x) * s, y: a.y + (q.y - a.y) * s)
        return settle(ContentCrop(center: center, size: size * s), minimumSide: minimumSide)
    }

    /// A crop with one corner at `anchor` (frame coordinates), extending right if `dx > 0` (left otherwise) and down
    /// if `dy > 0`, as near as the picture allows to `desired` (its size before the minimum side and fitting).
    ///
    /// With `unit` (an aspect lock), the crop is `k·unit` with the smallest `k` that reaches `desired` on both axes.
    /// Free, each side first follows `desired` independently as far as the picture allows (so at θ = 0 an axis never
    /// limits the other), then both shrink together towards the minimum until the corners are inside.
    package func cornerCrop(anchor: Point, dx: Double, dy: Double, desired: Size, unit: Size?, minimumSide m: Double)
        -> ContentCrop
    {
        let sx = dx > 0 ? 1.0 : -1.0, sy = dy > 0 ? 1.0 : -1.0
        func rect(_ w: Double, _ h: Double) -> Rect {
            Rect(x: sx > 0 ? anchor.x : anchor.x - w, y: sy > 0 ? anchor.y : anchor.y - h, width: w, height: h)
        }
        // Corners of `rect(w0 + t·dw, h0 + t·dh)` and their velocities along t, in the order of `Rect.corners`.
        func step(_ w0: Double, _ h0: Double, _ dw: Double, _ dh: Double) -> Double {
            let r = rect(w0, h0)
            let vx = Point(x: sx * dw, y: 0), vy = Point(x: 0, y: sy * dh), zero = Point.zero
            let left = sx > 0 ? zero : vx, right = sx > 0 ? vx : zero
            let top = sy > 0 ? zero : vy, bottom = sy > 0 ? vy : zero
            return largestStep(
                corners: r.corners, velocities: [left + top, right + top, right + bottom, left + bottom])
        }
        let result: Rect
        if let unit {
            let kMin = Swift.max(m / unit.width, m / unit.height)
            let kWanted = Swift.max(kMin, desired.width / unit.width, desired.height / unit.height)
            let t = step(
                kMin * unit.width, kMin * unit.height, (kWanted - kMin) * unit.width,
                (kWanted - kMin) * unit.height)
            let k = kMin + t * (kWanted - kMin)
            result = rect(k * unit.width, k * unit.height)
        } else {
            let wWanted = Swift.max(m, desired.width), hWanted = Swift.max(m, desired.height)
            let w1 = m + step(m, m, wWanted - m, 0) * (wWanted - m)
            let h1 = m + step(m, m, 0, hWanted - m) * (hWanted - m)
            let t = step(m, m, w1 - m, h1 - m)
            result = rect(m + t * (w1 - m), m + t * (h1 - m))
        }
        return settle(frame: result, minimumSide: m)
    }

    /// `crop` resized by dragging `handle` to `target` (frame coordinates), the opposite corner or edge staying put.
    ///
    /// Locked, an edge handle scales the crop about the midpoint of the opposite edge; a corner handle as
    /// ``cornerCrop(anchor:dx:dy:desired:unit:minimumSide:)``. A handle dragged past the opposite side stops at the
    /// minimum size (the crop does not flip over).
    package func resized(_ crop: ContentCrop, handle: CropHandle, to target: Point, unit: Size?, minimumSide m: Double)
        -> ContentCrop
    {
        let rect = frameRect(crop)
        let hx = Double(handle.horizontalDirection), hy = Double(handle.verticalDirection)
        if handle.isCorner {
            let anchor = Point(x: rect.midX - hx * rect.width / 2, y: rect.midY - hy * rect.height / 2)
            let desired = Size(width: hx * (target.x - anchor.x), height: hy * (target.y - anchor.y))
            return cornerCrop(anchor: anchor, dx: hx, dy: hy, desired: desired, unit: unit, minimumSide: m)
        }
        // Edge: the length along the drag axis follows the target; the other keeps its extent (free) or follows
        // the ratio about the opposite edge's midpoint (locked).
        let horizontal = hx != 0
        let anchorCoordinate = horizontal ? rect.midX - hx * rect.width / 2 : rect.midY - hy * rect.height / 2
        let direction = horizontal ? hx : hy
        let wantedLength = direction * ((horizontal ? target.x : target.y) - anchorCoordinate)
        func makeRect(_ length: Double) -> Rect {
            let start = direction > 0 ? anchorCoordinate : anchorCoordinate - length
            if let unit {
                let across = length * (horizontal ? unit.height / unit.width : unit.width / unit.height)
                return horizontal
                    ? Rect(x: start, y: rect.midY - across / 2, width: length, height: across)
                    : Rect(x: rect.midX - across / 2, y: start, width: across, height: length)
            }
            return horizontal
                ? Rect(x: start, y: rect.minY, width: length, height: rect.height)
                : Rect(x: rect.minX, y: start, width: rect.width, height: length)
        }
        let minLength: Double
        if let unit {
            minLength =
                horizontal
                ? Swift.max(m, m * unit.width / unit.height) : Swift.max(m, m * unit.height / unit.width)
        } else {
            minLength = m
        }
        let goal = Swift.max(minLength, wantedLength)
        let r0 = makeRect(minLength), r1 = makeRect(goal)
        let velocities = zip(r1.corners, r0.corners).map { Point(x: $0.x - $1.x, y: $0.y - $1.y) }
        let t = largestStep(corners: r0.corners, velocities: velocities)
        return settle(frame: makeRect(minLength + t * (goal - minLength)), minimumSide: m)
    }
}
