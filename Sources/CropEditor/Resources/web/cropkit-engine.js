// CropKit's crop engine in the page: the Swift engine (CropGeometry, CropEngine, CropInteraction) compiled to
// WebAssembly with Embedded Swift (scripts/build-wasm), and this small module around it. Every crop rule runs in
// the module; this file only moves numbers in and out and names them.
//
//   import { loadEngine } from "./cropkit-engine.js";
//   const engine = await loadEngine();                 // fetches cropkit-engine.wasm beside this file
//   const session = engine.createSession({ width: 4000, height: 3000, orientation: 6,
//                                          viewport: { width: 800, height: 600 } });
//   session.apply({ type: "pointerDown", id: 1, x: 120, y: 80 });   // the editor protocol's event objects
//   session.pointerMove(1, 140, 90);                   // or the numeric calls: no object, no JSON
//   const view = session.view();                       // the editor protocol's view state object
//   const recipe = session.recipe();                   // what `cropkit apply` and /img?recipe= read
//
// The numeric forms are defined in Swift (Sources/CropWasm: NumericEvent, NumericViewState, SessionParameters);
// the tables below repeat their codes, and CropWasmTests fails when the two differ.

/** Event kinds (NumericEvent.kinds). */
export const KINDS = {
  pointerDown: 0, pointerMove: 1, pointerUp: 2, pointerCancel: 3, zoom: 4, straighten: 5, straightenBy: 6,
  rotate: 7, flip: 8, aspect: 9, swapAspect: 10, nudge: 11, resizeBy: 12, resetCrop: 13, reset: 14, undo: 15,
  redo: 16, viewport: 17, mode: 18, setCrop: 19,
};

/** Names of coded fields, in code order. */
const INTENTS = ["auto", "pan", "draw", "touch"];
const DIRECTIONS = ["clockwise", "counterClockwise"];
const POLICIES = ["followPicture", "keepOutputRatio"];
const AXES = ["horizontal", "vertical"];
const MODES = ["crop", "pan"];
/** CropHandle.allCases order. */
export const HANDLES = ["topLeft", "top", "topRight", "right", "bottomRight", "bottom", "bottomLeft", "left"];
/** CropGesture.allCases order. */
export const GESTURES = ["none", "pressing", "drawing", "moving", "resizing", "panning", "pinching", "straightening",
  "zooming", "nudging", "keyResizing"];

/** Numbers in a view state (NumericViewState.count) and in a session's parameters (SessionParameters.count). */
export const STATE_COUNT = 80;
const PARAMETER_COUNT = 33;

/** Why the engine did not apply something. */
export class EngineError extends Error {
  constructor(status, message) {
    super(message);
    this.name = "EngineError";
    /** -1 no such session, -2 numbers the module cannot read, -3 refused by the engine. */
    this.status = status;
  }
}

/** `"free"`, `"original"` or `"W:H"` as the three numbers of an aspect lock. */
function aspectNumbers(aspect) {
  if (aspect === undefined || aspect === null || aspect === "free") return [0, 0, 0];
  if (aspect === "original") return [1, 0, 0];
  const match = /^\s*(\d+)\s*:\s*(\d+)\s*$/.exec(String(aspect));
  if (!match) throw new EngineError(-2, `aspect '${aspect}' is not "free", "original" or "W:H"`);
  return [2, Number(match[1]), Number(match[2])];
}

function aspectName(kind, w, h) {
  return kind === 0 ? "free" : kind === 1 ? "original" : `${w}:${h}`;
}

function code(table, name, what) {
  const index = table.indexOf(name);
  if (index < 0) throw new EngineError(-2, `${what} '${name}' is not one of ${table.join(", ")}`);
  return index;
}

/** An editor-protocol event object (`{type: "pointerDown", id, x, y, intent}`, …) as its numbers. */
export function eventNumbers(event) {
  const kind = KINDS[event.type];
  if (kind === undefined) throw new EngineError(-2, `unknown event type '${event.type}'`);
  switch (event.type) {
    case "pointerDown": return [kind, event.id, event.x, event.y, code(INTENTS, event.intent ?? "auto", "intent")];
    case "pointerMove": case "pointerUp": return [kind, event.id, event.x, event.y];
    case "pointerCancel": return [kind, event.id];
    case "zoom": return [kind, event.factor, event.x, event.y];
    case "straighten": return [kind, event.angle, event.final === false ? 0 : 1];
    case "straightenBy": return [kind, event.delta];
    case "rotate":
      return [kind, code(DIRECTIONS, event.direction, "direction"), code(POLICIES, event.aspectPolicy, "aspectPolicy")];
    case "flip": return [kind, code(AXES, event.axis, "axis")];
    case "aspect": return [kind, ...aspectNumbers(event.aspect)];
    case "nudge": return [kind, event.dx, event.dy];
    case "resizeBy": return [kind, code(HANDLES, event.handle, "handle"), event.dx, event.dy];
    case "viewport": {
      const i = event.insets ?? {};
      return [kind, event.width, event.height, i.top ?? 0, i.left ?? 0, i.bottom ?? 0, i.right ?? 0];
    }
    case "mode": return [kind, code(MODES, event.mode, "mode")];
    case "setCrop": return [kind, event.x, event.y, event.width, event.height];
    default: return [kind];
  }
}

/** Loads the module. `source`: the .wasm's URL, a Response, or its bytes (default: beside this file). */
export async function loadEngine(source = new URL("./cropkit-engine.wasm", import.meta.url)) {
  const imports = {};  // the module needs nothing from the page
  let instance;
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    ({ instance } = await WebAssembly.instantiate(source, imports));
  } else {
    const response = source instanceof Response ? source : await fetch(source);
    if (!response.ok) throw new EngineError(-1, `cropkit-engine.wasm: HTTP ${response.status}`);
    ({ instance } = await WebAssembly.instantiate(await response.arrayBuffer(), imports));
  }
  return new Engine(instance.exports);
}

/** The loaded module: makes sessions. */
export class Engine {
  constructor(exports) {
    this.exports = exports;
    this.inputCount = exports.ck_input_count();
    /** The session whose current view state the output buffer holds, if any. */
    this.current = null;
  }

  /** The input buffer, re-viewed when the module's memory has grown. */
  input() {
    const buffer = this.exports.memory.buffer;
    if (this._input?.buffer !== buffer) {
      this._input = new Float64Array(buffer, this.exports.ck_input(), this.inputCount);
      this._output = new Float64Array(buffer, this.exports.ck_output(), STATE_COUNT);
    }
    return this._input;
  }

  /** The output buffer (valid until the next call into the module). */
  output() {
    this.input();
    return this._output;
  }

  /**
   * A session on a picture of `width`×`height` stored pixels with EXIF `orientation` (1…8), for a `viewport`
   * (`{width, height, insets?}`); `configuration` takes CropSession.Configuration's fields (the editor's hello
   * `tuning.session`), `recipe` a recipe object to start from, `minimumCropSize` the smallest crop side in source
   * pixels.
   */
  createSession({ width, height, orientation = 1, minimumCropSize = 1, viewport, configuration = {}, recipe = null }) {
    const c = configuration;
    const insets = viewport.insets ?? {};
    const fixed = c.fixedAspect ? aspectNumbers(c.fixedAspect) : [0, 0, 0];
    const numbers = [width, height, orientation, minimumCropSize, viewport.width, viewport.height,
      insets.top ?? 0, insets.left ?? 0, insets.bottom ?? 0, insets.right ?? 0,
      c.touchRadius ?? 24, c.handleSize ?? 20, c.tapSlop ?? 5, c.historyLimit ?? 100,
      c.previewSize?.width ?? 0, c.previewSize?.height ?? 0, c.maximumBoxFraction ?? 0.8,
      c.straightenSnap ?? 0.5, c.rotationThreshold ?? 4, fixed[1], fixed[2]];
    if (recipe) {
      const crop = recipe.crop ?? { centerX: 0.5, centerY: 0.5, width: 1, height: 1 };
      numbers.push(1, crop.centerX, crop.centerY, crop.width, crop.height, recipe.angle ?? 0,
        recipe.quarterTurns ?? 0, recipe.flipHorizontal ? 1 : 0, recipe.flipVertical ? 1 : 0,
        ...aspectNumbers(recipe.aspect));
    }
    return this.createSessionFromNumbers(numbers);
  }

  /** A session from SessionParameters' numbers. */
  createSessionFromNumbers(numbers) {
    const input = this.input();
    input.fill(0, 0, PARAMETER_COUNT);
    input.set(numbers);
    this.current = null;  // ck_session_new may write the output buffer
    const handle = this.exports.ck_session_new();
    if (handle === -2) throw new EngineError(-2, `session parameter ${this.output()[0]} is out of its range`);
    if (handle < 0) throw new EngineError(handle, "the engine refused the picture, viewport or recipe");
    return new Session(this, handle);
  }
}

/** One crop session: events in, view states out. */
export class Session {
  constructor(engine, handle) {
    this.engine = engine;
    this.handle = handle;
  }

  /**
   * Applies an event given as numbers (NumericEvent). Returns the status: 0 applied (the state is in `numbers()`),
   * -2 unreadable, -3 refused by the engine (the session is unchanged).
   */
  applyNumbers(numbers) {
    const input = this.engine.input();
    input.fill(0, 0, 7);
    input.set(numbers);
    const status = this.engine.exports.ck_session_event(this.handle);
    // The output buffer holds this session's state after an applied event (and still does after a refusal, which
    // changes nothing); an unreadable event writes its kind there.
    if (status === 0) this.engine.current = this;
    else if (status !== -3) this.engine.current = null;
    return status;
  }

  /** Applies an editor-protocol event object; throws EngineError when it was not applied. */
  apply(event) {
    const status = this.applyNumbers(eventNumbers(event));
    if (status !== 0) {
      throw new EngineError(status, status === -3 ? `the engine refused '${event.type}'` : `unreadable '${event.type}'`);
    }
    return this;
  }

  /** The current view state as numbers (NumericViewState): a fresh Float64Array of STATE_COUNT. */
  numbers() {
    // Right after an event the output buffer already holds the state: the module is not asked to make it again.
    if (this.engine.current !== this) {
      if (this.engine.exports.ck_session_state(this.handle) !== 0) throw new EngineError(-1, "no such session");
      this.engine.current = this;
    }
    return this.engine.output().slice();
  }

  /** The current view state as the editor protocol's object (ViewStateMessage's JSON). */
  view() {
    return viewObject(this.numbers());
  }

  /** The current recipe object (the schema of Recipe's JSON). */
  recipe() {
    return recipeObject(this.numbers());
  }

  pointerDown(id, x, y, intent = "auto") { return this.applyNumbers([0, id, x, y, code(INTENTS, intent, "intent")]); }
  pointerMove(id, x, y) { return this.applyNumbers([1, id, x, y]); }
  pointerUp(id, x, y) { return this.applyNumbers([2, id, x, y]); }
  pointerCancel(id) { return this.applyNumbers([3, id]); }

  /** Forgets the session in the module. */
  free() {
    if (this.engine.current === this) this.engine.current = null;
    this.engine.exports.ck_session_free(this.handle);
    this.handle = 0;
  }
}

function rect(n, i) {
  return { x: n[i], y: n[i + 1], width: n[i + 2], height: n[i + 3] };
}

/** A recipe object from a view state's numbers. */
export function recipeObject(n) {
  return {
    version: 1,
    crop: { centerX: n[35], centerY: n[36], width: n[37], height: n[38] },
    angle: n[39], quarterTurns: n[40], flipHorizontal: n[41] === 1, flipVertical: n[42] === 1,
    aspect: aspectName(n[26], n[27], n[28]),
  };
}

/** The editor protocol's view state object from NumericViewState's numbers. */
export function viewObject(n) {
  return {
    viewport: { width: n[0], height: n[1] },
    image: { width: n[2], height: n[3], transform: { a: n[4], b: n[5], c: n[6], d: n[7], tx: n[8], ty: n[9] } },
    cropBox: rect(n, 10),
    handles: HANDLES.map((handle, k) => ({ handle, ...rect(n, 48 + 4 * k) })),
    pictureCorners: [0, 1, 2, 3].map((k) => ({ x: n[14 + 2 * k], y: n[15 + 2 * k] })),
    showsGrid: n[22] === 1,
    angle: n[23], quarterTurns: n[24], flipped: n[25] === 1,
    aspect: aspectName(n[26], n[27], n[28]),
    outputSize: { width: n[29], height: n[30] },
    canUndo: n[31] === 1, canRedo: n[32] === 1,
    mode: MODES[n[33]], gesture: GESTURES[n[34]],
    recipe: recipeObject(n),
    wantedBox: rect(n, 43), minimumSide: n[47],
  };
}
