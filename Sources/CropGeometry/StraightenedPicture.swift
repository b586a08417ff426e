/// A picture rectangle turned about its centre: the region a crop must stay inside. All the closed-form crop
/// mathematics lives here.
///
/// Two coordinate systems share the same origin and units:
/// - *picture* coordinates, in which the picture is the axis-aligned ``bounds``;
/// - *frame* coordinates, the picture turned counter-clockwise on screen by θ about its centre. A crop is an
///   axis-aligned rectangle in the frame.
///
/// A crop `(c, w, h)` is inside the picture exactly when, with `c' = R(−θ)(c − centre)` and
/// `ex = (w/2)|cos θ| + (h/2)|sin θ|`, `ey = (w/2)|sin θ| + (h/2)|cos θ|` (the half-extents of the crop turned back
/// into the picture), `|c'x| + ex ≤ W/2` and `|c'y| + ey ≤ H/2`. Both are linear in a uniform scale of the crop and
/// in a translation, so every fit below is a closed-form expression; none iterates.
struct StraightenedPicture: Sendable {
    /// The picture, axis-aligned, in picture coordinates.
    let bounds: Rect
    /// cos θ and sin θ, θ counter-clockwise on screen. Exactly 1 and 0 when θ is 0.
    let cosine: Double
    let sine: Double

    /// A scale this close to 1 counts as 1, so a crop that touches the picture edge is not shrunk by rounding noise.
    static let unitScaleTolerance = 1e-12

    init(bounds: Rect, angleDegrees: Double) {
        self.bounds = bounds
        if angleDegrees == 0 {
            (cosine, sine) = (1, 0)
        } else {
            let radians = angleDegrees * .pi / 180
            (cosine, sine) = (cos(radians), sin(radians))
        }
    }

    var center: Point { bounds.center }
    var isAxisAligned: Bool { sine == 0 }

    // MARK: Coordinates

    /// Frame → picture: turns clockwise on screen by θ about the centre.
    func toPicture(_ q: Point) -> Point {
        if isAxisAligned { return q }
        let (dx, dy) = (q.x - center.x, q.y - center.y)
        return Point(x: center.x + cosine * dx - sine * dy, y: center.y + sine * dx + cosine * dy)
    }

    /// Picture → frame: turns counter-clockwise on screen by θ about the centre.
    func toFrame(_ p: Point) -> Point {
        if isAxisAligned { return p }
        let (dx, dy) = (p.x - center.x, p.y - center.y)
        return Point(x: center.x + cosine * dx + sine * dy, y: center.y - sine * dx + cosine * dy)
    }

    /// The linear part of ``toPicture(_:)``, for direction vectors.
    func vectorToPicture(_ v: Point) -> Point {
        Point(x: cosine * v.x - sine * v.y, y: sine * v.x + cosine * v.y)
    }

    /// The half-extents, along the picture's axes, of a crop of `size` turned back into the picture.
    func halfExtents(of size: Size) -> (x: Double, y: Double) {
        let (a, b) = (size.width / 2, size.height / 2)
        let (c, s) = (abs(cosine), abs(sine))
        return (a * c + b * s, a * s + b * c)
    }

    // MARK: Constraint

    /// Whether all four corners of `rect`, turned back into the picture, lie inside it within `tolerance`.
    func contains(_ rect: Rect, tolerance: Double) -> Bool {
        rect.corners.allSatisfy { corner in
            let p = toPicture(corner)
            return p.x >= bounds.minX - tolerance && p.x <= bounds.maxX + tolerance
                && p.y >= bounds.minY - tolerance && p.y <= bounds.maxY + tolerance
        }
    }

    /// The largest factor `s` such that the crop centred at `center` with size `s·size` is inside the picture
    /// (negative when the centre itself is outside).
    func scaleBound(center c: Point, size: Size) -> Double {
        let p = toPicture(c)
        let e = halfExtents(of: size)
        let sx = (bounds.width / 2 - abs(p.x - center.x)) / e.x
        let sy = (bounds.height / 2 - abs(p.y - center.y)) / e.y
        return Swift.min(sx, sy)
    }

    /// `side`, capped at the side of the largest square that fits: `min(W, H) / (|cos θ| + |sin θ|)`.
    func largestSquareSide(capping side: Double) -> Double {
        Swift.min(side, Swift.min(bounds.width, bounds.height) / (abs(cosine) + abs(sine)))
    }

    /// The largest factor `s` such that a crop of size `s·size` fits anywhere (it then fits centred).
    func largestScale(for size: Size) -> Double {
        let e = halfExtents(of: size)
        return Swift.min(bounds.width / 2 / e.x, bounds.height / 2 / e.y)
    }

    /// The nearest centre to `c` at which a crop of `size` is inside the picture. Feasible centres form a box in
    /// picture coordinates, so the nearest one is a clamp there (the turn is an isometry). A crop too large to fit
    /// anywhere is centred on that axis. `c` is returned unchanged when it already fits.
    func clampCenter(_ c: Point, size: Size) -> Point {
        let e = halfExtents(of: size)
        let limitX = Swift.max(0, bounds.width / 2 - e.x), limitY = Swift.max(0, bounds.height / 2 - e.y)
        let p = toPicture(c)
        let (dx, dy) = (p.x - center.x, p.y - center.y)
        if abs(dx) <= limitX && abs(dy) <= limitY { return c }
        if isAxisAligned {
            // Clamp in place so an axis that needs no clamping keeps its exact value.
            return Point(
                x: abs(dx) <= limitX ? c.x : center.x + dx.clamped(-limitX, limitX),
                y: abs(dy) <= limitY ? c.y : center.y + dy.clamped(-limitY, limitY))
        }
        return toFrame(Point(x: center.x + dx.clamped(-limitX, limitX), y: center.y + dy.clamped(-limitY, limitY)))
    }

    /// The nearest point to `q` inside the picture (in frame coordinates).
    func clampPoint(_ q: Point) -> Point {
        let p = toPicture(q)
        if bounds.contains(p) { return q }
        return toFrame(Point(x: p.x.clamped(bounds.minX, bounds.maxX), y: p.y.clamped(bounds.minY, bounds.maxY)))
    }

    /// `q` with each coordinate limited to within eight picture sizes of the picture. Every fit clamps to the
    /// picture, so a point further out has no different effect, and limiting it keeps astronomically far (but
    /// finite) input from overflowing to infinity inside the fits.
    func tamed(_ q: Point) -> Point {
        let reach = 8 * Swift.max(bounds.width, bounds.height, 1)
        return Point(x: q.x.clamped(bounds.minX - reach, bounds.maxX + reach),
                     y: q.y.clamped(bounds.minY - reach, bounds.maxY + reach))
    }

    /// For a crop whose corners move as `corners[i] + t·velocities[i]`, the largest `t` in `0...1` that keeps every
    /// corner inside the picture, assuming `t = 0` is inside (0 when it is not).
    func largestStep(corners: [Point], velocities: [Point]) -> Double {
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

    /// The *allowed* crop for a *wanted* one: the wanted crop scaled about its centre by the smallest factor that
    /// puts it inside the picture, `s = min(1, scaleBound)`. When that would leave a side under `minimumSide`, it
    /// takes the minimum size instead (or the largest of its proportions that fits, if that is smaller) and its
    /// centre moves the shortest way to where that size fits. A wanted crop under the minimum therefore grows to it.
    func allowedCrop(wanted: Rect, minimumSide: Double) -> Rect {
        let size = wanted.size
        var s = Swift.min(1, scaleBound(center: wanted.center, size: size))
        if s >= 1 - Self.unitScaleTolerance { s = 1 }
        let floor = Swift.min(
            Swift.max(minimumSide / size.width, minimumSide / size.height), largestScale(for: size))
        if s >= floor - Self.unitScaleTolerance {
            return s == 1 ? wanted : Rect(center: wanted.center, size: size * s)
        }
        let newSize = size * floor
        return Rect(center: clampCenter(wanted.center, size: newSize), size: newSize)
    }

    /// `rect` made feasible by the smallest change: moved the shortest way if it fits somewhere, else also shrunk.
    func settle(_ rect: Rect, minimumSide: Double) -> Rect {
        let moved = Rect(center: clampCenter(rect.center, size: rect.size), size: rect.size)
        return allowedCrop(wanted: moved, minimumSide: minimumSide)
    }

    /// The largest crop with the proportions of `unit` that fits, centred as near to `near` as it can be.
    func largestCrop(unit: Size, near: Point) -> Rect {
        let size = unit * largestScale(for: unit)
        return Rect(center: clampCenter(near, size: size), size: size)
    }

    /// `rect` moved by `delta` as far as the picture allows; it slides along an edge it meets.
    func moved(_ rect: Rect, by delta: Point) -> Rect {
        let target = Point(x: rect.midX + delta.x, y: rect.midY + delta.y)
        return Rect(center: clampCenter(target, size: rect.size), size: rect.size)
    }

    /// `rect` scaled by `1/factor` about `anchor` (zooming the picture in by `factor`), its size kept between the
    /// minimum side and the largest that fits, its centre then clamped inside.
    func zoomed(_ rect: Rect, factor: Double, anchor: Point, minimumSide: Double) -> Rect {
        let lower = Swift.min(1, Swift.max(minimumSide / rect.width, minimumSide / rect.height))
        let upper = Swift.max(lower, largestScale(for: rect.size))
        let s = (1 / factor).clamped(lower, upper)
        let center = Point(x: anchor.x + (rect.midX - anchor.x) * s, y: anchor.y + (rect.midY - anchor.y) * s)
        return settle(Rect(center: center, size: rect.size * s), minimumSide: minimumSide)
    }

    /// A crop with one corner at `anchor`, extending right if `dx > 0` (left otherwise) and down if `dy > 0`, as
    /// near as the picture allows to `desired` (its size before the minimum side and fitting).
    ///
    /// With `unit` (an aspect lock), the crop is `k·unit` with the smallest `k` that reaches `desired` on both axes.
    /// Free, each side first follows `desired` independently as far as the picture allows (so at θ = 0 an axis never
    /// limits the other), then both shrink together towards the minimum until the corners are inside.
    func cornerCrop(anchor: Point, dx: Double, dy: Double, desired: Size, unit: Size?, minimumSide m: Double) -> Rect {
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
            let t = step(kMin * unit.width, kMin * unit.height, (kWanted - kMin) * unit.width,
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
        return settle(result, minimumSide: m)
    }

    /// `rect` resized by dragging `handle` to `target`, the opposite corner or edge staying put.
    ///
    /// Locked, an edge handle scales the crop about the midpoint of the opposite edge; a corner handle as
    /// ``cornerCrop(anchor:dx:dy:desired:unit:minimumSide:)``. A handle dragged past the opposite side stops at the
    /// minimum size (the crop does not flip over).
    func resized(_ rect: Rect, handle: CropHandle, to target: Point, unit: Size?, minimumSide m: Double) -> Rect {
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
            minLength = horizontal
                ? Swift.max(m, m * unit.width / unit.height) : Swift.max(m, m * unit.height / unit.width)
        } else {
            minLength = m
        }
        let goal = Swift.max(minLength, wantedLength)
        let r0 = makeRect(minLength), r1 = makeRect(goal)
        let velocities = zip(r1.corners, r0.corners).map { Point(x: $0.x - $1.x, y: $0.y - $1.y) }
        let t = largestStep(corners: r0.corners, velocities: velocities)
        return settle(makeRect(minLength + t * (goal - minLength)), minimumSide: m)
    }
}

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
