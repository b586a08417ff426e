// <cropkit-cropper>: a drop-in crop editor for any web page, with no CropKit server behind it. Every crop rule runs
// in CropKit's own engine, compiled to WebAssembly (cropkit-engine.wasm beside this file), the same Swift the
// `cropkit` tool and `cropkit serve` run: so the recipe it emits renders, on the server, exactly what the person saw.
// This file only draws the engine's state and forwards input to it.
//
//   <script type="module" src="cropkit-cropper.js"></script>
//   <cropkit-cropper src="photo.jpg" aspect="1:1" min-size="200" output-width="400" output-height="400" round>
//   </cropkit-cropper>
//
//   cropper.addEventListener("change", (e) => e.detail.recipe);          // after every change, at rest
//   cropper.addEventListener("done", (e) => { e.detail.recipe; e.detail.blob; });  // Done: recipe and a preview
//   cropper.load(file);                                                    // a File, Blob or URL
//
// Attributes: `src` (a URL), `orientation` (1…8: a turn or mirror the picture's pixels still need, for pixels that
// carry none in their file; the browser already shows a file upright by its own EXIF orientation, as CropKit does),
// `aspect` ("W:H": a fixed aspect; absent: the person chooses), `min-size` (the smallest crop side in source pixels),
// `output-width`/`output-height` (the size Done's preview is made at; default: the crop's size, at most 2048 px on
// its longer side), `round` (a round crop: drawn as a circle, the preview masked), `label` (the accessible name).
// docs/web-component.md shows it in a page and how an app renders the recipe at full resolution with cropkit serve.

import { drawCrop } from "./cropkit-draw.js";
import { loadEngine } from "./cropkit-engine.js";

const enginePromise = { current: null };
function engine() {
  enginePromise.current ??= loadEngine(new URL("./cropkit-engine.wasm", import.meta.url));
  return enginePromise.current;
}

const STYLE = `
:host { display: block; position: relative; min-height: 240px; height: 480px; background: #1b1b1b; color: #fff;
  font: 14px system-ui, sans-serif; contain: content; }
.stage { position: absolute; inset: 0 0 48px 0; touch-action: none; outline: none; }
.stage:focus-visible { box-shadow: inset 0 0 0 3px #f5c242; }
canvas { width: 100%; height: 100%; display: block; }
.bar { position: absolute; left: 0; right: 0; bottom: 0; height: 48px; display: flex; gap: 4px; align-items: center;
  padding: 0 8px; background: #111; overflow-x: auto; }
button, select, input { font: inherit; color: inherit; background: #2c2c2c; border: 1px solid #555; border-radius: 6px;
  min-height: 32px; min-width: 32px; }
button:focus-visible, select:focus-visible, input:focus-visible { outline: 3px solid #f5c242; outline-offset: 1px; }
button:disabled { opacity: 0.45; }
.done { background: #f5c242; color: #111; font-weight: 600; padding: 0 14px; margin-left: auto; }
.angle { min-width: 3.5em; text-align: right; font-variant-numeric: tabular-nums; }
input[type=range] { width: 120px; min-width: 80px; background: transparent; border: 0; }
.handle { position: absolute; padding: 0; min-width: 0; min-height: 0; background: transparent; border: 0;
  border-radius: 0; }
.handle:focus-visible { outline: 3px solid #f5c242; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0);
  white-space: nowrap; }
.message { position: absolute; left: 8px; top: 8px; max-width: calc(100% - 16px); background: rgba(0,0,0,.75);
  padding: 4px 8px; border-radius: 6px; }
.message:empty { display: none; }
`;

const TEMPLATE = `
<div class="stage" part="stage" tabindex="0" role="application">
  <canvas aria-hidden="true"></canvas>
  <div class="handles"></div>
  <div class="message" role="status"></div>
</div>
<div class="bar" part="toolbar" role="toolbar" aria-label="Crop">
  <button type="button" data-act="undo" aria-label="Undo" title="Undo (Ctrl+Z)">↶</button>
  <button type="button" data-act="redo" aria-label="Redo" title="Redo (Ctrl+Shift+Z)">↷</button>
  <button type="button" data-act="rotate-left" aria-label="Rotate 90° left" title="Rotate left (Shift+R)">⟲</button>
  <button type="button" data-act="rotate-right" aria-label="Rotate 90° right" title="Rotate right (R)">⟳</button>
  <button type="button" data-act="flip-h" aria-label="Flip horizontally" title="Flip horizontally (F)">⇋</button>
  <button type="button" data-act="flip-v" aria-label="Flip vertically" title="Flip vertically (Shift+F)">⇅</button>
  <button type="button" data-act="minus" aria-label="Straighten 0.1° clockwise" title="[ ">−</button>
  <input type="range" min="-45" max="45" step="0.1" value="0" aria-label="Straighten angle in degrees">
  <button type="button" data-act="plus" aria-label="Straighten 0.1° counter-clockwise" title="]">+</button>
  <span class="angle" aria-hidden="true">0.0°</span>
  <select aria-label="Aspect ratio">
    <option value="free">Free</option><option value="original">Original</option><option value="1:1">1:1</option>
    <option value="4:3">4:3</option><option value="3:2">3:2</option><option value="16:9">16:9</option>
    <option value="4:5">4:5</option>
  </select>
  <button type="button" data-act="swap" aria-label="Swap the aspect's width and height" title="Swap (X)">⇄</button>
  <button type="button" data-act="reset" aria-label="Reset all edits">Reset</button>
  <button type="button" class="done" data-act="done">Done</button>
</div>
<div class="visually-hidden" aria-live="polite"></div>
`;

const HANDLE_LABELS = {
  topLeft: "top-left corner", top: "top edge", topRight: "top-right corner", right: "right edge",
  bottomRight: "bottom-right corner", bottom: "bottom edge", bottomLeft: "bottom-left corner", left: "left edge",
};
const CURSORS = { topLeft: "nwse-resize", bottomRight: "nwse-resize", topRight: "nesw-resize",
  bottomLeft: "nesw-resize", top: "ns-resize", bottom: "ns-resize", left: "ew-resize", right: "ew-resize" };

export class CropKitCropper extends HTMLElement {
  static observedAttributes = ["src", "orientation", "aspect", "min-size", "output-width", "output-height", "round",
    "label"];

  constructor() {
    super();
    this.attachShadow({ mode: "open" }).innerHTML = `<style>${STYLE}</style>${TEMPLATE}`;
    const $ = (selector) => this.shadowRoot.querySelector(selector);
    this.stage = $(".stage");
    this.canvas = $("canvas");
    this.ctx = this.canvas.getContext("2d");
    this.live = $("[aria-live]");
    this.messageBox = $(".message");
    this.slider = $("input[type=range]");
    this.angleText = $(".angle");
    this.aspectSelect = $("select");
    this.session = null;
    this.bitmap = null;
    this.view = null;
    this.pointers = new Set();
    this.handleButtons = {};
    this.focusedHandle = null;
    this.loadCount = 0;
    this.buildHandles($(".handles"));
    this.wire();
  }

  connectedCallback() {
    this.stage.setAttribute("aria-label", this.getAttribute("label") || "Crop the picture");
    this.resizeObserver = new ResizeObserver(() => this.layout());
    this.resizeObserver.observe(this.stage);
    if (this.getAttribute("src") && !this.bitmap) this.load(this.getAttribute("src"));
  }

  disconnectedCallback() {
    this.resizeObserver?.disconnect();
    this.session?.free();
    this.session = null;
  }

  attributeChangedCallback(name, old, value) {
    if (!this.isConnected || old === value) return;
    if (name === "src" && value) this.load(value);
    else if (name === "label") this.stage.setAttribute("aria-label", value || "Crop the picture");
    else if (["aspect", "min-size", "orientation"].includes(name) && this.bitmap) this.start(this.recipe);
    else this.draw();
  }

  /** The current recipe (the schema `cropkit apply`, `/img?recipe=` and CropKit's `Recipe` read), or null. */
  get recipe() { return this.session ? this.session.recipe() : null; }

  /** The engine's current view state (view coordinates), or null. */
  get state() { return this.view; }

  /**
   * Opens a picture: a URL, a File or a Blob. The browser decodes it upright, by its EXIF orientation, as CropKit
   * reads it; `orientation` (1…8, EXIF's numbering) is a turn or mirror the decoded pixels still need (pixels whose
   * file lost its EXIF). A recipe describes the upright picture, so it renders the same region from the original
   * file, EXIF and all. `recipe` starts from a saved crop. Resolves once it is shown; rejects with the reason it
   * cannot be read.
   */
  async load(source, { orientation, recipe } = {}) {
    const ticket = ++this.loadCount;
    this.say("");
    let blob = source;
    if (typeof source === "string" || source instanceof URL) {
      const response = await fetch(source);
      if (!response.ok) throw this.fail(new Error(`${source}: HTTP ${response.status}`));
      blob = await response.blob();
    }
    const turn = Number(orientation ?? this.getAttribute("orientation"));
    const exif = turn >= 1 && turn <= 8 ? Math.trunc(turn) : 1;
    let bitmap;
    try {
      // Upright, as the browser shows the file (its EXIF orientation applied), at full resolution.
      bitmap = await createImageBitmap(blob, { imageOrientation: "from-image" });
    } catch (error) {
      throw this.fail(new Error(`the picture could not be decoded (${error.message || error})`));
    }
    if (ticket !== this.loadCount) return;
    this.bitmap?.close?.();
    this.bitmap = bitmap;
    this.orientation = exif;
    this.blob = blob;
    await this.start(recipe ?? null);
  }

  fail(error) {
    this.say(`Can't open the picture: ${error.message}`);
    this.dispatchEvent(new CustomEvent("error", { detail: { error } }));
    return error;
  }

  /** Makes the engine's session for the picture (from `recipe`, when given). */
  async start(recipe) {
    const { width, height } = this.viewportSize();
    const e = await engine();
    const fixed = this.getAttribute("aspect");
    this.session?.free();
    this.session = e.createSession({
      width: this.bitmap.width, height: this.bitmap.height, orientation: this.orientation,
      minimumCropSize: Number(this.getAttribute("min-size")) || 1,
      viewport: { width, height, insets: { top: 16, left: 16, bottom: 16, right: 16 } },
      configuration: { fixedAspect: /^\d+:\d+$/.test(fixed || "") ? fixed : null },
      recipe,
    });
    for (const control of [this.aspectSelect, this.shadowRoot.querySelector("[data-act=swap]")]) {
      control.disabled = !!fixed;
    }
    this.refresh();
    this.announce();
    this.dispatchEvent(new CustomEvent("ready", { detail: { recipe: this.recipe } }));
  }

  viewportSize() {
    return { width: Math.max(1, this.stage.clientWidth), height: Math.max(1, this.stage.clientHeight) };
  }

  layout() {
    if (!this.session) return this.draw();
    const { width, height } = this.viewportSize();
    this.apply({ type: "viewport", width, height, insets: { top: 16, left: 16, bottom: 16, right: 16 } });
  }

  /** Applies one engine event and draws the result in this frame; a change at rest emits `change`. */
  apply(event) {
    if (!this.session) return;
    const before = this.view && JSON.stringify(this.view.recipe);
    try {
      this.session.apply(event);
    } catch {
      return;  // the engine refused it; nothing changed
    }
    this.refresh();
    if (this.view.gesture === "none" && JSON.stringify(this.view.recipe) !== before) {
      this.announce();
      this.dispatchEvent(new CustomEvent("change", { detail: { recipe: this.view.recipe } }));
    }
  }

  refresh() {
    this.view = this.session.view();
    this.draw();
  }

  // ------------------------------------------------------------------ drawing

  draw() {
    const v = this.view, ctx = this.ctx, dpr = window.devicePixelRatio || 1;
    const w = this.stage.clientWidth, h = this.stage.clientHeight;
    if (this.canvas.width !== Math.round(w * dpr) || this.canvas.height !== Math.round(h * dpr)) {
      this.canvas.width = Math.round(w * dpr);
      this.canvas.height = Math.round(h * dpr);
    }
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, w, h);
    if (!v || !this.bitmap) return;
    const t = v.image.transform, box = v.cropBox, round = this.hasAttribute("round");
    // The picture, stored pixels under the engine's transform (orientation, turns, flips, straighten, zoom).
    ctx.save();
    ctx.transform(t.a, t.b, t.c, t.d, t.tx, t.ty);
    ctx.imageSmoothingQuality = "high";
    ctx.drawImage(this.bitmap, 0, 0, v.image.width, v.image.height);
    ctx.restore();
    drawCrop(ctx, {
      box, corners: v.pictureCorners, round, grid: v.showsGrid,
      handles: v.handles.map((hd) => ({ handle: hd.handle, x: hd.x + hd.width / 2, y: hd.y + hd.height / 2,
        length: Math.min(hd.width, 18), focused: hd.handle === this.focusedHandle })),
    });
    for (const hd of v.handles) {
      Object.assign(this.handleButtons[hd.handle].style,
        { left: `${hd.x}px`, top: `${hd.y}px`, width: `${hd.width}px`, height: `${hd.height}px` });
    }
    this.updateControls();
  }

  updateControls() {
    const v = this.view;
    const act = (name) => this.shadowRoot.querySelector(`[data-act=${name}]`);
    act("undo").disabled = !v.canUndo;
    act("redo").disabled = !v.canRedo;
    if (this.shadowRoot.activeElement !== this.slider) this.slider.value = v.angle;
    const angle = `${(Math.round(v.angle * 10) / 10).toFixed(1)}°`;
    this.angleText.textContent = angle;
    this.slider.setAttribute("aria-valuetext", angle);
    const presets = Array.from(this.aspectSelect.options).map((o) => o.value);
    if (!presets.includes(v.aspect)) {
      const option = document.createElement("option");
      option.value = option.textContent = v.aspect;
      this.aspectSelect.appendChild(option);
    }
    this.aspectSelect.value = v.aspect;
  }

  say(text) { this.messageBox.textContent = text; }

  /** Tells screen readers the crop's size, angle, turn and aspect when they change (politely, once settled). */
  announce() {
    clearTimeout(this.announceTimer);
    this.announceTimer = setTimeout(() => {
      const v = this.view;
      if (!v) return;
      this.live.textContent = `Crop ${v.outputSize.width} by ${v.outputSize.height} pixels, angle ` +
        `${(Math.round(v.angle * 10) / 10).toFixed(1)} degrees, turned ${v.quarterTurns * 90} degrees` +
        `${v.flipped ? ", mirrored" : ""}, aspect ${v.aspect}.`;
    }, 400);
  }

  // ------------------------------------------------------------------ input

  buildHandles(container) {
    for (const [name, label] of Object.entries(HANDLE_LABELS)) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "handle";
      b.dataset.handle = name;
      b.setAttribute("aria-label", `Crop ${label}. Arrow keys move it by 1 pixel, with Shift by 10.`);
      b.addEventListener("focus", () => { this.focusedHandle = name; this.draw(); });
      b.addEventListener("blur", () => { if (this.focusedHandle === name) this.focusedHandle = null; this.draw(); });
      b.addEventListener("keydown", (e) => {
        const d = arrow(e);
        if (!d) return;
        e.preventDefault();
        e.stopPropagation();
        this.apply({ type: "resizeBy", handle: name, dx: d[0], dy: d[1] });
      });
      // A press on a handle's button reaches the stage's listener (the engine decides what it grabs).
      container.appendChild(b);
      this.handleButtons[name] = b;
    }
  }

  point(e) {
    const r = this.stage.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  }

  pointerDown(e) {
    if (!this.session || (e.pointerType === "mouse" && e.button !== 0 && e.button !== 1)) return;
    e.preventDefault();
    this.stage.focus({ preventScroll: true });
    this.stage.setPointerCapture(e.pointerId);
    this.pointers.add(e.pointerId);
    const intent = e.button === 1 || e.altKey ? "pan" : e.shiftKey ? "draw" : e.pointerType === "touch" ? "touch" : "auto";
    this.apply({ type: "pointerDown", id: e.pointerId, ...this.point(e), intent });
  }

  wire() {
    const stage = this.stage;
    stage.addEventListener("pointerdown", (e) => this.pointerDown(e));
    stage.addEventListener("pointermove", (e) => {
      if (this.pointers.has(e.pointerId)) {
        this.apply({ type: "pointerMove", id: e.pointerId, ...this.point(e) });
      } else if (this.view) {
        const p = this.point(e), inside = (r) => p.x >= r.x && p.x <= r.x + r.width && p.y >= r.y && p.y <= r.y + r.height;
        const handle = this.view.handles.find(inside);
        stage.style.cursor = this.view.mode === "pan" ? "grab" : handle ? CURSORS[handle.handle]
          : inside(this.view.cropBox) ? "move" : "crosshair";
      }
    });
    const lift = (e) => {
      if (!this.pointers.delete(e.pointerId)) return;
      this.apply({ type: "pointerUp", id: e.pointerId, ...this.point(e) });
    };
    stage.addEventListener("pointerup", lift);
    stage.addEventListener("lostpointercapture", lift);
    stage.addEventListener("pointercancel", (e) => {
      if (this.pointers.delete(e.pointerId)) this.apply({ type: "pointerCancel", id: e.pointerId });
    });
    stage.addEventListener("wheel", (e) => {
      e.preventDefault();
      const scale = e.ctrlKey ? 0.01 : e.deltaMode === 1 ? 0.05 : 0.0015;
      this.apply({ type: "zoom", factor: Math.exp(-e.deltaY * scale), ...this.point(e) });
    }, { passive: false });
    stage.addEventListener("keydown", (e) => this.key(e));

    const on = (name, make) => this.shadowRoot.querySelector(`[data-act=${name}]`)
      .addEventListener("click", () => { const event = make(); if (event) this.apply(event); });
    on("undo", () => ({ type: "undo" }));
    on("redo", () => ({ type: "redo" }));
    on("rotate-left", () => ({ type: "rotate", direction: "counterClockwise", aspectPolicy: "followPicture" }));
    on("rotate-right", () => ({ type: "rotate", direction: "clockwise", aspectPolicy: "followPicture" }));
    on("flip-h", () => ({ type: "flip", axis: "horizontal" }));
    on("flip-v", () => ({ type: "flip", axis: "vertical" }));
    on("minus", () => ({ type: "straightenBy", delta: -0.1 }));
    on("plus", () => ({ type: "straightenBy", delta: 0.1 }));
    on("swap", () => ({ type: "swapAspect" }));
    on("reset", () => ({ type: "reset" }));
    on("done", () => { this.done(); return null; });
    this.slider.addEventListener("input", () => this.apply({ type: "straighten", angle: Number(this.slider.value), final: false }));
    this.slider.addEventListener("change", () => this.apply({ type: "straighten", angle: Number(this.slider.value), final: true }));
    this.aspectSelect.addEventListener("change", () => this.apply({ type: "aspect", aspect: this.aspectSelect.value }));
  }

  key(e) {
    if (!this.session || e.target !== this.stage) return;
    const d = arrow(e);
    const mod = e.ctrlKey || e.metaKey;
    let event = null;
    if (d) event = { type: "nudge", dx: d[0], dy: d[1] };
    else if (mod && e.key.toLowerCase() === "z") event = { type: e.shiftKey ? "redo" : "undo" };
    else if (mod && e.key.toLowerCase() === "y") event = { type: "redo" };
    else if (mod) return;
    else if (e.key === "[") event = { type: "straightenBy", delta: e.shiftKey ? -1 : -0.1 };
    else if (e.key === "]") event = { type: "straightenBy", delta: e.shiftKey ? 1 : 0.1 };
    else if (e.key.toLowerCase() === "r") event = { type: "rotate", direction: e.shiftKey ? "counterClockwise" : "clockwise", aspectPolicy: "followPicture" };
    else if (e.key.toLowerCase() === "f") event = { type: "flip", axis: e.shiftKey ? "vertical" : "horizontal" };
    else if (e.key.toLowerCase() === "x") event = { type: "swapAspect" };
    else if (e.key === "+" || e.key === "=") event = { type: "zoom", factor: 1.25, ...this.boxCentre() };
    else if (e.key === "-") event = { type: "zoom", factor: 0.8, ...this.boxCentre() };
    else if (e.key === "Escape" && this.pointers.size) {
      for (const id of this.pointers) this.apply({ type: "pointerCancel", id });
      this.pointers.clear();
      e.preventDefault();
      return;
    } else if (e.key === "Enter") { e.preventDefault(); this.done(); return; }
    if (!event) return;
    e.preventDefault();
    this.apply(event);
  }

  boxCentre() {
    const b = this.view.cropBox;
    return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
  }

  // ------------------------------------------------------------------ output

  /** The preview's size: the output attributes, or the crop's own size at most 2048 px on its longer side. */
  previewSize() {
    const w = Number(this.getAttribute("output-width")), h = Number(this.getAttribute("output-height"));
    const crop = this.view.outputSize;
    if (w > 0 && h > 0) return { width: Math.round(w), height: Math.round(h) };
    if (w > 0) return { width: Math.round(w), height: Math.max(1, Math.round((w * crop.height) / crop.width)) };
    if (h > 0) return { width: Math.max(1, Math.round((h * crop.width) / crop.height)), height: Math.round(h) };
    const k = Math.min(1, 2048 / Math.max(crop.width, crop.height));
    return { width: Math.max(1, Math.round(crop.width * k)), height: Math.max(1, Math.round(crop.height * k)) };
  }

  /**
   * The crop as pixels, drawn from the full-resolution picture with the engine's transform (a PNG Blob, or `type`):
   * first the box's region at the picture's own resolution (turned and straightened, at most 4096 px on its longer
   * side), then scaled to the preview's size by the browser's high-quality filter, so a straightened crop does not
   * alias. Round crops are masked to a circle. The exact full-resolution render is the server's: post the recipe to
   * `cropkit serve` (docs/web-component.md).
   */
  async preview(type = "image/png") {
    const v = this.view, size = this.previewSize(), box = v.cropBox, t = v.image.transform;
    const k = Math.min(1, 4096 / Math.max(v.outputSize.width, v.outputSize.height));
    const full = { width: Math.max(1, Math.round(v.outputSize.width * k)),
      height: Math.max(1, Math.round(v.outputSize.height * k)) };
    const region = new OffscreenCanvas(full.width, full.height), r = region.getContext("2d");
    r.setTransform(full.width / box.width, 0, 0, full.height / box.height, -box.x * full.width / box.width,
      -box.y * full.height / box.height);
    r.transform(t.a, t.b, t.c, t.d, t.tx, t.ty);
    r.imageSmoothingEnabled = true;
    r.imageSmoothingQuality = "high";
    r.drawImage(this.bitmap, 0, 0, v.image.width, v.image.height);
    const canvas = new OffscreenCanvas(size.width, size.height), ctx = canvas.getContext("2d");
    if (this.hasAttribute("round")) {
      ctx.beginPath();
      ctx.ellipse(size.width / 2, size.height / 2, size.width / 2, size.height / 2, 0, 0, 2 * Math.PI);
      ctx.clip();
    }
    ctx.imageSmoothingEnabled = true;
    ctx.imageSmoothingQuality = "high";
    ctx.drawImage(region, 0, 0, size.width, size.height);
    return canvas.convertToBlob({ type });
  }

  async done() {
    if (!this.session) return;
    const recipe = this.recipe;
    const blob = await this.preview();
    this.dispatchEvent(new CustomEvent("done", { detail: { recipe, blob, outputSize: this.view.outputSize } }));
  }
}

function arrow(e) {
  const step = e.shiftKey ? 10 : 1;
  return { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] }[e.key];
}

if (!customElements.get("cropkit-cropper")) customElements.define("cropkit-cropper", CropKitCropper);
