// How a crop is drawn over its picture, shared by the hosted editor (editor.js) and <cropkit-cropper>: the picture
// outside the box dimmed (its outline and the box, filled even-odd), the outline, the rule-of-thirds grid, the box
// (a circle in it for a round crop) and the handles (L-shaped corners, bars on the edges). Drawing only: every
// position comes from the engine's view state.

/**
 * Draws the crop on `ctx` (view coordinates): `box` {x, y, width, height}, `corners` the picture's outline (four
 * points), `round`, `grid`, and `handles` [{handle, x, y, length, focused}] (each handle's centre).
 */
export function drawCrop(ctx, { box, corners, round = false, grid = false, handles = [] }) {
  const outline = new Path2D();
  corners.forEach((p, i) => (i ? outline.lineTo(p.x, p.y) : outline.moveTo(p.x, p.y)));
  outline.closePath();
  const dim = new Path2D(outline);
  const hole = new Path2D();
  if (round) {
    hole.ellipse(box.x + box.width / 2, box.y + box.height / 2, box.width / 2, box.height / 2, 0, 0, 2 * Math.PI);
  } else {
    hole.rect(box.x, box.y, box.width, box.height);
  }
  dim.addPath(hole);
  ctx.fillStyle = "rgba(0, 0, 0, 0.55)";
  ctx.fill(dim, "evenodd");
  ctx.strokeStyle = "rgba(255, 255, 255, 0.25)";
  ctx.lineWidth = 1;
  ctx.stroke(outline);

  if (grid) {
    ctx.strokeStyle = "rgba(255, 255, 255, 0.55)";
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (const f of [1 / 3, 2 / 3]) {
      ctx.moveTo(box.x + box.width * f, box.y);
      ctx.lineTo(box.x + box.width * f, box.y + box.height);
      ctx.moveTo(box.x, box.y + box.height * f);
      ctx.lineTo(box.x + box.width, box.y + box.height * f);
    }
    ctx.stroke();
  }
  ctx.strokeStyle = "#fff";
  ctx.lineWidth = 1.5;
  if (round) {
    ctx.stroke(hole);
    ctx.setLineDash([4, 4]);
    ctx.strokeStyle = "rgba(255, 255, 255, 0.5)";
    ctx.lineWidth = 1;
    ctx.strokeRect(box.x, box.y, box.width, box.height);
    ctx.setLineDash([]);
  } else {
    ctx.strokeRect(box.x, box.y, box.width, box.height);
  }
  for (const h of handles) drawHandle(ctx, h.handle, h.x, h.y, h.length, h.focused);
}

/** One handle centred on (cx, cy): an L for a corner, a bar for an edge; thicker and yellow when focused. */
export function drawHandle(ctx, name, cx, cy, length, focused) {
  const th = focused ? 6 : 4;
  ctx.fillStyle = focused ? "#f5c242" : "#fff";
  const sx = name.includes("Left") || name === "left" ? 1 : -1;
  const sy = name.startsWith("top") ? 1 : -1;
  if (["topLeft", "topRight", "bottomLeft", "bottomRight"].includes(name)) {
    ctx.fillRect(sx > 0 ? cx - th / 2 : cx - length + th / 2, cy - th / 2, length, th);
    ctx.fillRect(cx - th / 2, sy > 0 ? cy - th / 2 : cy - length + th / 2, th, length);
  } else if (name === "top" || name === "bottom") {
    ctx.fillRect(cx - length / 2, cy - th / 2, length, th);
  } else {
    ctx.fillRect(cx - th / 2, cy - length / 2, th, length);
  }
}
