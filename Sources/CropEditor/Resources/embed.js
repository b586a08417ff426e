// CropKit editor, embedded: a host page opens the editor in a frame and hears what happens in it.
//
//   <script src="https://images.example.com/embed.js"></script>
//   const editor = CropKitEditor.open({ url, onChange(m) { … } });   // url: the editor's (signed) address
//   const result = await editor.result;   // {type: "done", recipe, width, height, url} or {type: "cancel"}
//
// Messages from the editor: ready, change (the recipe at rest), done (the recipe, the exact size it renders to and,
// under `cropkit serve`, a signed image URL) and cancel. Each is {source: "cropkit-editor", type, …}. Only messages
// from the opened frame, at the editor's origin, are taken. The editor posts only to host pages its server lists
// (`--embed-origin`), and frames under any other page are refused by its Content-Security-Policy.
"use strict";

(function (global) {
  /**
   * Opens the editor.
   * @param {object} options
   * @param {string} options.url  the editor's address (for `cropkit serve`, a signed `/edit/…` URL).
   * @param {Element} [options.container]  where to put the frame; default: a full-window overlay.
   * @param {string} [options.title]  the frame's accessible name (default "Crop editor").
   * @param {boolean} [options.keepOpen]  keep the frame after done or cancel (default false: it is removed).
   * @param {function} [options.onReady] [options.onChange] [options.onDone] [options.onCancel]  called with each message.
   * @returns {{frame: HTMLIFrameElement, result: Promise<object>, close: function}}
   */
  function open(options) {
    if (!options || !options.url) throw new Error("CropKitEditor.open needs a url");
    const url = new URL(options.url, location.href);
    const frame = document.createElement("iframe");
    frame.src = url.href;
    frame.title = options.title || "Crop editor";
    frame.style.cssText = "width:100%;height:100%;border:0;display:block";

    let overlay = null;
    if (options.container) {
      options.container.appendChild(frame);
    } else {
      overlay = document.createElement("div");
      overlay.setAttribute("role", "dialog");
      overlay.setAttribute("aria-modal", "true");
      overlay.setAttribute("aria-label", frame.title);
      overlay.style.cssText = "position:fixed;inset:0;z-index:2147483000;background:rgba(0,0,0,.6);" +
        "padding:min(4vh,32px) min(4vw,32px);box-sizing:border-box";
      overlay.appendChild(frame);
      document.body.appendChild(overlay);
    }
    frame.focus();

    let settle;
    const result = new Promise((resolve) => { settle = resolve; });
    let settled = false;
    const handlers = { ready: options.onReady, change: options.onChange, done: options.onDone, cancel: options.onCancel };

    function onMessage(event) {
      if (event.source !== frame.contentWindow || event.origin !== url.origin) return;
      const message = event.data;
      if (!message || message.source !== "cropkit-editor" || !(message.type in handlers)) return;
      // The editor's server names its image URL by path: make it absolute, on the editor's origin.
      if (message.type === "done" && message.url) message.url = new URL(message.url, url).href;
      if (handlers[message.type]) handlers[message.type](message);
      if (message.type === "done" || message.type === "cancel") finish(message);
    }

    function finish(message) {
      if (settled) return;
      settled = true;
      settle(message);
      if (!options.keepOpen) close();
    }

    /** Removes the frame (and overlay); an unfinished edit ends as a cancel. */
    function close() {
      window.removeEventListener("message", onMessage);
      (overlay || frame).remove();
      if (!settled) { settled = true; settle({ source: "cropkit-editor", type: "cancel" }); }
    }

    window.addEventListener("message", onMessage);
    return { frame, result, close };
  }

  global.CropKitEditor = { open };
})(window);
