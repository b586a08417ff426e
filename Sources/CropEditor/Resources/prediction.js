// CropKit editor: the page's local model. It draws a gesture in the frame its input arrives, before the server's
// CropSession answers, and holds no other crop mathematics. Every function here is the view-coordinate form of
// one engine rule (CropEngine's StraightenedPicture and DisplayLayout), applied to the last state the server sent:
// a move or pan slides along the picture's edges, a handle resize stops at them (free: each side as far as it may,
// locked: along the lock's diagonal) and at the minimum side, a draw grows from the press point clamped into the
// picture, a zoom about a point is kept between the minimum side and the largest crop that fits, a straighten turns
// the picture about the box's centre and zooms just enough to keep the box free of fill, and a gesture's end
// re-fits the box to the stage. What it draws is replaced by the server's state as soon as that arrives; nothing it
// computes is ever sent. docs/editor.md says why it cannot change a result.
"use strict";

window.CropKitModel = (() => {
  // ---------------------------------------------------------------- affine maps {a, b, c, d, tx, ty}: x' = a x + c y + tx

  const apply = (t, p) => ({ x: t.a * p.x + t.c * p.y + t.tx, y: t.b * p.x + t.d * p.y + t.ty });
  const applyVector = (t, v) => ({ x: t.a * v.x + t.c * v.y, y: t.b * v.x + t.d * v.y });
  function inverse(t) {
    const det = t.a * t.d - t.b * t.c;
    const a = t.d / det, b = -t.b / det, c = -t.c / det, d = t.a / det;
    return { a, b, c, d, tx: -(a * t.tx + c * t.ty), ty: -(b * t.tx + d * t.ty) };
  }
  /** `outer` after `inner`. */
  const compose = (outer, inner) => ({
    a: outer.a * inner.a + outer.c * inner.b, b: outer.b * inner.a + outer.d * inner.b,
    c: outer.a * inner.c + outer.c * inner.d, d: outer.b * inner.c + outer.d * inner.d,
    tx: outer.a * inner.tx + outer.c * inner.ty + outer.tx, ty: outer.b * inner.tx + outer.d * inner.ty + outer.ty,
  });
  /** Scale by `k` about `p`, then move `p` to `q`. */
  const similarity = (k, p, q) => ({ a: k, b: 0, c: 0, d: k, tx: q.x - k * p.x, ty: q.y - k * p.y });
  /** Turn counter-clockwise on screen (y down) by `degrees` about `p`. */
  function turn(degrees, p) {
    const r = (-degrees * Math.PI) / 180, cos = Math.cos(r), sin = Math.sin(r);
    return { a: cos, b: sin, c: -sin, d: cos, tx: p.x - cos * p.x + sin * p.y, ty: p.y - sin * p.x - cos * p.y };
  }

  const centre = (r) => ({ x: r.x + r.width / 2, y: r.y + r.height / 2 });
  const rectAround = (c, w, h) => ({ x: c.x - w / 2, y: c.y - h / 2, width: w, height: h });
  const cornersOf = (r) => [{ x: r.x, y: r.y }, { x: r.x + r.width, y: r.y },
    { x: r.x + r.width, y: r.y + r.height }, { x: r.x, y: r.y + r.height }];
  const mapRect = (t, r) => {  // a similarity maps a rect to a rect
    const p = apply(t, { x: r.x, y: r.y }), q = apply(t, { x: r.x + r.width, y: r.y + r.height });
    return { x: Math.min(p.x, q.x), y: Math.min(p.y, q.y), width: Math.abs(q.x - p.x), height: Math.abs(q.y - p.y) };
  };

  // ---------------------------------------------------------------- a geometry: what is drawn
  // {transform (preview → view), size (preview W×H), box, wanted (the wanted crop), corners (the picture's outline),
  //  minimumSide}. The picture is the preview rectangle [0, W]×[0, H] under the transform, so "inside the picture"
  // is "inside that rectangle once mapped back", as the engine tests it in picture coordinates.

  function fromView(v) {
    return {
      transform: v.image.transform, size: { width: v.image.width, height: v.image.height }, box: v.cropBox,
      wanted: v.wantedBox || v.cropBox, corners: v.pictureCorners, minimumSide: v.minimumSide || 0,
    };
  }

  /** The geometry with the picture mapped by `m` (a view → view map); the box and wanted crop too when `boxes`. */
  function movePicture(g, m, boxes) {
    return {
      ...g, transform: compose(m, g.transform), corners: g.corners.map((p) => apply(m, p)),
      box: boxes ? mapRect(m, g.box) : g.box, wanted: boxes ? mapRect(m, g.wanted) : g.wanted,
      minimumSide: boxes ? g.minimumSide * Math.abs(m.a) : g.minimumSide * Math.hypot(m.a, m.b),
    };
  }

  const toPicture = (g, p) => apply(inverse(g.transform), p);
  const vectorToPicture = (g, v) => applyVector(inverse(g.transform), v);

  /** Half the extents, along the picture's axes, of a view box of `w × h`. */
  function halfExtents(g, w, h) {
    const i = inverse(g.transform);
    return { x: (Math.abs(i.a) * w + Math.abs(i.c) * h) / 2, y: (Math.abs(i.b) * w + Math.abs(i.d) * h) / 2 };
  }

  /** The nearest centre to `c` (view) at which a `w × h` box is inside the picture (StraightenedPicture.clampCenter). */
  function clampCenter(g, c, w, h) {
    const e = halfExtents(g, w, h), q = toPicture(g, c), W = g.size.width, H = g.size.height;
    const lx = Math.max(0, W / 2 - e.x), ly = Math.max(0, H / 2 - e.y);
    const clamp = (v, mid, l) => Math.min(mid + l, Math.max(mid - l, v));
    return apply(g.transform, { x: clamp(q.x, W / 2, lx), y: clamp(q.y, H / 2, ly) });
  }

  /** The largest t in 0…1 keeping every corner `corners[i] + t·velocities[i]` inside (StraightenedPicture.largestStep). */
  function largestStep(g, corners, velocities) {
    let t = 1;
    const W = g.size.width, H = g.size.height;
    corners.forEach((q, i) => {
      const p = toPicture(g, q), v = vectorToPicture(g, velocities[i]);
      for (const [p0, d, hi] of [[p.x, v.x, W], [p.y, v.y, H]]) {
        if (d > 1e-12) t = Math.min(t, (hi - p0) / d);
        else if (d < -1e-12) t = Math.min(t, -p0 / d);
      }
    });
    return Math.max(0, t);
  }

  // ---------------------------------------------------------------- the crop rules (StraightenedPicture)

  /** The box moved by `d` as far as the picture allows, sliding along an edge it meets. */
  function moved(g, box, d) {
    const c = clampCenter(g, { x: centre(box).x + d.x, y: centre(box).y + d.y }, box.width, box.height);
    return rectAround(c, box.width, box.height);
  }

  /** A box with one corner at `anchor`, extending right if sx > 0 and down if sy > 0, as near to `desired` as the
   * picture allows (cornerCrop): locked (`unit`), along the lock's diagonal; free, each side as far as it may. */
  function cornerCrop(g, anchor, sx, sy, desired, unit, m) {
    const rect = (w, h) => ({ x: sx > 0 ? anchor.x : anchor.x - w, y: sy > 0 ? anchor.y : anchor.y - h, width: w, height: h });
    const step = (w0, h0, dw, dh) => {
      const vx = { x: sx * dw, y: 0 }, vy = { x: 0, y: sy * dh }, zero = { x: 0, y: 0 };
      const left = sx > 0 ? zero : vx, right = sx > 0 ? vx : zero, top = sy > 0 ? zero : vy, bottom = sy > 0 ? vy : zero;
      const add = (p, q) => ({ x: p.x + q.x, y: p.y + q.y });
      return largestStep(g, cornersOf(rect(w0, h0)), [add(left, top), add(right, top), add(right, bottom), add(left, bottom)]);
    };
    if (unit) {
      const kMin = Math.max(m / unit.width, m / unit.height);
      const kWanted = Math.max(kMin, desired.width / unit.width, desired.height / unit.height);
      const t = step(kMin * unit.width, kMin * unit.height, (kWanted - kMin) * unit.width, (kWanted - kMin) * unit.height);
      const k = kMin + t * (kWanted - kMin);
      return rect(k * unit.width, k * unit.height);
    }
    const wWanted = Math.max(m, desired.width), hWanted = Math.max(m, desired.height);
    const w1 = m + step(m, m, wWanted - m, 0) * (wWanted - m);
    const h1 = m + step(m, m, 0, hWanted - m) * (hWanted - m);
    const t = step(m, m, w1 - m, h1 - m);
    return rect(m + t * (w1 - m), m + t * (h1 - m));
  }

  const DIRECTIONS = {
    topLeft: [-1, -1], top: [0, -1], topRight: [1, -1], right: [1, 0],
    bottomRight: [1, 1], bottom: [0, 1], bottomLeft: [-1, 1], left: [-1, 0],
  };
  const handlePoint = (handle, r) => {
    const [hx, hy] = DIRECTIONS[handle];
    return { x: r.x + r.width / 2 + (hx * r.width) / 2, y: r.y + r.height / 2 + (hy * r.height) / 2 };
  };

  /** The box resized by dragging `handle` to `target`; the opposite corner or edge stays (CropState.resizeCrop). */
  function resized(g, box, handle, target, unit, m) {
    const [hx, hy] = DIRECTIONS[handle];
    if (hx !== 0 && hy !== 0) {
      const anchor = { x: box.x + box.width / 2 - (hx * box.width) / 2, y: box.y + box.height / 2 - (hy * box.height) / 2 };
      return cornerCrop(g, anchor, hx, hy, { width: hx * (target.x - anchor.x), height: hy * (target.y - anchor.y) }, unit, m);
    }
    const horizontal = hx !== 0, direction = horizontal ? hx : hy;
    const midX = box.x + box.width / 2, midY = box.y + box.height / 2;
    const anchorAt = horizontal ? midX - (hx * box.width) / 2 : midY - (hy * box.height) / 2;
    const wanted = direction * ((horizontal ? target.x : target.y) - anchorAt);
    const make = (length) => {
      const start = direction > 0 ? anchorAt : anchorAt - length;
      if (unit) {
        const across = length * (horizontal ? unit.height / unit.width : unit.width / unit.height);
        return horizontal ? { x: start, y: midY - across / 2, width: length, height: across }
          : { x: midX - across / 2, y: start, width: across, height: length };
      }
      return horizontal ? { x: start, y: box.y, width: length, height: box.height }
        : { x: box.x, y: start, width: box.width, height: length };
    };
    const minLength = unit ? (horizontal ? Math.max(m, (m * unit.width) / unit.height) : Math.max(m, (m * unit.height) / unit.width)) : m;
    const goal = Math.max(minLength, wanted);
    const r0 = make(minLength), r1 = make(goal);
    const c0 = cornersOf(r0), c1 = cornersOf(r1);
    const t = largestStep(g, c0, c1.map((p, i) => ({ x: p.x - c0[i].x, y: p.y - c0[i].y })));
    return make(minLength + t * (goal - minLength));
  }

  /** A new box drawn from `start` (clamped into the picture) towards `end` (CropState.drawCrop). */
  function drawn(g, start, end, unit, m) {
    const p = toPicture(g, start);
    const anchor = apply(g.transform, {
      x: Math.min(g.size.width, Math.max(0, p.x)), y: Math.min(g.size.height, Math.max(0, p.y)),
    });
    return cornerCrop(g, anchor, end.x - anchor.x > 0 ? 1 : -1, end.y - anchor.y > 0 ? 1 : -1,
      { width: Math.abs(end.x - anchor.x), height: Math.abs(end.y - anchor.y) }, unit, m);
  }

  /** The crop box after zooming the picture in by `factor` about `anchor` (CropState.zoom), before the re-fit. */
  function zoomedBox(g, factor, anchor) {
    const box = g.box, m = g.minimumSide;
    const lower = Math.min(1, Math.max(m / box.width, m / box.height));
    const e = halfExtents(g, box.width, box.height);
    const upper = Math.max(lower, Math.min(g.size.width / 2 / e.x, g.size.height / 2 / e.y));
    const s = Math.min(upper, Math.max(lower, 1 / factor));
    const c = centre(box);
    const moved = { x: anchor.x + (c.x - anchor.x) * s, y: anchor.y + (c.y - anchor.y) * s };
    return rectAround(clampCenter(g, moved, box.width * s, box.height * s), box.width * s, box.height * s);
  }

  // ---------------------------------------------------------------- the layout (DisplayLayout)

  /** Re-fits the view to the crop `box`: the largest box of its proportions inside the stage less the insets and at
   * most `fraction` of the stage, centred; the picture follows (CropState.displayLayout). */
  function refit(g, box, layout) {
    const { width: vw, height: vh } = layout.viewport, i = layout.insets;
    const aw = vw - i.left - i.right, ah = vh - i.top - i.bottom;
    const k = Math.min(Math.min(aw, layout.fraction * vw) / box.width, Math.min(ah, layout.fraction * vh) / box.height);
    const m = similarity(k, centre(box), { x: i.left + aw / 2, y: i.top + ah / 2 });
    return movePicture({ ...g, box, wanted: box }, m, true);
  }

  /** The picture turned from straighten angle `from` to `to` (degrees) about the wanted crop's centre, the view's
   * scale kept, and the crop the engine then allows: the wanted crop shrunk about its centre by the smallest factor
   * that keeps it free of fill (CropState's allowed crop). Returns {g, allowed}. */
  function turnedAllowed(g, from, to) {
    const c = centre(g.wanted);
    const turned = from === to ? g : movePicture(g, turn(to - from, c), false);
    const e = halfExtents(turned, g.wanted.width, g.wanted.height), q = toPicture(turned, c);
    const W = turned.size.width, H = turned.size.height;
    const s = Math.max(1e-6, Math.min(1, (W / 2 - Math.abs(q.x - W / 2)) / e.x, (H / 2 - Math.abs(q.y - H / 2)) / e.y));
    return { g: turned, allowed: rectAround(c, g.wanted.width * s, g.wanted.height * s) };
  }

  /** The geometry at straighten angle `to` from `from` (degrees): the picture turns about the box's centre, and the
   * wanted crop, kept as the engine keeps it, is shrunk about its centre just enough to be free of fill; then the
   * view re-fits. */
  function straightened(g, from, to, layout) {
    if (to === from) return g;
    const { g: turned, allowed } = turnedAllowed(g, from, to);
    const fitted = refit(turned, allowed, layout);
    // The wanted crop is the engine's, untouched by the turn: it keeps its place relative to the new box.
    return { ...fitted, wanted: mapRect(similarity(fitted.box.width / allowed.width, centre(g.wanted), centre(fitted.box)), g.wanted) };
  }

  /** A two-finger pinch from its start (`g` and `angle` when the second finger went down; the fingers `start`, now
   * `now`, each {a, b}), as CropSession computes it: past `threshold` degrees of turn the picture turns with the
   * fingers (degree for degree beyond it, clockwise lowering the angle; within `snap` of 0° it is 0°), then zooms
   * by the ratio of the fingers' distances about their first midpoint, then follows the midpoint; the view re-fits. */
  function pinched(g, angle, start, now, threshold, snap, layout) {
    const vector = (f) => ({ x: f.b.x - f.a.x, y: f.b.y - f.a.y });
    const v0 = vector(start), v1 = vector(now);
    const d0 = Math.hypot(v0.x, v0.y), d1 = Math.hypot(v1.x, v1.y);
    if (d0 === 0 || d1 === 0) return { g, angle };
    let t = ((Math.atan2(v1.y, v1.x) - Math.atan2(v0.y, v0.x)) * 180) / Math.PI;
    if (t > 180) t -= 360; else if (t < -180) t += 360;
    let to = angle;
    if (Math.abs(t) > threshold) {
      to = Math.max(-45, Math.min(45, angle - (t - Math.sign(t) * threshold)));
      if (Math.abs(to) < snap) to = 0;
    }
    const { g: turned, allowed } = turnedAllowed(g, angle, to);
    const mid0 = { x: (start.a.x + start.b.x) / 2, y: (start.a.y + start.b.y) / 2 };
    const mid1 = { x: (now.a.x + now.b.x) / 2, y: (now.a.y + now.b.y) / 2 };
    const zoomed = zoomedBox({ ...turned, box: allowed }, d1 / d0, mid0);
    const k = allowed.width / zoomed.width;  // the zoom the crop's limits allowed
    const panned = moved(turned, zoomed, { x: -(mid1.x - mid0.x) / k, y: -(mid1.y - mid0.y) / k });
    return { g: refit(turned, panned, layout), angle: to };
  }

  // ---------------------------------------------------------------- pointers (CropSession)

  /** The handle a press at `p` grabs within `radius` (CropHandle.hitTest): corners first, then the nearest. */
  function hitTest(p, r, radius) {
    const inside = p.x >= r.x && p.x <= r.x + r.width && p.y >= r.y && p.y <= r.y + r.height;
    const reach = inside ? Math.min(radius, Math.min(r.width, r.height) / 4) : radius;
    let best = null;
    for (const handle of Object.keys(DIRECTIONS)) {
      const [hx, hy] = DIRECTIONS[handle], corner = hx !== 0 && hy !== 0;
      let q;
      if (corner) q = handlePoint(handle, r);
      else if (hx === 0) q = { x: Math.min(r.x + r.width, Math.max(r.x, p.x)), y: hy < 0 ? r.y : r.y + r.height };
      else q = { x: hx < 0 ? r.x : r.x + r.width, y: Math.min(r.y + r.height, Math.max(r.y, p.y)) };
      const d = Math.hypot(p.x - q.x, p.y - q.y);
      if (d > reach) continue;
      if (best && ((best.corner && !corner) || (best.corner === corner && d >= best.d))) continue;
      best = { handle, d, corner };
    }
    return best ? best.handle : null;
  }

  /** What a press begins, as CropSession.pointerDown decides it: {kind, handle}. */
  function classify(g, p, intent, mode, tuning) {
    if (intent === "pan" || mode === "pan") return { kind: "panning" };
    if (intent === "draw") return { kind: "pressing", outside: false };
    const finger = intent === "touch";
    const radius = finger ? Math.max(tuning.touchRadius, tuning.fingerReach) : tuning.touchRadius;
    const handle = hitTest(p, g.box, radius);
    if (handle) return { kind: "resizing", handle };
    const b = g.box;
    if (p.x >= b.x && p.x <= b.x + b.width && p.y >= b.y && p.y <= b.y + b.height) {
      const e = halfExtents(g, b.width, b.height);
      const movable = g.size.width / 2 - e.x > 1e-3 || g.size.height / 2 - e.y > 1e-3;
      return movable ? { kind: "moving" } : { kind: "pressing", outside: false };
    }
    return { kind: "pressing", outside: true };
  }

  /** The unit of the aspect lock, as proportions of the box (null when free). */
  const unitOf = (aspect, box) => (aspect === "free" ? null : { width: box.width, height: box.height });

  /** The geometry a single-pointer gesture gives with the pointer at `p`, from `g` where the pointer was at `ref`
   * (`start`: where it went down). */
  function gestureAt(g, gesture, p, ref, aspect) {
    const d = { x: p.x - ref.x, y: p.y - ref.y };
    const unit = unitOf(aspect, g.box);
    switch (gesture.kind) {
      case "moving": return { ...g, box: moved(g, g.box, d), wanted: moved(g, g.box, d) };
      case "resizing": {
        const box = resized(g, g.box, gesture.handle, { x: handlePoint(gesture.handle, g.box).x + d.x,
          y: handlePoint(gesture.handle, g.box).y + d.y }, unit, g.minimumSide);
        return { ...g, box, wanted: box };
      }
      case "drawing": case "pressing": {
        const box = drawn(g, gesture.start, p, unit, g.minimumSide);
        return { ...g, box, wanted: box };
      }
      case "panning": {
        const c = centre(g.box), to = moved(g, g.box, { x: -d.x, y: -d.y });
        const shift = { x: c.x - centre(to).x, y: c.y - centre(to).y };
        return movePicture(g, { a: 1, b: 0, c: 0, d: 1, tx: shift.x, ty: shift.y }, false);
      }
      default: return g;
    }
  }

  return {
    apply, inverse, compose, fromView, moved, resized, zoomedBox, refit, straightened, pinched, hitTest, classify,
    gestureAt, handlePoint, unitOf, DIRECTIONS,
  };
})();
