// CropKit editor page. The server's CropSession is the authority: the page sends input events to it over a
// WebSocket. So that every gesture feels local over any network, the page runs the very same engine itself: the
// Swift crop engine compiled to WebAssembly (web/cropkit-engine.wasm, through web/cropkit-engine.js). Every input
// is applied to the page's own session in the frame it arrives, and the page draws that session's state; the same
// events go to the server, batched while one batch is in flight, and each answer (`seq`) is compared with the
// page's own state after that event. They are equal to the last bit (the module's parity test holds the engine to
// it); if one ever differs, the page adopts the server's state and counts it (window.cropkit.divergences). Nothing
// the page computes is ever saved: Done, recipes, sidecars and exports use the session's state. Auto and Suggest
// are measured by the server: the page holds later input until their answer says what changed, then replays it.
// When the connection drops, the page reconnects with backoff to the same session, and resends what the session
// had not applied (the hello says the last one it did). Edits are saved beside the photo by the server within a
// second; the page asks for it at once before it leaves, hides or goes to another photo. Changes that come from a
// discrete control (a turn, an aspect, undo, a gesture's end) are eased over a short transition, unless the user
// asked for reduced motion; the server's latest view state is window.cropkit.view, the drawn one
// window.cropkit.drawn. Without WebAssembly (or with `?engine=off`) the page draws the server's answers only.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const stage = $("stage"), picture = $("picture"), overlay = $("overlay");
  const ctx = overlay.getContext("2d");
  // The picture this page edits: `?image=ID` (one opened here), or the server's own.
  const IMAGE_ID = new URLSearchParams(location.search).get("image") || "0";
  const SESSION_KEY = `cropkit-edit-session:${IMAGE_ID}`;
  const INSET = 16;
  // This page load, so that a reconnect (not a reload) learns which of its events the session applied.
  const PAGE = (crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`).replace(/[^\w-]/g, "");
  /** The longest Done, Copy, Export all and moving to another photo wait for the edits to reach the server. */
  const SEND_TIMEOUT_MS = 10000;
  /** The longest the full-resolution render of Done may take before the page gives up on it. */
  const RENDER_TIMEOUT_MS = 120000;

  let ws = null;
  let session = null;       // session id from the server's hello
  let image = null;         // the picture's description
  let view = null;          // the last CropViewState
  let queue = [];           // events waiting to be sent
  let inFlight = null;      // {event, sentAt}
  let nextSeq = 1;          // the next event's sequence number
  let fatal = false;        // the server refused the picture: no reconnect
  let retries = 0;          // reconnect attempts since the connection was last up
  let reconnectTimer = null;
  let connected = false;    // this connection's hello has arrived
  let quietNotice = false;  // the next state's notice is not shown (the first after a reconnect)
  let idleWaiters = [];     // resolvers waiting for an empty queue
  const pointers = new Set();
  let spaceHeld = false;
  let finished = false;     // Done shown or cancelled: input ignored
  const rtts = [];          // round trips in ms (most recent 2000)
  let shown = null;         // what is drawn now: {transform, size, box, corners}, less any easing left
  let shownAngle = 0;       // the straighten angle drawn now (the readout)
  let easing = null;        // {from, to, began, duration}: a discrete change being eased in
  let frameRequested = false;
  /** `?engine=off` draws only the server's answers, as a page without WebAssembly does (for measurements). */
  const ENGINE_WANTED = new URLSearchParams(location.search).get("engine") !== "off";
  /** The session's tunables (the hello's `tuning`): the preview is sized by its box fraction. */
  let tuning = { maximumBoxFraction: 0.8 };
  let engine = null;        // the engine module (web/cropkit-engine.js), once loaded
  let drawing = null;       // how a crop is drawn (web/cropkit-draw.js, shared with <cropkit-cropper>)
  let local = null;         // the page's own session, made like the server's (`start`) on each connection
  let start = null;         // how the server made this connection's session (its first state's `start`)
  let localView = null;     // the page's session's view state: what is drawn
  const expected = new Map(); // seq → the page's state numbers after that event, to compare with the answer
  let divergences = 0;      // answers that differed from the page's own state (each adopted)
  let holding = false;      // an Auto or Suggest is in flight: later input waits for its answer
  let held = [];            // input that waits meanwhile
  const lastPointer = new Map(); // pointer id → its last position (for the measure's frames)
  let made = null;          // what the page's session was made from ({...start, viewport, recipe})
  const appliedLog = [];    // the numbers of every event applied to it since (for replayCheck)
  // For window.cropkit.measure: input time stamps not yet drawn, those whose answer has come (without the engine),
  // input-to-frame times, recorded frames and corrections.
  const measure = { inputs: [], answered: [], latency: [], frames: [], corrections: [] };
  let gridAlways = false;   // the Grid toggle: the thirds grid stays on
  let focusedHandle = null; // the handle button with keyboard focus
  // What the host requires (from the hello): a fixed aspect, a minimum crop side, an exact output size, a round output.
  let constraints = { aspect: null, minimumCropSize: 1, outputSize: null, round: false };
  const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
  /** Events after which the view eases to its new place instead of jumping. */
  const EASED = new Set(["rotate", "flip", "aspect", "swapAspect", "undo", "redo", "reset", "resetCrop",
    "autoStraighten", "propose", "straightenBy", "nudge", "resizeBy", "pointerUp"]);
  const TRANSITION_MS = 160;
  /** A 1×1 AVIF (297 bytes, written by cropkit): decoding it says whether this browser takes AVIF. */
  const TINY_AVIF = "AAAAHGZ0eXBhdmlmAAAAAGF2aWZtaWYxbWlhZgAAAOptZXRhAAAAAAAAACFoZGxyAAAAAAAAAABwaWN0AAAAAAAAAAAAAAAAAAAAAA5waXRtAAAAAAABAAAAImlsb2MAAAAAREAAAQABAAAAAAEOAAEAAAAAAAAAGwAAACNpaW5mAAAAAAABAAAAFWluZmUCAAAAAAEAAGF2MDEAAAAAamlwcnAAAABLaXBjbwAAABNjb2xybmNseAACAAIABoAAAAAMYXYxQ4EADAAAAAAUaXNwZQAAAAAAAAABAAAAAQAAABBwaXhpAAAAAAMICAgAAAAXaXBtYQAAAAAAAAABAAEEgYIDhAAAACNtZGF0EgAKCBgABggQEDQgMg0YAAAAQACwE1N7GMvO";
  /** Gestures that change the crop's size, during which its size is shown on the box. */
  const SIZED = new Set(["drawing", "resizing", "keyResizing"]);

  // ---------------------------------------------------------------- connection

  function connect() {
    reconnectTimer = null;
    const stored = sessionStorage.getItem(SESSION_KEY);
    // Relative to the page, so the editor works under any path (cropkit serve hosts it at /edit/<token>/).
    const url = new URL(`api/session?image=${encodeURIComponent(IMAGE_ID)}&page=${PAGE}` +
      (stored ? `&id=${encodeURIComponent(stored)}` : ""), location.href);
    url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(url.href);
    ws = socket;
    connected = false;
    socket.onmessage = (e) => receive(JSON.parse(e.data));
    socket.onclose = () => {
      if (ws !== socket) return;
      ws = null;
      // The event in flight may or may not have been applied: the next hello says.
      if (inFlight) queue.unshift(...inFlight.events);
      inFlight = null;
      if (finished || fatal) return;
      retries += 1;
      if (!view && retries > 4) {
        showFailure("Can't reach cropkit. Start `cropkit edit` again, then reload this page.");
      } else if (view) {
        const waiting = queue.filter((e) => e.type !== "viewport").length;
        setMessage(`Connection to cropkit lost; reconnecting…` +
          (waiting ? ` ${waiting} edit${waiting === 1 ? "" : "s"} will be sent then.` : ""), true);
      }
      // Backoff: 0.25, 0.5, 1, 2, 4, then every 5 s.
      reconnectTimer = setTimeout(connect, Math.min(5000, 250 * 2 ** (retries - 1)));
      settleWaiters();
    };
  }

  function receive(msg) {
    if (msg.type === "hello") {
      const reconnected = retries > 0 && view !== null;
      retries = 0;
      connected = true;
      session = msg.session;
      sessionStorage.setItem(SESSION_KEY, session);
      image = msg.image;
      if (!picture.src) {
        picture.onerror = () => showFailure(`The preview of ${image.name} could not be loaded.`);
        picture.onload = () => { if (view) ready(); };
        picture.src = `${image.preview.url}?side=${previewSide()}`;
        picture.alt = image.name;
        $("title").textContent = `CropKit editor: ${image.name}`;
        document.title = `${image.name} · CropKit editor`;
      }
      if (msg.constraints) applyConstraints(msg.constraints);
      if (msg.tuning) tuning = { ...tuning, ...msg.tuning };
      // This connection's session is made anew by its first viewport (from the saved recipe): so is the page's.
      if (local) local.free();
      local = null;
      start = null;
      expected.clear();
      host.origins = msg.hostPages || [];
      if (msg.uploads === false) {
        // Nothing can be opened here (a hosted editor edits the picture its URL names).
        canOpen = false;
        $("open").hidden = true;
        $("help").textContent = $("help").textContent.replace(/^Drop a picture to open it · /, "");
      }
      // In a host page, Done hands over the recipe: the host's URL decides the output format.
      if (host.origin) $("format").hidden = true;
      // A connection starts with a viewport; then whatever the session has not applied yet, in order.
      const applied = msg.applied || 0;
      const replay = queue.filter((e) => e.type !== "viewport" && !(e.seq && e.seq <= applied));
      queue = [viewportEvent(), ...replay];
      // The first state's notice (where a new session starts) is news only to a new page.
      quietNotice = reconnected;
      if (reconnected) {
        setMessage(`Reconnected.${replay.length ? ` Sent ${replay.length} edit${replay.length === 1 ? "" : "s"} made meanwhile.` : ""}`);
      } else if (msg.restored) {
        setMessage("Restored your last edit.");
      }
      pump();
      return;
    }
    let answered = null;
    if (inFlight) {
      answered = inFlight.events;
      measure.answered.push(...inFlight.stamps);
      const rtt = performance.now() - inFlight.sentAt;
      rtts.push(rtt);
      if (rtts.length > 2000) rtts.shift();
      inFlight = null;
    }
    if (msg.type === "state") {
      view = msg.state;
      if (msg.start && answered) begin(msg.start, answered);
      if (msg.decided) decided(msg.decided, msg.seq);
      check(msg.seq, view);
      // Without the engine, the server's answer is what is drawn; a discrete change eases in.
      if (!local) show(answered && answered.some((e) => EASED.has(e.type)) && pointers.size === 0);
      announce();
      if (picture.complete && picture.naturalWidth) ready();
      if (msg.notice && !quietNotice) setMessage(msg.notice);
      quietNotice = false;
      tellHostAboutState();
      if (msg.decided || answered?.some((e) => SERVER_DECIDES.has(e.type))) release();
    } else if (msg.type === "error") {
      if (!session) {
        // The server could not read the picture: its reason, not a connection problem (it closes next).
        fatal = true;
        showFailure(`${msg.message}. Open another picture.`);
      } else {
        setMessage(msg.message, true);
        // The page's engine refuses what the server refuses; one it applied and the server did not is a divergence:
        // ask for the server's state (the flush's answer is compared and adopted).
        if (msg.seq && expected.has(msg.seq)) {
          divergences += 1;
          expected.clear();
          enqueue({ type: "flush" });
        }
        if (answered?.some((e) => SERVER_DECIDES.has(e.type))) release();
      }
    }
    pump();
  }

  /** The preview's longer side this stage needs: the whole picture as the session first fits it (the largest box
   * inside the stage less the insets and within its fraction of the stage), in device pixels. Zoomed further in, the
   * sharp regions take over; the server rounds up to its step and never goes above the nominal preview. */
  function previewSide() {
    const dpr = window.devicePixelRatio || 1, w = stage.clientWidth, h = stage.clientHeight;
    const f = tuning.maximumBoxFraction, pw = Math.max(1, image.width), ph = Math.max(1, image.height);
    const k = Math.min(Math.min(w - 2 * INSET, f * w) / pw, Math.min(h - 2 * INSET, f * h) / ph);
    return Math.max(16, Math.ceil(Math.max(pw, ph) * Math.max(k, 0) * dpr));
  }

  /** Whether this browser decodes AVIF (a 1×1 picture tried once): regions are then asked for in AVIF. The preview
   * needs no test: the browser's own Accept header says it. */
  const avifDecodes = (() => {
    const bytes = Uint8Array.from(atob(TINY_AVIF), (c) => c.charCodeAt(0));
    const url = URL.createObjectURL(new Blob([bytes], { type: "image/avif" }));
    const probe = new Image();
    probe.src = url;
    return probe.decode().then(() => true, () => false).finally(() => URL.revokeObjectURL(url));
  })();

  /** Requests the server answers itself: alone on the wire, and the page waits for what they decided. */
  const SERVER_DECIDES = new Set(["autoStraighten", "propose"]);
  /** The most events one batch carries (a pointer move is about 70 bytes; the server takes 16 KB a message). */
  const BATCH_LIMIT = 150;

  /** Applies an input to the page's session at once (it is drawn in this frame) and queues it for the server. */
  function send(event) {
    if (finished && event.type !== "viewport" && event.type !== "flush") return;
    if (holding && event.type !== "flush") {
      held.push(event);
      return;
    }
    if (SERVER_DECIDES.has(event.type)) holding = !!local;
    if (local) applyLocally(event);
    enqueue(event);
    requestFrame();
  }

  function enqueue(event) {
    queue.push(event);
    pump();
  }

  /** Sends what is queued when nothing is in flight: the engine's events as one batch (the server applies every
   * one, in order, and answers once), a request the server answers itself alone. */
  function pump() {
    if (!inFlight && queue.length && ws && ws.readyState === WebSocket.OPEN && connected) {
      let count = 0;
      while (count < queue.length && count < BATCH_LIMIT && !isRequest(queue[count])) count += 1;
      const events = queue.splice(0, Math.max(1, count));
      for (const event of events) if (!event.seq) event.seq = nextSeq++;
      // Without the engine the inputs so far are drawn once this batch's answer is.
      inFlight = { events, sentAt: performance.now(), stamps: local ? [] : measure.inputs.splice(0) };
      ws.send(JSON.stringify(isRequest(events[0]) ? events[0] : events));
    }
    settleWaiters();
  }

  const isRequest = (event) => SERVER_DECIDES.has(event.type) || event.type === "flush";

  /** Resolves the waiters of idle() once nothing is queued or in flight. */
  function settleWaiters() {
    if (!inFlight && !queue.length) {
      const waiters = idleWaiters;
      idleWaiters = [];
      waiters.forEach((w) => w.resolve());
    }
  }

  /** Resolves once every queued event has been answered; rejects after `timeout` ms (the server is not reachable:
   * the events stay queued and are sent when it is back). */
  function idle(timeout = SEND_TIMEOUT_MS) {
    if (!inFlight && !queue.length) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const waiter = { resolve: () => { clearTimeout(timer); resolve(); } };
      const timer = setTimeout(() => {
        idleWaiters = idleWaiters.filter((w) => w !== waiter);
        const waiting = queue.length + (inFlight ? 1 : 0);
        reject(new Error(ws && ws.readyState === WebSocket.OPEN
          ? `cropkit has not answered for ${timeout / 1000} s (${waiting} edit${waiting === 1 ? "" : "s"} waiting)`
          : `cropkit is not reachable; ${waiting} edit${waiting === 1 ? "" : "s"} will be sent when it is back`));
      }, timeout);
      idleWaiters.push(waiter);
    });
  }

  /** Asks the server to save the crop beside the photo now, and waits for it (bounded as idle()). */
  async function flush() {
    if (!session || !view) return;
    send({ type: "flush" });
    await idle();
  }

  function viewportEvent() {
    return {
      type: "viewport", width: Math.max(1, stage.clientWidth), height: Math.max(1, stage.clientHeight),
      insets: { top: INSET, left: INSET, bottom: INSET, right: INSET },
    };
  }

  // ---------------------------------------------------------------- the engine in the page

  /** Loads the engine module; until it is in (or without WebAssembly), the page draws the server's answers. */
  const engineLoaded = !ENGINE_WANTED || typeof WebAssembly !== "object" ? Promise.resolve(null)
    : import(new URL("web/cropkit-engine.js", location.href).href)
      .then((module) => module.loadEngine(new URL("web/cropkit-engine.wasm", location.href)).then((e) => {
        engine = { ...module, instance: e };
        return engine;
      }))
      .catch((error) => { console.warn(`cropkit: the engine did not load (${error}); drawing the server's answers`); return null; });

  /** The connection's first state says how the server made its session: the page makes its own the same way, from
   * the viewport that made the server's, applies the rest of that batch, and then what is still queued. */
  function begin(madeBy, batch) {
    start = madeBy;
    if (!engine) return;
    const [viewport, ...rest] = batch;
    try {
      made = { ...madeBy, viewport: { width: viewport.width, height: viewport.height, insets: viewport.insets } };
      appliedLog.length = 0;
      local = engine.instance.createSession(made);
    } catch (error) {
      console.warn(`cropkit: the page's engine refused the session (${error.message})`);
      local = null;
      return;
    }
    for (const event of rest) applyLocally(event, false);
    for (const event of queue) applyLocally(event);
    localView = local.view();
    show(false);
  }

  /** Applies `event` to the page's session; notes the state after it for its answer (`record`). */
  function applyLocally(event, record = true) {
    if (!event.seq) event.seq = nextSeq++;
    if (SERVER_DECIDES.has(event.type)) return;  // its answer says what it decided (`decided`)
    if (event.type === "flush") {
      if (record) expected.set(event.seq, local.numbers());
      return;
    }
    const before = localView;
    const numbers0 = engine.eventNumbers(event);
    local.applyNumbers(numbers0);  // a refusal leaves it unchanged, as on the server
    if (appliedLog.length < 200000) appliedLog.push(numbers0);
    const numbers = local.numbers();
    if (record) expected.set(event.seq, numbers);
    localView = engine.viewObject(numbers);
    if (EASED.has(event.type) && pointers.size === 0 && before) ease(before);
  }

  /** What the server decided itself (Auto, Suggest, answering `seq`) applied to the page's session too. */
  function decided(change, seq) {
    if (!local) return;
    const before = localView;
    const numbers = engine.eventNumbers(change);
    local.applyNumbers(numbers);
    appliedLog.push(numbers);
    expected.set(seq, local.numbers());
    localView = local.view();
    ease(before);
  }

  /** Held input goes on once the server's decision is in. */
  function release() {
    holding = false;
    const waiting = held;
    held = [];
    for (const event of waiting) send(event);
  }

  /** Compares the server's answer to `seq` with the page's state after that event; adopts it when they differ. */
  function check(seq, state) {
    if (!local || seq === undefined) return;
    const mine = expected.get(seq);
    for (const key of [...expected.keys()]) if (key <= seq) expected.delete(key);
    if (!mine || sameView(engine.viewObject(mine), state)) return;
    divergences += 1;
    console.warn(`cropkit: the server's state after event ${seq} differs from the page's; adopting it`);
    adopt(state);
  }

  /** Whether two view states are the same (numbers within 1e-9 of each other's size). */
  function sameView(a, b) {
    if (typeof b === "number") return typeof a === "number" && Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));
    if (typeof b !== "object" || b === null) return a === b;
    if (typeof a !== "object" || a === null) return false;
    return Object.keys(b).every((k) => sameView(a[k], b[k]));
  }

  /** Makes the page's session again from the server's state (its recipe; the history stays with the server), then
   * applies what the server has not answered yet. */
  function adopt(state) {
    const viewport = { width: state.viewport.width, height: state.viewport.height,
      insets: { top: INSET, left: INSET, bottom: INSET, right: INSET } };
    local.free();
    local = null;
    try {
      made = { ...start, viewport, recipe: state.recipe };
      appliedLog.length = 0;
      local = engine.instance.createSession(made);
    } catch {
      return;  // drawn from the server's answers from now on
    }
    expected.clear();
    for (const event of queue) applyLocally(event);
    const before = shown;
    localView = local.view();
    if (before) {
      measure.corrections.push({ arrival: performance.now(), settled: performance.now(),
        size: distance(before, geometry(localView)), gesture: localView.gesture });
      ease(before);
    }
    show(false);
  }

  // ---------------------------------------------------------------- drawing

  const drawingLoaded = import(new URL("web/cropkit-draw.js", location.href).href)
    .then((module) => { drawing = module; })
    .catch((error) => showFailure(`The page could not load its drawing code (${error}). Reload to try again.`));

  /** The view state drawn: the page's session's, or without it the server's last answer. */
  const drawnView = () => localView || view;

  /** What a view state draws: the picture's transform and size, the box and the picture's outline. */
  const geometry = (v) => ({
    transform: v.image.transform, size: { width: v.image.width, height: v.image.height }, box: v.cropBox,
    corners: v.pictureCorners,
  });

  /** Eases from what was drawn (`before`) into the state now drawn, over TRANSITION_MS. */
  function ease(before) {
    if (reducedMotion.matches || !shown) return;
    const target = geometry(drawnView()), from = withEasing(shown, performance.now()).g;
    if (!similar(from, target) || distance(from, target) <= 0.25) return;
    easing = { from, to: target, began: performance.now(), duration: TRANSITION_MS };
  }

  /** Draws the state now (`eased`: a discrete change answered by the server, eased in when the page has no engine). */
  function show(eased = false) {
    if (eased && shown) ease(shown);
    render();
  }

  /** Asks for a frame that draws the state (input handlers call it; one draw per frame). */
  function requestFrame() {
    if (frameRequested || !drawnView()) return;
    frameRequested = true;
    requestAnimationFrame(() => { frameRequested = false; render(); });
  }

  /** Draws the page's state now, less what is left of a running easing. */
  function render() {
    const v = drawnView();
    if (!v) return;
    shownAngle = v.angle;
    const { g, done } = withEasing(geometry(v), performance.now());
    if (easing && done) easing = null;
    else if (easing) requestFrame();
    if (!easing && (!shown || distance(shown, g) > 0)) scheduleDetail();  // the view may settle here
    shown = g;
    draw();
    const now = performance.now();
    // With the engine an input is drawn by the next frame; without it, by the frame after its answer.
    const drawnInputs = local ? measure.inputs : measure.answered;
    for (const stamp of drawnInputs) measure.latency.push(now - stamp);
    drawnInputs.length = 0;
    if (measure.latency.length > 20000) measure.latency.splice(0, measure.latency.length - 20000);
    if (measure.recording) {
      const pointer = lastPointer.size ? [...lastPointer.values()].pop() : null;
      measure.frames.push({ t: now, box: { ...g.box }, angle: shownAngle, pointer, transform: { ...g.transform },
        gesture: v.gesture });
    }
  }

  /** `g` with what is left at `now` of the running easing (ease-out cubic); `done` once nothing is left. */
  function withEasing(g, now) {
    if (!easing) return { g, done: true };
    const t = Math.min(1, (now - easing.began) / easing.duration);
    return t < 1 ? { g: offsetBy(g, easing.from, easing.to, (1 - t) ** 3), done: false } : { g, done: true };
  }

  /** Whether two drawings can be eased into each other (the same mirroring; a flip jumps). */
  function similar(a, b) {
    const det = (t) => t.a * t.d - t.b * t.c;
    return Math.sign(det(a.transform)) === Math.sign(det(b.transform));
  }

  /** The largest distance, in view points, between two drawings' boxes and picture corners. */
  function distance(a, b) {
    let d = 0;
    for (const k of ["x", "y", "width", "height"]) d = Math.max(d, Math.abs(a.box[k] - b.box[k]));
    a.corners.forEach((p, i) => { d = Math.max(d, Math.abs(p.x - b.corners[i].x), Math.abs(p.y - b.corners[i].y)); });
    return d;
  }

  // Affine maps {a, b, c, d, tx, ty} (x' = a x + c y + tx), for easing a drawing: no crop rule.
  const applyMap = (t, p) => ({ x: t.a * p.x + t.c * p.y + t.tx, y: t.b * p.x + t.d * p.y + t.ty });
  function invertMap(t) {
    const det = t.a * t.d - t.b * t.c;
    const a = t.d / det, b = -t.b / det, c = -t.c / det, d = t.a / det;
    return { a, b, c, d, tx: -(a * t.tx + c * t.ty), ty: -(b * t.tx + d * t.ty) };
  }
  const composeMaps = (outer, inner) => ({
    a: outer.a * inner.a + outer.c * inner.b, b: outer.b * inner.a + outer.d * inner.b,
    c: outer.a * inner.c + outer.c * inner.d, d: outer.b * inner.c + outer.d * inner.d,
    tx: outer.a * inner.tx + outer.c * inner.ty + outer.tx, ty: outer.b * inner.tx + outer.d * inner.ty + outer.ty,
  });

  /** `g` with the fraction `w` of the difference `from − to` added: the picture's turn, scale and centre, and the box,
   * each eased apart (the picture's outline follows its transform). */
  function offsetBy(g, from, to, w) {
    const polar = (t, size) => ({
      angle: Math.atan2(t.b, t.a), scale: Math.hypot(t.a, t.b),
      centre: applyMap(t, { x: size.width / 2, y: size.height / 2 }),
    });
    const pf = polar(from.transform, from.size), pt = polar(to.transform, to.size), pg = polar(g.transform, g.size);
    let turn = pf.angle - pt.angle;
    if (turn > Math.PI) turn -= 2 * Math.PI;
    if (turn < -Math.PI) turn += 2 * Math.PI;
    const angle = pg.angle + w * turn, scale = pg.scale * Math.exp(w * Math.log(pf.scale / pt.scale));
    const c = { x: pg.centre.x + w * (pf.centre.x - pt.centre.x), y: pg.centre.y + w * (pf.centre.y - pt.centre.y) };
    const mirror = Math.sign(g.transform.a * g.transform.d - g.transform.b * g.transform.c);
    const cos = Math.cos(angle) * scale, sin = Math.sin(angle) * scale;
    const t = { a: cos, b: sin, c: -sin * mirror, d: cos * mirror };
    t.tx = c.x - (t.a * g.size.width / 2 + t.c * g.size.height / 2);
    t.ty = c.y - (t.b * g.size.width / 2 + t.d * g.size.height / 2);
    const remap = composeMaps(t, invertMap(g.transform));
    const box = {};
    for (const k of ["x", "y", "width", "height"]) box[k] = g.box[k] + w * (from.box[k] - to.box[k]);
    return { ...g, transform: t, corners: g.corners.map((p) => applyMap(remap, p)), box };
  }

  function draw() {
    const view = drawnView();
    if (!view || !shown || !drawing) return;
    const t = shown.transform;
    picture.style.width = `${view.image.width}px`;
    picture.style.height = `${view.image.height}px`;
    picture.style.transform = `matrix(${t.a}, ${t.b}, ${t.c}, ${t.d}, ${t.tx}, ${t.ty})`;
    picture.style.visibility = "visible";
    placeDetail(t);

    const dpr = window.devicePixelRatio || 1;
    const w = stage.clientWidth, h = stage.clientHeight;
    if (overlay.width !== Math.round(w * dpr) || overlay.height !== Math.round(h * dpr)) {
      overlay.width = Math.round(w * dpr);
      overlay.height = Math.round(h * dpr);
    }
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, w, h);

    // The box and the handles as drawn now (the handles moved with the box while it eases).
    const box = shown.box;
    const dx = box.x - view.cropBox.x, dy = box.y - view.cropBox.y;
    const sx = box.width / Math.max(1e-9, view.cropBox.width), sy = box.height / Math.max(1e-9, view.cropBox.height);
    drawing.drawCrop(ctx, {
      box, corners: shown.corners, round: constraints.round, grid: view.showsGrid || gridAlways,
      handles: view.handles.map((hd) => ({
        handle: hd.handle, length: Math.min(hd.width, 18), focused: hd.handle === focusedHandle,
        x: view.cropBox.x + (hd.x + hd.width / 2 - view.cropBox.x) * sx + dx,
        y: view.cropBox.y + (hd.y + hd.height / 2 - view.cropBox.y) * sy + dy,
      })),
    });
    if (SIZED.has(view.gesture) || focusedHandle) {
      drawSizeLabel(box, view.outputSize);
    }
    placeHandleButtons();
    updateControls();
  }

  /** The output's W × H in source pixels, on the box: inside its bottom edge, or below it when the box is small. */
  function drawSizeLabel(box, size) {
    const text = `${size.width} × ${size.height}`;
    ctx.font = "600 13px system-ui, sans-serif";
    const w = ctx.measureText(text).width + 14, h = 22;
    let x = box.x + box.width / 2 - w / 2;
    let y = box.height > 3 * h ? box.y + box.height - h - 10 : box.y + box.height + 8;
    x = Math.max(4, Math.min(stage.clientWidth - w - 4, x));
    y = Math.max(4, Math.min(stage.clientHeight - h - 4, y));
    ctx.fillStyle = "rgba(0, 0, 0, 0.75)";
    ctx.beginPath();
    if (ctx.roundRect) ctx.roundRect(x, y, w, h, 11);
    else ctx.rect(x, y, w, h);
    ctx.fill();
    ctx.fillStyle = "#fff";
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillText(text, x + w / 2, y + h / 2 + 0.5);
  }

  function updateControls() {
    const view = drawnView();
    $("undo").disabled = !view.canUndo;
    $("redo").disabled = !view.canRedo;
    const slider = $("straighten");
    if (document.activeElement !== slider || view.gesture !== "straightening") slider.value = shownAngle;
    const angle = `${(Math.round(shownAngle * 10) / 10).toFixed(1)}°`;
    $("angle").textContent = angle;
    slider.setAttribute("aria-valuetext", angle);
    $("mode").setAttribute("aria-pressed", String(view.mode === "pan"));
    const select = $("aspect");
    const presets = Array.from(select.options).map((o) => o.value);
    if (customOpen) {
      // The person is typing a custom aspect: a state (a resize as the toolbar wraps) leaves the fields alone.
      select.value = "custom";
      $("custom-aspect").hidden = false;
    } else if (presets.includes(view.aspect) && view.aspect !== "custom") {
      select.value = view.aspect;
      $("custom-aspect").hidden = true;
    } else {
      select.value = "custom";
      $("custom-aspect").hidden = false;
      const [w, h] = String(view.aspect).split(":");
      if (document.activeElement !== $("aspect-w") && document.activeElement !== $("aspect-h")) {
        $("aspect-w").value = w;
        $("aspect-h").value = h;
      }
    }
    const out = constraints.outputSize, crop = view.outputSize;
    $("output-size").textContent = out
      ? `Done will save ${out.width} × ${out.height} px${constraints.round ? ", round" : ""} ` +
        `(from ${crop.width} × ${crop.height} source px)`
      : `Done will save ${crop.width} × ${crop.height} px${constraints.round ? ", round" : ""}` +
        (view.aspect !== "free" ? ` · aspect ${view.aspect}` : "");
  }

  function stats() {
    const sorted = [...rtts].sort((a, b) => a - b);
    const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
    return { count: sorted.length, median: at(0.5), p95: at(0.95), max: sorted[sorted.length - 1] ?? 0 };
  }

  /** A fixed aspect disables the aspect controls (the engine enforces it anyway). */
  function applyConstraints(c) {
    constraints = c;
    for (const id of ["aspect", "aspect-swap", "aspect-w", "aspect-h", "aspect-apply"]) $(id).disabled = !!c.aspect;
    if (c.aspect) $("aspect").title = `The aspect is fixed at ${c.aspect}`;
  }

  /** The picture and its first state are in: the loading note goes. */
  function ready() {
    $("loading").hidden = true;
    stage.removeAttribute("aria-busy");
  }

  /** Nothing can be edited: says why in place of the picture. */
  function showFailure(text) {
    $("loading").hidden = true;
    stage.removeAttribute("aria-busy");
    const f = $("failure");
    f.textContent = text;
    f.hidden = false;
  }

  let announced = null, announceTimer = null;
  /** Tells screen readers what changed (size, angle, turn, mirroring, aspect): politely, at most twice a second,
   * with the state as it is when the announcement is made. */
  function announce() {
    if (announceTimer) return;
    announceTimer = setTimeout(() => {
      announceTimer = null;
      const view = drawnView();
      if (!view) return;
      const angle = Math.round(view.angle * 10) / 10;
      const now = {
        size: `Crop ${view.outputSize.width} by ${view.outputSize.height} pixels`,
        angle: `angle ${angle.toFixed(1)} degrees`,
        turn: `turned ${view.quarterTurns * 90} degrees`,
        flip: view.flipped ? "mirrored" : "not mirrored",
        aspect: view.aspect === "free" ? "aspect free" : `aspect ${view.aspect}`,
      };
      const parts = announced ? Object.keys(now).filter((k) => now[k] !== announced[k]).map((k) => now[k]) : [];
      announced = now;
      if (parts.length) $("announcer").textContent = `${parts.join(", ")}.`;
    }, 500);
  }

  function setMessage(text, isError = false) {
    const m = $("message");
    m.textContent = text;
    m.classList.toggle("error", isError);
  }


  // ---------------------------------------------------------------- sharp at every zoom

  // Zoomed past the preview's resolution, the visible part of the picture is rendered from the source at the
  // screen's resolution (GET /api/images/{id}/region) and laid over the preview once the view settles. It is
  // placed in preview coordinates, so it stays right under every later pan, zoom, turn or straighten, and is
  // replaced by a sharper one when the view settles elsewhere.
  let detailRegion = null;  // {x, y, width, height} in preview pixels, of the #detail shown
  let detailTimer = null, detailWanted = null;
  /** Where the sharp region of the settled view stands: "pending" (the view may still settle), "none" (none needed),
   * "loading", "shown" or "failed" (the preview stays). For measurements, which wait for it. */
  let detailState = "none", detailFetch = "none";
  const DETAIL_SETTLE_MS = 250;

  function scheduleDetail() {
    clearTimeout(detailTimer);
    // A settled view: no pointer down (wheel zooms, key steps and the slider end their runs only with another
    // kind of event, so the view counts as settled when nothing has changed for a moment).
    if (!drawnView() || pointers.size > 0) return;
    detailState = "pending";
    detailTimer = setTimeout(requestDetail, DETAIL_SETTLE_MS);
  }

  /** The preview rectangle visible on the stage, and how many device pixels show one preview pixel. */
  function visibleRegion() {
    const view = drawnView(), t = view.image.transform, det = t.a * t.d - t.b * t.c;
    const inverse = (x, y) => {
      const dx = x - t.tx, dy = y - t.ty;
      return { x: (t.d * dx - t.c * dy) / det, y: (-t.b * dx + t.a * dy) / det };
    };
    const w = stage.clientWidth, h = stage.clientHeight;
    const points = [inverse(0, 0), inverse(w, 0), inverse(0, h), inverse(w, h)];
    const x0 = Math.max(0, Math.min(...points.map((p) => p.x))), y0 = Math.max(0, Math.min(...points.map((p) => p.y)));
    const x1 = Math.min(view.image.width, Math.max(...points.map((p) => p.x)));
    const y1 = Math.min(view.image.height, Math.max(...points.map((p) => p.y)));
    return { x: x0, y: y0, width: x1 - x0, height: y1 - y0, scale: Math.hypot(t.a, t.b) * (window.devicePixelRatio || 1) };
  }

  function requestDetail() {
    const view = drawnView();
    detailState = "none";
    if (!view || !image || image.storedWidth * image.storedHeight <= view.image.width * view.image.height) return;
    const r = visibleRegion();
    // Device pixels per pixel of the preview as loaded (it may be smaller than the nominal one the view positions).
    const loaded = r.scale * view.image.width / Math.max(1, picture.naturalWidth || view.image.width);
    if (loaded <= 1.05 || r.width <= 0 || r.height <= 0) return;
    const out = { width: Math.ceil(r.width * r.scale), height: Math.ceil(r.height * r.scale) };
    const url = `api/images/${encodeURIComponent(IMAGE_ID)}/region?x=${r.x.toFixed(2)}&y=${r.y.toFixed(2)}` +
      `&width=${r.width.toFixed(2)}&height=${r.height.toFixed(2)}&outWidth=${out.width}&outHeight=${out.height}`;
    if (url === detailWanted) {
      detailState = detailFetch;  // this region is already shown, or on its way
      return;
    }
    detailWanted = url;
    detailState = detailFetch = "loading";
    const failed = () => { if (url === detailWanted) detailState = detailFetch = "failed"; };
    avifDecodes.then((avif) => fetch(url, { headers: { Accept: avif ? "image/avif,image/webp" : "image/webp" } }))
      .then(async (response) => {
      if (!response.ok) return failed();  // busy: the preview stays
      if (url !== detailWanted) return;  // superseded
      const [sx, sy, sw, sh] = (response.headers.get("X-Region") || "").split(",").map(Number);
      const blob = await response.blob();
      const loaded = new Image();
      loaded.onload = () => {
        if (url !== detailWanted) return URL.revokeObjectURL(loaded.src);
        const detail = $("detail");
        if (detail.src.startsWith("blob:")) URL.revokeObjectURL(detail.src);
        // The source rectangle in preview pixels (the preview is the stored picture, scaled).
        const view = drawnView(), kx = view.image.width / image.storedWidth, ky = view.image.height / image.storedHeight;
        detailRegion = { x: sx * kx, y: sy * ky, width: sw * kx, height: sh * ky };
        detail.src = loaded.src;
        detail.dataset.region = `${sx},${sy},${sw},${sh}`;
        detail.dataset.url = url;
        detail.hidden = false;
        detailState = detailFetch = "shown";
        draw();
      };
      loaded.onerror = failed;
      loaded.src = URL.createObjectURL(blob);
    }).catch(failed);
  }

  /** Lays the detail over its part of the preview: the view's transform after the region's own placement. */
  function placeDetail(t) {
    const detail = $("detail");
    if (!detailRegion || detail.hidden || !detail.naturalWidth) return;
    const r = detailRegion, kx = r.width / detail.naturalWidth, ky = r.height / detail.naturalHeight;
    detail.style.width = `${detail.naturalWidth}px`;
    detail.style.height = `${detail.naturalHeight}px`;
    detail.style.transform = `matrix(${t.a * kx}, ${t.b * kx}, ${t.c * ky}, ${t.d * ky}, ` +
      `${t.a * r.x + t.c * r.y + t.tx}, ${t.b * r.x + t.d * r.y + t.ty})`;
    detail.style.visibility = "visible";
  }

  // ---------------------------------------------------------------- pointer input

  function pointIn(e) {
    const r = overlay.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  }

  overlay.addEventListener("pointerdown", (e) => {
    if (finished || (e.pointerType === "mouse" && e.button !== 0 && e.button !== 1)) return;
    e.preventDefault();
    overlay.focus({ preventScroll: true });
    overlay.setPointerCapture(e.pointerId);
    pointers.add(e.pointerId);
    // A finger gets larger handles and no reset on a stray tap (the engine's "touch" intent).
    const intent = e.button === 1 || e.altKey || spaceHeld ? "pan" : e.shiftKey ? "draw"
      : e.pointerType === "touch" ? "touch" : "auto";
    sendPointer({ type: "pointerDown", id: e.pointerId, ...pointIn(e), intent }, e);
  });
  overlay.addEventListener("pointermove", (e) => {
    if (pointers.has(e.pointerId)) {
      sendPointer({ type: "pointerMove", id: e.pointerId, ...pointIn(e) }, e);
    } else {
      hoverCursor(pointIn(e));
    }
  });
  const lift = (e) => {
    if (!pointers.delete(e.pointerId)) return;
    sendPointer({ type: "pointerUp", id: e.pointerId, ...pointIn(e) }, e);
    lastPointer.delete(e.pointerId);
  };

  /** Sends a pointer event: the page's session decides what it does (press, draw, move, resize, pan, pinch). */
  function sendPointer(event, e) {
    lastPointer.set(event.id, { x: event.x, y: event.y });
    measure.inputs.push(e.timeStamp);
    send(event);
  }
  overlay.addEventListener("pointerup", lift);
  overlay.addEventListener("pointercancel", (e) => {
    if (pointers.delete(e.pointerId)) {
      lastPointer.delete(e.pointerId);
      send({ type: "pointerCancel", id: e.pointerId });
    }
  });
  overlay.addEventListener("lostpointercapture", lift);
  overlay.addEventListener("wheel", (e) => {
    e.preventDefault();
    if (finished) return;
    // Trackpad pinches arrive as wheel events with ctrlKey and small deltas.
    const scale = e.ctrlKey ? 0.01 : e.deltaMode === 1 ? 0.05 : 0.0015;
    measure.inputs.push(e.timeStamp);
    send({ type: "zoom", factor: Math.exp(-e.deltaY * scale), ...pointIn(e) });
  }, { passive: false });

  /** The cursor shows what a press would do, from the view state's handle hit areas and box. */
  function hoverCursor(p) {
    const view = drawnView();
    if (!view) return;
    const inside = (r) => p.x >= r.x && p.x <= r.x + r.width && p.y >= r.y && p.y <= r.y + r.height;
    const cursors = {
      topLeft: "nwse-resize", bottomRight: "nwse-resize", topRight: "nesw-resize", bottomLeft: "nesw-resize",
      top: "ns-resize", bottom: "ns-resize", left: "ew-resize", right: "ew-resize",
    };
    let cursor = "crosshair";
    if (view.mode === "pan" || spaceHeld) cursor = "grab";
    else {
      const handle = view.handles.find(inside);
      if (handle) cursor = cursors[handle.handle];
      else if (inside(view.cropBox)) cursor = "move";
    }
    overlay.style.cursor = cursor;
  }

  // ---------------------------------------------------------------- controls

  const click = (id, make) => $(id).addEventListener("click", (e) => {
    measure.inputs.push(e.timeStamp);
    send(make());
  });
  click("undo", () => ({ type: "undo" }));
  click("redo", () => ({ type: "redo" }));
  click("reset", () => ({ type: "reset" }));
  click("rotate-left", () => ({ type: "rotate", direction: "counterClockwise", aspectPolicy: "followPicture" }));
  click("rotate-right", () => ({ type: "rotate", direction: "clockwise", aspectPolicy: "followPicture" }));
  click("flip-h", () => ({ type: "flip", axis: "horizontal" }));
  click("flip-v", () => ({ type: "flip", axis: "vertical" }));
  click("straighten-minus", () => ({ type: "straightenBy", delta: -0.1 }));
  click("straighten-plus", () => ({ type: "straightenBy", delta: 0.1 }));
  click("straighten-auto", () => ({ type: "autoStraighten" }));
  // Suggest keeps the people whole when there are any, else the most attention (the notice says which).
  click("propose", () => ({ type: "propose", measure: "face" }));
  click("aspect-swap", () => ({ type: "swapAspect" }));
  click("mode", () => ({ type: "mode", mode: drawnView() && drawnView().mode === "pan" ? "crop" : "pan" }));

  const slider = $("straighten");
  slider.addEventListener("input", (e) => (measure.inputs.push(e.timeStamp), send({ type: "straighten", angle: Number(slider.value), final: false })));
  slider.addEventListener("change", () => send({ type: "straighten", angle: Number(slider.value), final: true }));

  let customOpen = false;   // the custom aspect fields are open for typing
  $("aspect").addEventListener("change", () => {
    const value = $("aspect").value;
    customOpen = value === "custom";
    $("custom-aspect").hidden = !customOpen;
    if (customOpen) { $("aspect-w").focus(); return; }
    measure.inputs.push(performance.now());
    send({ type: "aspect", aspect: value });
  });
  const applyCustom = () => {
    const w = Math.round(Number($("aspect-w").value)), h = Math.round(Number($("aspect-h").value));
    if (w >= 1 && h >= 1) {
      customOpen = false;
      send({ type: "aspect", aspect: `${w}:${h}` });
    } else {
      setMessage("A custom aspect needs two whole numbers of at least 1.", true);
    }
  };
  /** Closes the custom aspect fields without applying them (Escape). */
  function closeCustom() {
    customOpen = false;
    if (view) updateControls();
    $("aspect").focus();
  }
  $("aspect-apply").addEventListener("click", applyCustom);
  for (const id of ["aspect-w", "aspect-h"]) {
    $(id).addEventListener("keydown", (e) => { if (e.key === "Enter") applyCustom(); });
  }

  // ---------------------------------------------------------------- opening another picture

  /** Sends a picture to the server, which reads it and makes its preview; then edits it (`?image=ID`). */
  let canOpen = true;       // the server takes pictures opened here (not in a hosted editor)

  async function openPicture(file) {
    if (!file || !canOpen) return;
    setMessage(`Opening ${file.name}…`);
    try {
      const response = await fetch(`api/images?name=${encodeURIComponent(file.name)}`, { method: "POST", body: file });
      const body = await response.json().catch(() => null);
      if (!response.ok) throw new Error(body && body.error ? body.error.message : `HTTP ${response.status}`);
      location.assign(`?image=${encodeURIComponent(body.id)}`);
    } catch (error) {
      setMessage(`Can't open ${file.name}: ${error.message}`, true);
    }
  }

  $("open").addEventListener("click", () => $("open-file").click());
  $("open-file").addEventListener("change", () => openPicture($("open-file").files[0]));
  stage.addEventListener("dragover", (e) => {
    if (!canOpen || !e.dataTransfer || !Array.from(e.dataTransfer.types).includes("Files")) return;
    e.preventDefault();
    stage.classList.add("dropping");
  });
  stage.addEventListener("dragleave", () => stage.classList.remove("dropping"));
  stage.addEventListener("drop", (e) => {
    e.preventDefault();
    stage.classList.remove("dropping");
    const file = e.dataTransfer && e.dataTransfer.files[0];
    if (file) openPicture(file);
  });


  // ---------------------------------------------------------------- a folder of photos

  let photos = [];          // the server's own pictures: [{id, name, edited, thumbnail}]
  let savesCrops = false;   // crops are saved beside the photos (a folder or a file list)
  let exportTimer = null;

  /** Fetches the server's pictures and shows the strip when there are several. */
  async function loadStrip() {
    const response = await fetch("api/images").catch(() => null);
    if (!response || !response.ok) return;
    const list = await response.json();
    photos = list.images;
    savesCrops = list.savesCrops;
    if (savesCrops) $("cancelled-note").textContent = "The photo's saved crop is back as it was.";
    if (photos.length < 2) return;
    const thumbs = $("thumbs");
    thumbs.replaceChildren(...photos.map((p, i) => {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = `/?image=${encodeURIComponent(p.id)}`;
      link.dataset.id = p.id;
      link.classList.toggle("edited", p.edited);
      link.title = p.name + (p.edited ? " (cropped)" : "");
      link.setAttribute("aria-label", `${p.name}, photo ${i + 1} of ${photos.length}${p.edited ? ", cropped" : ""}`);
      if (p.id === IMAGE_ID) link.setAttribute("aria-current", "page");
      link.addEventListener("click", (e) => { e.preventDefault(); go(p.id); });
      const img = document.createElement("img");
      img.src = p.thumbnail;
      img.alt = "";
      img.loading = "lazy";
      img.onerror = () => {
        link.classList.add("unreadable");
        link.title = `${p.name}: CropKit can't read this file`;
        link.setAttribute("aria-label", `${p.name}, photo ${i + 1} of ${photos.length}, can't be read`);
        img.remove();
      };
      link.append(img);
      item.append(link);
      return item;
    }));
    const index = photos.findIndex((p) => p.id === IMAGE_ID);
    $("position").textContent = index >= 0 ? `${index + 1} / ${photos.length}` : `${photos.length} photos`;
    $("previous").disabled = index <= 0;
    $("next").disabled = index < 0 || index >= photos.length - 1;
    $("copy-next").disabled = index < 0 || index >= photos.length - 1;
    $("copy-all").disabled = index < 0;
    $("strip").hidden = false;
    const current = thumbs.querySelector("[aria-current=page]");
    if (current) current.scrollIntoView({ block: "nearest", inline: "center" });
  }

  /** Goes to another photo. Its crop comes from its saved sidecar (written as this page changes the crop), so
   * the page starts a fresh session there rather than one this tab had before. */
  async function go(id) {
    if (id == null || id === IMAGE_ID) return;
    try {
      await flush();
    } catch (error) {
      setMessage(`Not leaving this photo: ${error.message}.`, true);
      return;
    }
    sessionStorage.removeItem(`cropkit-edit-session:${id}`);
    location.assign(`?image=${encodeURIComponent(id)}`);
  }

  function step(delta) {
    const index = photos.findIndex((p) => p.id === IMAGE_ID);
    const target = photos[index + delta];
    if (index >= 0 && target) go(target.id);
  }

  async function post(url) {
    const response = await fetch(url, { method: "POST" });
    const body = await response.json().catch(() => null);
    if (!response.ok) throw new Error(body && body.error ? body.error.message : `HTTP ${response.status}`);
    return body;
  }

  /** Copies this crop to the next photo (then goes there) or to all others (then refreshes the strip). */
  async function copyCrop(to) {
    if (!session) return;
    try {
      await idle();
      const outcome = await post(`api/sessions/${encodeURIComponent(session)}/copy?to=${to}`);
      const failed = outcome.failed.map((f) => `${f.name} (${f.message})`);
      if (to === "next" && outcome.copied.length && outcome.next) return go(outcome.next);
      setMessage(`Copied this crop to ${outcome.copied.length} photo${outcome.copied.length === 1 ? "" : "s"}` +
        (failed.length ? `; failed: ${failed.join(", ")}` : "."), failed.length > 0);
      loadStrip();
    } catch (error) {
      setMessage(`Copy failed: ${error.message}`, true);
    }
  }

  /** Starts Export all and follows its progress until it ends, then reports what was written and what failed. */
  async function exportAll() {
    try {
      await idle();
      showExport(await post("api/export"));
    } catch (error) {
      setMessage(`Export failed: ${error.message}`, true);
    }
  }

  function showExport(progress) {
    const bar = $("export-progress");
    bar.max = Math.max(1, progress.total);
    bar.value = progress.done;
    bar.hidden = !progress.running;
    $("export-all").disabled = progress.running;
    if (progress.running) {
      setMessage(`Exporting ${progress.done} of ${progress.total}…`);
      clearTimeout(exportTimer);
      exportTimer = setTimeout(async () => {
        const response = await fetch("api/export").catch(() => null);
        if (response && response.ok) showExport(await response.json());
        else setMessage("Lost track of the export.", true);
      }, 250);
      return;
    }
    const written = progress.written.length, failed = progress.failed;
    const summary = progress.total === 0
      ? "No photo has a crop yet: nothing to export."
      : `Exported ${written} of ${progress.total} photo${progress.total === 1 ? "" : "s"} to ${progress.folder}` +
        (failed.length ? `; ${failed.length} failed.` : ".");
    setMessage(summary, failed.length > 0);
    $("export-summary").textContent = summary;
    $("export-failures").replaceChildren(...failed.map((f) => {
      const item = document.createElement("li");
      item.textContent = `${f.name}: ${f.message}`;
      return item;
    }));
    $("export-report").hidden = false;
    $("export-close").focus();
  }

  $("previous").addEventListener("click", () => step(-1));
  $("next").addEventListener("click", () => step(1));
  $("copy-next").addEventListener("click", () => copyCrop("next"));
  $("copy-all").addEventListener("click", () => copyCrop("all"));
  $("export-all").addEventListener("click", exportAll);
  $("export-close").addEventListener("click", () => { $("export-report").hidden = true; overlay.focus(); });

  // ---------------------------------------------------------------- keyboard

  /** The step an arrow key asks for, in source pixels: 1, with Shift 10, with Ctrl or ⌘ 100. */
  function arrow(e) {
    const step = e.ctrlKey || e.metaKey ? 100 : e.shiftKey ? 10 : 1;
    return { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] }[e.key];
  }

  // One focusable, labelled button per handle, over the drawn handle (in tab order, clockwise from the top-left);
  // its arrow keys move that corner or edge.
  const HANDLE_LABELS = {
    topLeft: "top-left corner", top: "top edge", topRight: "top-right corner", right: "right edge",
    bottomRight: "bottom-right corner", bottom: "bottom edge", bottomLeft: "bottom-left corner", left: "left edge",
  };
  const handleButtons = {};
  for (const [name, label] of Object.entries(HANDLE_LABELS)) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "handle";
    b.dataset.handle = name;
    b.setAttribute("aria-label",
      `Crop ${label}. Arrow keys move it by 1 pixel, with Shift by 10, with Ctrl by 100.`);
    b.addEventListener("focus", () => { focusedHandle = name; draw(); });
    b.addEventListener("blur", () => { if (focusedHandle === name) focusedHandle = null; draw(); });
    b.addEventListener("keydown", (e) => {
      const d = arrow(e);
      if (!d) return;
      e.preventDefault();
      e.stopPropagation();
      if (!finished) send({ type: "resizeBy", handle: name, dx: d[0], dy: d[1] });
    });
    $("handles").appendChild(b);
    handleButtons[name] = b;
  }

  function placeHandleButtons() {
    for (const hd of drawnView().handles) {
      const b = handleButtons[hd.handle];
      if (!b) continue;
      b.style.left = `${hd.x}px`;
      b.style.top = `${hd.y}px`;
      b.style.width = `${hd.width}px`;
      b.style.height = `${hd.height}px`;
    }
  }

  /** Escape: cancels the gesture in progress (the crop goes back to where it began), else closes what is open (the
   * custom aspect fields, the export report, the result). Returns whether it did something. */
  function escape() {
    if (pointers.size) {
      for (const id of pointers) {
        send({ type: "pointerCancel", id });
        lastPointer.delete(id);
        if (overlay.hasPointerCapture(id)) overlay.releasePointerCapture(id);
      }
      pointers.clear();
      return true;
    }
    if (customOpen) { closeCustom(); return true; }
    if ($("more").getAttribute("aria-expanded") === "true") { setMore(false); $("more").focus(); return true; }
    if (!$("export-report").hidden) { $("export-report").hidden = true; overlay.focus(); return true; }
    if (!$("result").hidden) { $("back").click(); return true; }
    return false;
  }

  $("more").addEventListener("click", () => setMore($("more").getAttribute("aria-expanded") !== "true"));
  /** Shows or hides the less used controls on a phone. */
  function setMore(open) {
    $("more").setAttribute("aria-expanded", String(open));
    $("toolbar").classList.toggle("expanded", open);
  }

  $("grid").addEventListener("click", toggleGrid);
  function toggleGrid() {
    gridAlways = !gridAlways;
    $("grid").setAttribute("aria-pressed", String(gridAlways));
    draw();
  }

  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && escape()) { e.preventDefault(); return; }
    if (e.key === " " && e.target === overlay) { spaceHeld = true; e.preventDefault(); return; }
    const tag = e.target && e.target.tagName;
    if (finished || tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    const mod = e.ctrlKey || e.metaKey;
    measure.inputs.push(e.timeStamp);  // taken back below when the key does nothing
    if (e.key.startsWith("Arrow")) {
      const d = arrow(e);
      if (!d || !view) return measure.inputs.pop();
      send({ type: "nudge", dx: d[0], dy: d[1] });
    } else if (mod && (e.key === "z" || e.key === "Z")) {
      send({ type: e.shiftKey ? "redo" : "undo" });
    } else if (mod && (e.key === "y" || e.key === "Y")) {
      send({ type: "redo" });
    } else if (mod) {
      return measure.inputs.pop();
    } else if ((e.key === "," || e.key === "PageUp") && photos.length > 1) {
      step(-1);
    } else if ((e.key === "." || e.key === "PageDown") && photos.length > 1) {
      step(1);
    } else if (e.key === "g" || e.key === "G") {
      toggleGrid();
    } else if ((e.key === "o" || e.key === "O") && canOpen) {
      $("open-file").click();
    } else if (e.key === "[" || e.key === "{") {
      send({ type: "straightenBy", delta: e.shiftKey ? -1 : -0.1 });
    } else if (e.key === "]" || e.key === "}") {
      send({ type: "straightenBy", delta: e.shiftKey ? 1 : 0.1 });
    } else if (e.key === "r" || e.key === "R") {
      send({ type: "rotate", direction: e.shiftKey ? "counterClockwise" : "clockwise", aspectPolicy: "followPicture" });
    } else if (e.key === "f" || e.key === "F") {
      send({ type: "flip", axis: e.shiftKey ? "vertical" : "horizontal" });
    } else if (e.key === "a" || e.key === "A") {
      send({ type: "autoStraighten" });
    } else if (e.key === "s" || e.key === "S") {
      send({ type: "propose", measure: e.shiftKey ? "entropy" : "face" });
    } else {
      return measure.inputs.pop();
    }
    e.preventDefault();
  });
  document.addEventListener("keyup", (e) => { if (e.key === " ") spaceHeld = false; });

  // ---------------------------------------------------------------- a host page (embedding)
  // In a frame of a page whose origin the server lists (hello's hostPages), the editor tells that page what
  // happens: ready (first state), change (each new recipe at rest), done (recipe, output size and the server's image
  // URL) and cancel. Messages go only to the framing page's own origin, and only when it is listed.

  const host = {
    origins: [],
    told: null,  // the last recipe told (JSON), null before ready
    /** The framing page's origin when it may hear from the editor, else null. */
    get origin() {
      if (window.parent === window) return null;
      const ancestors = location.ancestorOrigins;
      const origin = ancestors && ancestors.length ? ancestors[0]
        : (document.referrer ? new URL(document.referrer).origin : null);
      return origin && this.origins.includes(origin) ? origin : null;
    },
  };

  function tellHost(message) {
    const origin = host.origin;
    if (origin) window.parent.postMessage({ source: "cropkit-editor", ...message }, origin);
  }

  /** What the crop renders to: the host's exact output size, else the engine's. */
  function outputSize() {
    return constraints.outputSize || view.outputSize;
  }

  function tellHostAboutState() {
    // At rest: no pointer down and no drag under way (the engine shows its grid while dragging, the slider's too).
    if (!view || view.showsGrid || pointers.size > 0 || finished) return;
    const recipe = JSON.stringify(view.recipe);
    if (recipe === host.told) return;
    const size = outputSize();
    const first = host.told === null;
    host.told = recipe;
    tellHost({ type: first ? "ready" : "change", recipe: view.recipe, width: size.width, height: size.height,
      image: first && image ? { name: image.name, width: image.width, height: image.height } : undefined });
  }

  /** Done in a host page: the server states the recipe, its size and the image URL; the host takes it from there. */
  async function doneForHost() {
    const response = await fetch(`api/sessions/${encodeURIComponent(session)}/done`,
      { method: "POST", signal: AbortSignal.timeout(RENDER_TIMEOUT_MS) });
    const body = await response.json().catch(() => null);
    if (!response.ok) throw new Error(body && body.error ? body.error.message : `HTTP ${response.status}`);
    finished = true;
    tellHost({ type: "done", recipe: body.recipe, width: body.width, height: body.height, url: body.url || null });
    setMessage(`Done: ${body.width} × ${body.height} px, sent to the page.`);
  }

  // ---------------------------------------------------------------- Done and Cancel

  /** The name people know a result's format by, from its media type. */
  function formatName(type) {
    const names = { "image/jpeg": "JPEG", "image/png": "PNG", "image/webp": "WebP", "image/avif": "AVIF",
      "image/heic": "HEIC", "image/heif": "HEIF", "image/gif": "GIF", "image/tiff": "TIFF", "image/bmp": "BMP",
      "image/jxl": "JPEG XL" };
    return names[type] || type.replace(/^image\//, "").toUpperCase();
  }

  let downloadURL = null;
  $("done").addEventListener("click", async () => {
    if (!session || finished) return;
    $("done").disabled = true;
    try {
      await idle();
      if (host.origin) return await doneForHost();
      setMessage("Rendering at full resolution…");
      const format = $("format").value;
      const response = await fetch(
        `api/sessions/${encodeURIComponent(session)}/render${format ? `?format=${format}` : ""}`,
        { method: "POST", signal: AbortSignal.timeout(RENDER_TIMEOUT_MS) })
        .catch((error) => {
          throw new Error(error.name === "TimeoutError"
            ? `no answer from cropkit after ${RENDER_TIMEOUT_MS / 1000} s` : "cropkit is not reachable");
        });
      if (!response.ok) {
        const body = await response.json().catch(() => null);
        throw new Error(body && body.error ? body.error.message : `HTTP ${response.status}`);
      }
      const blob = await response.blob();
      const width = response.headers.get("X-Image-Width"), height = response.headers.get("X-Image-Height");
      const disposition = response.headers.get("Content-Disposition") || "";
      const name = (/filename="([^"]+)"/.exec(disposition) || [])[1] || "edited.jpg";
      if (downloadURL) URL.revokeObjectURL(downloadURL);
      downloadURL = URL.createObjectURL(blob);
      const link = $("download");
      link.href = downloadURL;
      link.download = name;
      link.textContent = `Download ${name}`;
      link.dataset.width = width;
      link.dataset.height = height;
      $("result-size").textContent =
        `${width} × ${height} px ${formatName(blob.type)}, ${(blob.size / 1024).toFixed(0)} KB`;
      finished = true;
      $("result").hidden = false;
      link.focus();
      setMessage(`Rendered ${width} × ${height} px.`);
    } catch (error) {
      setMessage(`Render failed: ${error.message}`, true);
    } finally {
      $("done").disabled = false;
    }
  });
  $("back").addEventListener("click", () => {
    finished = false;
    $("result").hidden = true;
    overlay.focus();
  });

  $("cancel").addEventListener("click", async () => {
    finished = true;
    const id = session;
    sessionStorage.removeItem(SESSION_KEY);
    if (ws) ws.close();
    if (id) await fetch(`api/sessions/${encodeURIComponent(id)}`, { method: "DELETE" }).catch(() => null);
    picture.style.visibility = "hidden";
    ctx.clearRect(0, 0, overlay.width, overlay.height);
    $("cancelled").hidden = false;
    $("restart").focus();
    tellHost({ type: "cancel" });
  });
  $("restart").addEventListener("click", () => location.reload());

  // ---------------------------------------------------------------- start

  new ResizeObserver(() => { if (session) send(viewportEvent()); else draw(); }).observe(stage);

  // No lost edit: hidden (another tab, the phone's home screen) or leaving (another photo, closing the tab, the
  // back/forward cache), the crop is saved now. Leaving, the page cannot wait for answers: what is queued goes out
  // at once, then a flush on the socket and a beacon (either saves; the server saves within a second anyway).
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden" && session && view && !finished) send({ type: "flush" });
  });
  window.addEventListener("pagehide", () => {
    if (!session || !view) return;
    if (ws && ws.readyState === WebSocket.OPEN && connected) {
      const events = queue.filter((event) => !isRequest(event));
      for (const event of events) if (!event.seq) event.seq = nextSeq++;
      if (events.length) ws.send(JSON.stringify(events));
      queue = [];
      ws.send(JSON.stringify({ type: "flush", seq: nextSeq++ }));
    }
    if (navigator.sendBeacon) navigator.sendBeacon(`api/sessions/${encodeURIComponent(session)}/flush`);
  });
  // Back from the back/forward cache: the session moved on meanwhile (or the server did); start from it afresh.
  window.addEventListener("pageshow", (e) => { if (e.persisted) location.reload(); });
  setTimeout(() => { if (!view && !$("failure").textContent) setMessage("Still loading the picture…"); }, 8000);

  /** For tests and measurements: the current view state, round-trip figures and a way to wait for quiet. */
  window.cropkit = {
    get view() { return view; },
    get session() { return session; },
    stats,
    idle,
    send,
    resetStats: () => { rtts.length = 0; },
    flush,
    /** Events not yet answered (queued or in flight). */
    get pending() { return queue.length + (inFlight ? 1 : 0); },
    get connected() { return connected && !!ws && ws.readyState === WebSocket.OPEN; },
    /** Whether a socket is open or opening (false once a closed one is not being replaced). */
    get socketOpen() { return !!ws || reconnectTimer !== null; },
    get photos() { return photos; },
    get detailWanted() { return detailWanted; },
    /** Where the settled view's sharp region stands: "pending", "none", "loading", "shown" or "failed". */
    get detailState() { return detailState; },
    /** The latency measure: input-to-frame times (ms), frames drawn while `recording` ({t, box, angle, pointer,
     * transform}), and corrections ({arrival, settled, size}); `reset()` empties them. */
    measure: Object.assign(measure, {
      reset() { measure.latency.length = 0; measure.frames.length = 0; measure.corrections.length = 0; },
    }),
    /** What is drawn now (the page's session's state, less any easing left). */
    get shown() { return shown && { box: shown.box, transform: shown.transform, corners: shown.corners, angle: shownAngle }; },
    /** The page's own session's view state (null without the engine). */
    get drawn() { return localView; },
    /** "wasm" when the page runs the engine, "none" when it draws the server's answers only. */
    get engine() { return local ? "wasm" : "none"; },
    /** Answers that differed from the page's own state (each adopted). */
    get divergences() { return divergences; },
    /** Replays every event the page's session applied through a new session of the same module, made as it was:
     * {events, page: equal to what the page draws, server: equal to the server's last answer (when nothing is
     * pending)}. */
    replayCheck() {
      if (!local || !made) return null;
      const fresh = engine.instance.createSession(made);
      for (const numbers of appliedLog) fresh.applyNumbers(numbers);
      const replayed = engine.viewObject(fresh.numbers());
      fresh.free();
      const quiet = !inFlight && !queue.length && !held.length;
      return { events: appliedLog.length, page: sameView(replayed, localView), server: quiet && sameView(replayed, view) };
    },
    /** Whether what is drawn is exactly the session's last state: nothing unanswered, no easing. */
    get drawnIsServer() {
      if (!view || !shown || easing || inFlight || queue.length || held.length) return false;
      const same = (a, b) => Object.keys(b).every((k) => a[k] === b[k]);
      return same(shown.box, view.cropBox) && same(shown.transform, view.image.transform) &&
        shown.corners.every((p, i) => same(p, view.pictureCorners[i])) && shownAngle === view.angle;
    },
  };

  // The engine first (a moment: 135 KB, compiled while the socket would open), so the page's session can be made
  // with the server's.
  Promise.all([engineLoaded, drawingLoaded]).then(connect);
  loadStrip();
})();
