// CropKit editor page. It holds no crop geometry: it sends input events to the server's EditorSession over a
// WebSocket and draws the EditorViewState it gets back. At most one event is in flight; while one is, pointer
// moves, wheel zooms, slider drags and viewport changes are coalesced (only the latest matters).
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const stage = $("stage"), picture = $("picture"), overlay = $("overlay");
  const ctx = overlay.getContext("2d");
  const SESSION_KEY = "cropkit-edit-session";
  const INSET = 16;

  let ws = null;
  let session = null;       // session id from the server's hello
  let image = null;         // the picture's description
  let view = null;          // the last EditorViewState
  let queue = [];           // events waiting to be sent
  let inFlight = null;      // {event, sentAt}
  let idleWaiters = [];     // resolvers waiting for an empty queue
  const pointers = new Set();
  let spaceHeld = false;
  let finished = false;     // Done shown or cancelled: input ignored
  const rtts = [];          // round trips in ms (most recent 2000)

  // ---------------------------------------------------------------- connection

  function connect() {
    const stored = sessionStorage.getItem(SESSION_KEY);
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/session` +
      (stored ? `?id=${encodeURIComponent(stored)}` : "");
    ws = new WebSocket(url);
    ws.onmessage = (e) => receive(JSON.parse(e.data));
    ws.onclose = () => {
      ws = null;
      inFlight = null;
      if (!finished) setMessage("Disconnected from cropkit. Reload the page once it runs again.", true);
    };
  }

  function receive(msg) {
    if (msg.type === "hello") {
      session = msg.session;
      sessionStorage.setItem(SESSION_KEY, session);
      image = msg.image;
      if (!picture.src) {
        picture.src = image.preview.url;
        picture.alt = image.name;
      }
      if (msg.restored) setMessage("Restored your last edit.");
      queue = [];
      send(viewportEvent());
      return;
    }
    if (inFlight) {
      const rtt = performance.now() - inFlight.sentAt;
      rtts.push(rtt);
      if (rtts.length > 2000) rtts.shift();
      inFlight = null;
    }
    if (msg.type === "state") {
      view = msg.state;
      draw();
      if (msg.notice) setMessage(msg.notice);
    } else if (msg.type === "error") {
      setMessage(msg.message, true);
    }
    pump();
  }

  /** Queues an event, merging it into the last queued one when only the latest value matters. */
  function send(event) {
    if (finished && event.type !== "viewport") return;
    const last = queue[queue.length - 1];
    if (last && last.type === event.type) {
      if (event.type === "pointerMove" && last.id === event.id) { queue[queue.length - 1] = event; return pump(); }
      if (event.type === "viewport") { queue[queue.length - 1] = event; return pump(); }
      if (event.type === "straighten" && last.final === false) { queue[queue.length - 1] = event; return pump(); }
      if (event.type === "zoom") {
        queue[queue.length - 1] = { ...event, factor: last.factor * event.factor };
        return pump();
      }
    }
    queue.push(event);
    pump();
  }

  function pump() {
    if (!inFlight && queue.length && ws && ws.readyState === WebSocket.OPEN) {
      const event = queue.shift();
      inFlight = { event, sentAt: performance.now() };
      ws.send(JSON.stringify(event));
    }
    if (!inFlight && !queue.length) {
      const waiters = idleWaiters;
      idleWaiters = [];
      waiters.forEach((resolve) => resolve());
    }
    showRtt();
  }

  /** Resolves once every queued event has been answered. */
  function idle() {
    if (!inFlight && !queue.length) return Promise.resolve();
    return new Promise((resolve) => idleWaiters.push(resolve));
  }

  function viewportEvent() {
    return {
      type: "viewport", width: Math.max(1, stage.clientWidth), height: Math.max(1, stage.clientHeight),
      insets: { top: INSET, left: INSET, bottom: INSET, right: INSET },
    };
  }

  // ---------------------------------------------------------------- drawing

  function draw() {
    if (!view) return;
    const t = view.image.transform;
    picture.style.width = `${view.image.width}px`;
    picture.style.height = `${view.image.height}px`;
    picture.style.transform = `matrix(${t.a}, ${t.b}, ${t.c}, ${t.d}, ${t.tx}, ${t.ty})`;
    picture.style.visibility = "visible";

    const dpr = window.devicePixelRatio || 1;
    const w = stage.clientWidth, h = stage.clientHeight;
    if (overlay.width !== Math.round(w * dpr) || overlay.height !== Math.round(h * dpr)) {
      overlay.width = Math.round(w * dpr);
      overlay.height = Math.round(h * dpr);
    }
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, w, h);

    const box = view.cropBox, corners = view.pictureCorners;
    // The picture outside the box, dimmed: the picture's outline and the box, filled even-odd.
    const outline = new Path2D();
    corners.forEach((p, i) => (i ? outline.lineTo(p.x, p.y) : outline.moveTo(p.x, p.y)));
    outline.closePath();
    const dim = new Path2D(outline);
    dim.rect(box.x, box.y, box.width, box.height);
    ctx.fillStyle = "rgba(0, 0, 0, 0.55)";
    ctx.fill(dim, "evenodd");
    ctx.strokeStyle = "rgba(255, 255, 255, 0.25)";
    ctx.lineWidth = 1;
    ctx.stroke(outline);

    if (view.showsGrid) {
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
    ctx.strokeRect(box.x, box.y, box.width, box.height);

    // Handles: L-shaped corners and short bars on the edges, centred on the server's handle squares.
    ctx.fillStyle = "#fff";
    for (const hd of view.handles) {
      const cx = hd.x + hd.width / 2, cy = hd.y + hd.height / 2, len = Math.min(hd.width, 18), th = 4;
      const sx = hd.handle.includes("Left") || hd.handle === "left" ? 1 : -1;
      const sy = hd.handle.startsWith("top") ? 1 : -1;
      if (["topLeft", "topRight", "bottomLeft", "bottomRight"].includes(hd.handle)) {
        ctx.fillRect(sx > 0 ? cx - th / 2 : cx - len + th / 2, sy > 0 ? cy - th / 2 : cy - th / 2, len, th);
        ctx.fillRect(cx - th / 2, sy > 0 ? cy - th / 2 : cy - len + th / 2, th, len);
      } else if (hd.handle === "top" || hd.handle === "bottom") {
        ctx.fillRect(cx - len / 2, cy - th / 2, len, th);
      } else {
        ctx.fillRect(cx - th / 2, cy - len / 2, th, len);
      }
    }
    updateControls();
  }

  function updateControls() {
    $("undo").disabled = !view.canUndo;
    $("redo").disabled = !view.canRedo;
    const slider = $("straighten");
    if (document.activeElement !== slider || view.gesture !== "straightening") slider.value = view.angle;
    const angle = `${(Math.round(view.angle * 10) / 10).toFixed(1)}°`;
    $("angle").textContent = angle;
    slider.setAttribute("aria-valuetext", angle);
    $("mode").setAttribute("aria-pressed", String(view.mode === "pan"));
    const select = $("aspect");
    const presets = Array.from(select.options).map((o) => o.value);
    if (presets.includes(view.aspect) && view.aspect !== "custom") {
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
    $("output-size").textContent =
      `Done will save ${view.outputSize.width} × ${view.outputSize.height} px` +
      (view.aspect !== "free" ? ` · aspect ${view.aspect}` : "");
  }

  function showRtt() {
    if (rtts.length < 5) return;
    const s = stats();
    $("rtt").textContent = `round trip ${s.median.toFixed(1)} / ${s.p95.toFixed(1)} ms`;
  }

  function stats() {
    const sorted = [...rtts].sort((a, b) => a - b);
    const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
    return { count: sorted.length, median: at(0.5), p95: at(0.95), max: sorted[sorted.length - 1] ?? 0 };
  }

  function setMessage(text, isError = false) {
    const m = $("message");
    m.textContent = text;
    m.classList.toggle("error", isError);
  }

  // ---------------------------------------------------------------- pointer input

  function local(e) {
    const r = overlay.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  }

  overlay.addEventListener("pointerdown", (e) => {
    if (finished || (e.pointerType === "mouse" && e.button !== 0 && e.button !== 1)) return;
    e.preventDefault();
    overlay.focus({ preventScroll: true });
    overlay.setPointerCapture(e.pointerId);
    pointers.add(e.pointerId);
    const intent = e.button === 1 || e.altKey || spaceHeld ? "pan" : e.shiftKey ? "draw" : "auto";
    send({ type: "pointerDown", id: e.pointerId, ...local(e), intent });
  });
  overlay.addEventListener("pointermove", (e) => {
    if (pointers.has(e.pointerId)) {
      send({ type: "pointerMove", id: e.pointerId, ...local(e) });
    } else {
      hoverCursor(local(e));
    }
  });
  const lift = (e) => {
    if (!pointers.delete(e.pointerId)) return;
    send({ type: "pointerUp", id: e.pointerId, ...local(e) });
  };
  overlay.addEventListener("pointerup", lift);
  overlay.addEventListener("pointercancel", (e) => {
    if (pointers.delete(e.pointerId)) send({ type: "pointerCancel", id: e.pointerId });
  });
  overlay.addEventListener("lostpointercapture", lift);
  overlay.addEventListener("wheel", (e) => {
    e.preventDefault();
    if (finished) return;
    // Trackpad pinches arrive as wheel events with ctrlKey and small deltas.
    const scale = e.ctrlKey ? 0.01 : e.deltaMode === 1 ? 0.05 : 0.0015;
    send({ type: "zoom", factor: Math.exp(-e.deltaY * scale), ...local(e) });
  }, { passive: false });

  /** The cursor shows what a press would do, from the handle squares and box the server sent. */
  function hoverCursor(p) {
    if (!view) return;
    const inside = (r) => p.x >= r.x && p.x <= r.x + r.width && p.y >= r.y && p.y <= r.y + r.height;
    const cursors = {
      topLeft: "nwse-resize", bottomRight: "nwse-resize", topRight: "nesw-resize", bottomLeft: "nesw-resize",
      top: "ns-resize", bottom: "ns-resize", left: "ew-resize", right: "ew-resize",
    };
    let cursor = "crosshair";
    if (view.mode === "pan" || spaceHeld) cursor = "grab";
    else {
      const hd = view.handles.find(inside);
      if (hd) cursor = cursors[hd.handle];
      else if (inside(view.cropBox)) cursor = "move";
    }
    overlay.style.cursor = cursor;
  }

  // ---------------------------------------------------------------- controls

  const click = (id, make) => $(id).addEventListener("click", () => send(make()));
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
  click("aspect-swap", () => ({ type: "swapAspect" }));
  click("mode", () => ({ type: "mode", mode: view && view.mode === "pan" ? "crop" : "pan" }));

  const slider = $("straighten");
  slider.addEventListener("input", () => send({ type: "straighten", angle: Number(slider.value), final: false }));
  slider.addEventListener("change", () => send({ type: "straighten", angle: Number(slider.value), final: true }));

  $("aspect").addEventListener("change", () => {
    const value = $("aspect").value;
    $("custom-aspect").hidden = value !== "custom";
    if (value === "custom") { $("aspect-w").focus(); return; }
    send({ type: "aspect", aspect: value });
  });
  const applyCustom = () => {
    const w = Math.round(Number($("aspect-w").value)), h = Math.round(Number($("aspect-h").value));
    if (w >= 1 && h >= 1) send({ type: "aspect", aspect: `${w}:${h}` });
    else setMessage("A custom aspect needs two whole numbers of at least 1.", true);
  };
  $("aspect-apply").addEventListener("click", applyCustom);
  for (const id of ["aspect-w", "aspect-h"]) {
    $(id).addEventListener("keydown", (e) => { if (e.key === "Enter") applyCustom(); });
  }

  // ---------------------------------------------------------------- keyboard

  document.addEventListener("keydown", (e) => {
    if (e.key === " " && e.target === overlay) { spaceHeld = true; e.preventDefault(); return; }
    const tag = e.target && e.target.tagName;
    if (finished || tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    const mod = e.ctrlKey || e.metaKey;
    if (mod && (e.key === "z" || e.key === "Z")) {
      send({ type: e.shiftKey ? "redo" : "undo" });
    } else if (mod && (e.key === "y" || e.key === "Y")) {
      send({ type: "redo" });
    } else if (mod) {
      return;
    } else if (e.key.startsWith("Arrow")) {
      if (!view) return;
      const side = Math.max(view.outputSize.width, view.outputSize.height);
      const step = Math.max(1, Math.round(side / 200)) * (e.shiftKey ? 10 : 1);
      const d = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] }[e.key];
      if (!d) return;
      send({ type: "nudge", dx: d[0], dy: d[1] });
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
    } else {
      return;
    }
    e.preventDefault();
  });
  document.addEventListener("keyup", (e) => { if (e.key === " ") spaceHeld = false; });

  // ---------------------------------------------------------------- Done and Cancel

  let downloadURL = null;
  $("done").addEventListener("click", async () => {
    if (!session || finished) return;
    $("done").disabled = true;
    setMessage("Rendering at full resolution…");
    try {
      await idle();
      const format = $("format").value;
      const response = await fetch(
        `/api/sessions/${encodeURIComponent(session)}/render${format ? `?format=${format}` : ""}`,
        { method: "POST" });
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
        `${width} × ${height} px ${blob.type === "image/png" ? "PNG" : "JPEG"}, ${(blob.size / 1024).toFixed(0)} KB`;
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
    if (id) await fetch(`/api/sessions/${encodeURIComponent(id)}`, { method: "DELETE" }).catch(() => null);
    picture.style.visibility = "hidden";
    ctx.clearRect(0, 0, overlay.width, overlay.height);
    $("cancelled").hidden = false;
    $("restart").focus();
  });
  $("restart").addEventListener("click", () => location.reload());

  // ---------------------------------------------------------------- start

  new ResizeObserver(() => { if (session) send(viewportEvent()); else draw(); }).observe(stage);

  /** For tests and measurements: the current view state, round-trip figures and a way to wait for quiet. */
  window.cropkit = {
    get view() { return view; },
    get session() { return session; },
    stats,
    idle,
    send,
    resetStats: () => { rtts.length = 0; },
  };

  connect();
})();
