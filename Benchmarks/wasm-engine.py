#!/usr/bin/env python3
"""The crop engine in the page: its size, and what one pointer move costs in Chromium and in Node.

Loads web/cropkit-engine.js and the committed cropkit-engine.wasm in headless Chromium (a static page served by
Python on loopback, no CropKit process) and in Node, makes a session on a 6000x4000 picture with EXIF orientation 6,
straightens it 7.5 degrees (so every move goes through the straightened picture's clamping), presses in the crop box
and times pointer moves there and back across the box and past the picture's edge: batches of 50 moves, each timed
with performance.now() (Chromium coarsens a single call's clock to 0.1 ms without cross-origin isolation, so the
per-move figures are batch means), for 400 batches after 50 to warm up. Prints the module's bytes (raw and gzip -9),
the per-move p50 / p95 / max in microseconds, and the same in Node, where the clock is exact.

    /usr/bin/python3 Benchmarks/wasm-engine.py

Needs Debian's chromium, chromium-driver, python3-selenium and nodejs. Not a test: figures only.
"""
import gzip
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WEB = os.path.join(ROOT, "Sources", "CropEditor", "Resources", "web")

# The measured loop, the same in both runtimes: `engine` is the loaded module, `now` the clock.
LOOP = r"""
async function measure(engine, now) {
  const session = engine.createSession({ width: 6000, height: 4000, orientation: 6,
    viewport: { width: 1280, height: 860, insets: { top: 16, left: 16, bottom: 16, right: 16 } } });
  session.apply({ type: "straighten", angle: 7.5, final: true });
  const box = session.view().cropBox;
  const cx = box.x + box.width / 2, cy = box.y + box.height / 2;
  session.pointerDown(1, cx, cy);
  const batch = 50, perMove = [];
  let k = 0;
  for (let round = 0; round < 450; round++) {
    const t0 = now();
    for (let i = 0; i < batch; i++, k++) {
      const phase = (k % 400) / 400 * 2 * Math.PI;
      session.pointerMove(1, cx + 700 * Math.sin(phase), cy + 300 * Math.cos(phase));
    }
    const t = (now() - t0) / batch;
    if (round >= 50) perMove.push(t * 1000);
  }
  session.pointerUp(1, cx, cy);
  session.free();
  perMove.sort((a, b) => a - b);
  const at = (q) => perMove[Math.min(perMove.length - 1, Math.floor(q * perMove.length))];
  return { moves: perMove.length * batch, p50: at(0.5), p95: at(0.95), max: perMove[perMove.length - 1] };
}
"""


def node_figures():
    script = LOOP + f"""
import("{os.path.join(WEB, 'cropkit-engine.js')}").then(async (m) => {{
  const fs = await import("node:fs");
  const engine = await m.loadEngine(fs.readFileSync("{os.path.join(WEB, 'cropkit-engine.wasm')}"));
  const {{ performance }} = await import("node:perf_hooks");
  console.log(JSON.stringify(await measure(engine, () => performance.now())));
}});
"""
    with tempfile.NamedTemporaryFile("w", suffix=".mjs", delete=False) as f:
        f.write(script)
    try:
        out = subprocess.run(["node", f.name], capture_output=True, text=True, check=True).stdout
    finally:
        os.unlink(f.name)
    return json.loads(out)


def chromium_figures():
    folder = tempfile.mkdtemp()
    for name in ("cropkit-engine.js", "cropkit-engine.wasm"):
        shutil.copy(os.path.join(WEB, name), folder)
    with open(os.path.join(folder, "index.html"), "w") as f:
        f.write("<!doctype html><title>engine</title><script type=module>" + LOOP + """
import("./cropkit-engine.js").then(async (m) => {
  window.figures = await measure(await m.loadEngine(), () => performance.now());
});</script>""")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory",
                               folder], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]:
        options.add_argument(argument)
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
    try:
        import time
        for _ in range(100):
            try:
                driver.get(f"http://127.0.0.1:{port}/index.html")
                break
            except Exception:
                time.sleep(0.2)
        for _ in range(600):
            figures = driver.execute_script("return window.figures")
            if figures:
                return figures
            time.sleep(0.1)
        raise RuntimeError("the page did not finish")
    finally:
        driver.quit()
        server.terminate()
        shutil.rmtree(folder, ignore_errors=True)


def main():
    wasm = open(os.path.join(WEB, "cropkit-engine.wasm"), "rb").read()
    print(f"cropkit-engine.wasm: {len(wasm):,} bytes, {len(gzip.compress(wasm, 9)):,} gzipped (goals 150 KB, 60 KB)")
    for name, figures in (("Chromium", chromium_figures()), ("Node", node_figures())):
        print(f"{name}: {figures['moves']:,} pointer moves with a 7.5° straighten in force: per move p50 "
              f"{figures['p50']:.1f} µs, p95 {figures['p95']:.1f} µs, max {figures['max']:.1f} µs "
              f"(batch means of 50; goal p95 <= 100 µs)")


if __name__ == "__main__":
    main()
