#!/usr/bin/env python3
"""Real-browser test of the drop-in component <cropkit-cropper> on a static page with no CropKit process.

The repository folder is served by Python's static file server (in this process) on loopback and Chromium (headless, Selenium) opens
Examples/web-component/index.html. With trusted input (WebDriver actions: mouse, wheel, keys, two touch fingers) it
draws a new box, moves it, resizes it by a corner, pans the picture (Alt-drag), zooms with the wheel, pinches,
straightens with the slider's keys and ], turns, flips, picks each aspect preset, swaps it, undoes and redoes, steps a
focused handle with the arrow keys, and checks after each that the engine's state changed as that gesture says (and,
straightened, that the picture still covers the crop: no fill). Then: axe-core finds no violations; the minimum size
holds; a fixed round 1:1 avatar keeps its aspect; Done emits the recipe and a preview, and the recipe rendered by
`cropkit apply` from the original file at full resolution (the size the component said), brought to the preview's size
by Pillow's Lanczos, matches the preview (PSNR >= 35 dB); no console errors.

Needs Debian's chromium, chromium-driver, python3-selenium and python3-pil, axe-core (`Tests/Browser/fetch-axe.sh`),
and a built `cropkit`; run with /usr/bin/python3. Exit status 0 when every check passes.
"""
import argparse
import base64
import functools
import http.server
import io
import json
import math
import os
import subprocess
import sys
import tempfile
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from editor_test import check, failures, make_driver, mouse_drag, run_axe  # noqa: E402

from PIL import Image  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.actions.action_builder import ActionBuilder  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLE = os.path.join(ROOT, "Sources", "CropSamples", "Samples", "waterfall-orientation6.jpg")

STATE = "return document.getElementById('cropper').state"


def state(driver):
    return driver.execute_script(STATE)


def stage_rect(driver):
    return driver.execute_script(
        "const r = document.getElementById('cropper').shadowRoot.querySelector('.stage').getBoundingClientRect();"
        "return {x: r.left, y: r.top, width: r.width, height: r.height};")


def drag(driver, points, alt=False, pause=0.02):
    """A trusted mouse drag through stage points (Alt held for a pan); the engine's state after it."""
    mouse_drag(driver, stage_rect(driver), points, pause, hold=Keys.ALT if alt else None)
    return state(driver)


def line(a, b, n=10):
    return [(a[0] + (b[0] - a[0]) * i / n, a[1] + (b[1] - a[1]) * i / n) for i in range(n + 1)]


def focus_stage(driver):
    driver.execute_script("document.getElementById('cropper').shadowRoot.querySelector('.stage').focus()")


def press(driver, *keys):
    chain = ActionChains(driver)
    for key in keys:
        chain.send_keys(key)
    chain.perform()
    return state(driver)


def click(driver, act):
    button = driver.execute_script(
        f"return document.getElementById('cropper').shadowRoot.querySelector('[data-act={act}]')")
    ActionChains(driver).move_to_element(button).click().perform()
    return state(driver)


def centre(box):
    return (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def close(a, b, tolerance=0.5):
    return all(abs(a[k] - b[k]) <= tolerance for k in ("x", "y", "width", "height"))


def inside_picture(s):
    """Whether every corner of the crop box lies inside the picture's outline (a convex quadrilateral): no fill."""
    quad = [(p["x"], p["y"]) for p in s["pictureCorners"]]
    b = s["cropBox"]
    corners = [(b["x"], b["y"]), (b["x"] + b["width"], b["y"]), (b["x"] + b["width"], b["y"] + b["height"]),
               (b["x"], b["y"] + b["height"])]
    signs = []
    for px, py in corners:
        for (ax, ay), (bx, by) in zip(quad, quad[1:] + quad[:1]):
            signs.append((bx - ax) * (py - ay) - (by - ay) * (px - ax))
    return all(v >= -1e-6 for v in signs) or all(v <= 1e-6 for v in signs)


def gestures(driver):
    s0 = state(driver)
    check(s0 is not None and s0["outputSize"] == {"width": 1800, "height": 1200},
          f"the component shows the sample upright, as its EXIF orientation 6 says ({s0 and s0['outputSize']})")
    box = s0["cropBox"]
    # Draw a new box inside the picture (Shift: always draw), from 30 % to 65 %.
    a = (box["x"] + box["width"] * 0.3, box["y"] + box["height"] * 0.3)
    b = (box["x"] + box["width"] * 0.65, box["y"] + box["height"] * 0.65)
    ActionChains(driver).key_down(Keys.SHIFT).perform()
    s = drag(driver, line(a, b))
    ActionChains(driver).key_up(Keys.SHIFT).perform()
    check(s["outputSize"]["width"] < 1800 and s["canUndo"], f"draw: a new, smaller box ({s['outputSize']})")
    # Move it by (+60, +30).
    box = s["cropBox"]
    c = centre(box)
    s = drag(driver, line(c, (c[0] + 60, c[1] + 30)))
    moved = s["cropBox"]
    check(abs(moved["x"] - box["x"] - 60) < 1 and abs(moved["y"] - box["y"] - 30) < 1
          or (moved["width"] < box["width"] * 1.01 and moved != box),
          f"move: the box follows the pointer ({box['x']:.0f},{box['y']:.0f} -> {moved['x']:.0f},{moved['y']:.0f})")
    # Resize by the bottom-right corner, inwards.
    before = s["outputSize"]
    corner = (moved["x"] + moved["width"], moved["y"] + moved["height"])
    s = drag(driver, line(corner, (corner[0] - 50, corner[1] - 40)))
    check(s["outputSize"]["width"] < before["width"] and s["outputSize"]["height"] < before["height"],
          f"resize: the corner makes the crop smaller ({before} -> {s['outputSize']})")
    # Pan the picture under the box (Alt-drag): the box stays, the picture moves.
    t0 = s["image"]["transform"]
    c = centre(s["cropBox"])
    s = drag(driver, line(c, (c[0] - 40, c[1] - 20)), alt=True)
    t1 = s["image"]["transform"]
    check((t1["tx"], t1["ty"]) != (t0["tx"], t0["ty"]), "pan: Alt-drag moves the picture under the box")
    # Zoom with the wheel (in), about the box's centre.
    out0 = s["outputSize"]
    stage = driver.execute_script("return document.getElementById('cropper').shadowRoot.querySelector('.stage')")
    c = centre(s["cropBox"])
    r = stage_rect(driver)
    ActionChains(driver).scroll_to_element(stage).perform()
    ActionChains(driver).move_to_element_with_offset(stage, int(c[0] - r["width"] / 2), int(c[1] - r["height"] / 2)) \
        .perform()
    driver.execute_script("window.scrollTo(0, 0)")
    from selenium.webdriver.common.actions.wheel_input import ScrollOrigin
    ActionChains(driver).scroll_from_origin(ScrollOrigin.from_element(stage, int(c[0] - r["width"] / 2),
                                                                      int(c[1] - r["height"] / 2)), 0, -200).perform()
    try:  # the wheel's events reach the page in its next frames: wait for the engine's state, not a clock
        WebDriverWait(driver, 30).until(lambda d: state(d)["outputSize"]["width"] < out0["width"])
    except Exception:
        pass
    s = state(driver)
    check(s["outputSize"]["width"] < out0["width"], f"wheel: zooms in ({out0} -> {s['outputSize']})")
    # Keys on the stage: ], the slider's arrows, turns, flips, swap, undo, redo.
    focus_stage(driver)
    s = press(driver, "]")
    check(abs(s["angle"] - 0.1) < 1e-9, f"] straightens by 0.1° ({s['angle']})")
    s = press(driver, *(["]"] * 9))
    s = driver.execute_script(STATE)
    check(abs(s["angle"] - 1.0) < 1e-9 and inside_picture(s), f"straightened 1°, the box inside the picture ({s['angle']})")
    slider = driver.execute_script("return document.getElementById('cropper').shadowRoot.querySelector('input[type=range]')")
    ActionChains(driver).click(slider).perform()
    s0 = state(driver)
    for _ in range(30):
        ActionChains(driver).send_keys(Keys.ARROW_RIGHT).perform()
    s = state(driver)
    check(s["angle"] > s0["angle"] and inside_picture(s), f"the slider straightens ({s0['angle']:.1f}° -> {s['angle']:.1f}°), no fill")
    focus_stage(driver)
    s = press(driver, "r")
    check(s["quarterTurns"] == 1, f"R turns the picture clockwise ({s['quarterTurns']})")
    s = click(driver, "rotate-left")
    check(s["quarterTurns"] == 0, "the rotate-left button turns it back")
    s = click(driver, "flip-h")
    check(s["flipped"], "the flip button mirrors it")
    focus_stage(driver)
    s = press(driver, "f")
    check(not s["flipped"], "F mirrors it back")
    s = click(driver, "flip-v")
    check(s["flipped"] and s["quarterTurns"] == 2, "flip vertical is a mirror and a half turn")
    # Every aspect preset, from the menu (WebDriver selects as a person would).
    from selenium.webdriver.support.ui import Select
    menu = driver.execute_script("return document.getElementById('cropper').shadowRoot.querySelector('select')")
    for preset in ["1:1", "4:3", "3:2", "16:9", "4:5", "original", "free"]:
        Select(menu).select_by_value(preset)
        s = state(driver)
        ok = s["aspect"] == preset
        if ":" in preset:
            w, h = map(int, preset.split(":"))
            ok = ok and abs(s["cropBox"]["width"] / s["cropBox"]["height"] - w / h) < 0.01
        check(ok, f"aspect {preset}: locked, the box at that ratio ({s['aspect']}, "
                  f"{s['cropBox']['width']:.1f}x{s['cropBox']['height']:.1f})")
    Select(menu).select_by_value("3:2")
    s = click(driver, "swap")
    check(s["aspect"] == "2:3", f"swap: 3:2 becomes 2:3 ({s['aspect']})")
    before = state(driver)["recipe"]
    focus_stage(driver)
    s = press(driver, Keys.ARROW_RIGHT)
    check(s["recipe"] != before, "an arrow key nudges the crop")
    ActionChains(driver).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
    s = state(driver)
    check(s["recipe"] == before, "Ctrl+Z undoes it")
    ActionChains(driver).key_down(Keys.CONTROL).key_down(Keys.SHIFT).send_keys("z").key_up(Keys.SHIFT) \
        .key_up(Keys.CONTROL).perform()
    check(state(driver)["recipe"] != before, "Ctrl+Shift+Z redoes it")
    s = click(driver, "undo")
    check(s["recipe"] == before, "the undo button undoes")
    s = click(driver, "redo")
    check(s["recipe"] != before, "the redo button redoes")
    # A focused handle's arrow keys move that handle.
    Select(menu).select_by_value("free")
    out0 = state(driver)["outputSize"]
    driver.execute_script(
        "document.getElementById('cropper').shadowRoot.querySelector('.handle[data-handle=right]').focus()")
    for _ in range(3):
        ActionChains(driver).key_down(Keys.SHIFT).send_keys(Keys.ARROW_LEFT).key_up(Keys.SHIFT).perform()
    s = state(driver)
    check(s["outputSize"]["width"] < out0["width"] and s["outputSize"]["height"] == out0["height"],
          f"the focused right edge steps left with Shift+arrows ({out0} -> {s['outputSize']})")
    # Two fingers: a pinch that spreads zooms in.
    click(driver, "reset")
    s0 = state(driver)
    c = centre(s0["cropBox"])
    r = stage_rect(driver)
    actions = ActionBuilder(driver)
    fingers = [actions.add_pointer_input("touch", f"finger{i}") for i in range(2)]
    for i, finger in enumerate(fingers):
        finger.create_pointer_move(x=int(r["x"] + c[0] + (-40 if i == 0 else 40)), y=int(r["y"] + c[1]))
        finger.create_pointer_down()
    for step in range(1, 11):
        for i, finger in enumerate(fingers):
            d = 40 + 8 * step
            finger.create_pointer_move(duration=20, x=int(r["x"] + c[0] + (-d if i == 0 else d)), y=int(r["y"] + c[1]))
    for finger in fingers:
        finger.create_pointer_up(0)
    actions.perform()
    s = state(driver)
    check(s["outputSize"]["width"] < s0["outputSize"]["width"] and s["gesture"] == "none",
          f"a spreading pinch zooms in ({s0['outputSize']} -> {s['outputSize']})")
    # The minimum size: a corner dragged far inwards stops at 64 source pixels.
    box = s["cropBox"]
    corner = (box["x"] + box["width"], box["y"] + box["height"])
    s = drag(driver, line(corner, (max(2, box["x"] - 200), max(2, box["y"] - 200)), 20))
    check(min(s["outputSize"]["width"], s["outputSize"]["height"]) >= 64 - 1e-9,
          f"the crop stops at the 64-px minimum ({s['outputSize']})")


def done_matches_apply(driver, cropkit, out):
    """Done's recipe, rendered by `cropkit apply` from the original, against Done's preview (PSNR)."""
    driver.execute_script("document.getElementById('cropper').removeAttribute('output-width')")
    click(driver, "reset")
    focus_stage(driver)
    press(driver, "]", "]", "]", "]", "]")  # 0.5°
    s = state(driver)
    box = s["cropBox"]
    a = (box["x"] + box["width"] * 0.2, box["y"] + box["height"] * 0.25)
    b = (box["x"] + box["width"] * 0.7, box["y"] + box["height"] * 0.8)
    ActionChains(driver).key_down(Keys.SHIFT).perform()
    drag(driver, line(a, b))
    ActionChains(driver).key_up(Keys.SHIFT).perform()
    driver.execute_script("document.getElementById('cropper').setAttribute('output-width', '480')")
    result = driver.execute_async_script("""
        const done = arguments[arguments.length - 1], cropper = document.getElementById('cropper');
        cropper.addEventListener('done', async (e) => {
          const bytes = new Uint8Array(await e.detail.blob.arrayBuffer());
          let binary = '';
          for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
          done({recipe: e.detail.recipe, png: btoa(binary), type: e.detail.blob.type, outputSize: e.detail.outputSize});
        }, {once: true});
        cropper.shadowRoot.querySelector('[data-act=done]').click();""")
    check(result["type"] == "image/png", f"Done emits a PNG preview ({result['type']})")
    recipe_path = os.path.join(out, "component-recipe.json")
    with open(recipe_path, "w") as f:
        json.dump(result["recipe"], f)
    preview = Image.open(io.BytesIO(base64.b64decode(result["png"]))).convert("RGB")
    preview.save(os.path.join(out, "component-preview.png"))
    check(preview.size[0] == 480, f"the preview is 480 px wide as asked ({preview.size})")
    rendered_path = os.path.join(out, "component-apply.png")
    if os.path.exists(rendered_path):
        os.remove(rendered_path)
    run = subprocess.run([cropkit, "apply", recipe_path, SAMPLE, "-o", rendered_path, "--progress", "none"],
                         capture_output=True, text=True)
    check(run.returncode == 0, f"cropkit apply renders the component's recipe ({run.stderr.strip()[:200]})")
    if run.returncode != 0:
        return
    # At full resolution, as a server renders it: the size the component said, within a pixel of rounding.
    rendered = Image.open(rendered_path).convert("RGB")
    said = result["outputSize"]
    check(abs(rendered.size[0] - said["width"]) <= 1 and abs(rendered.size[1] - said["height"]) <= 1,
          f"cropkit renders the full-resolution size the component said ({rendered.size} vs {said})")
    # Then brought to the preview's size (Pillow's Lanczos), where the two are compared.
    rendered = rendered.resize(preview.size, Image.LANCZOS)
    a, b = rendered.tobytes(), preview.tobytes()
    mse = sum((x - y) ** 2 for x, y in zip(a, b)) / len(a)
    psnr = float("inf") if mse == 0 else 10 * math.log10(255 ** 2 / mse)
    check(psnr >= 35, f"the recipe rendered by cropkit apply matches the component's preview: PSNR {psnr:.1f} dB "
                      f"(>= 35) at {preview.size[0]}x{preview.size[1]}")
    print(f"component: PSNR {psnr:.2f} dB, recipe {json.dumps(result['recipe'])}", flush=True)


def avatar(driver, axe_source):
    """The example's avatar switch: a fixed round 1:1 crop whose aspect no control changes."""
    driver.execute_script("const c = document.getElementById('square'); c.click();")
    WebDriverWait(driver, 10).until(lambda d: (state(d) or {}).get("aspect") == "1:1")
    s = state(driver)
    check(abs(s["cropBox"]["width"] - s["cropBox"]["height"]) < 1e-6, "a fixed 1:1 aspect: the box is square")
    disabled = driver.execute_script(
        "return document.getElementById('cropper').shadowRoot.querySelector('select').disabled")
    check(disabled, "the aspect menu is disabled under a fixed aspect")
    focus_stage(driver)
    s = press(driver, "r")
    check(s["aspect"] == "1:1" and abs(s["cropBox"]["width"] - s["cropBox"]["height"]) < 1e-6,
          "turned, the crop stays square")
    run_axe(driver, axe_source, "component, round avatar")
    driver.execute_script("window.scrollTo(0, 0)")
    driver.save_screenshot(os.path.join(args_out, "component-avatar.png"))


args_out = None


class Quiet(http.server.SimpleHTTPRequestHandler):
    """The static file server, without a log line per request."""

    def log_message(self, *args):
        pass


def main():
    global args_out
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cropkit", default=os.path.join(ROOT, ".build", "debug", "cropkit"))
    parser.add_argument("--out", default=os.path.join(ROOT, ".build", "browser"))
    parser.add_argument("--axe", default=os.path.join(ROOT, ".build", "axe", "axe.min.js"))
    args = parser.parse_args()
    args_out = args.out
    os.makedirs(args.out, exist_ok=True)
    axe_source = open(args.axe).read()
    # Any static file server: Python's, in this process on loopback, serving the repository folder (bound before the
    # browser starts, so there is nothing to wait for). No CropKit process runs.
    handler = functools.partial(Quiet, directory=ROOT)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    driver = make_driver(tempfile.mkdtemp())
    try:
        driver.get(f"http://127.0.0.1:{server.server_address[1]}/Examples/web-component/index.html")
        WebDriverWait(driver, 60).until(lambda d: state(d) is not None)
        gestures(driver)
        run_axe(driver, axe_source, "component")
        driver.execute_script("window.scrollTo(0, 0)")
        driver.save_screenshot(os.path.join(args.out, "component.png"))
        done_matches_apply(driver, args.cropkit, args.out)
        avatar(driver, axe_source)
        errors = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        check(not errors, f"no console errors ({errors[:3]})")
    finally:
        driver.quit()
        server.shutdown()
    if failures:
        print(f"component browser test: {len(failures)} check(s) failed")
        for failure in failures:
            print(f"  FAIL {failure}")
        sys.exit(1)
    print("component browser test: all checks passed; screenshots in " + args.out)


if __name__ == "__main__":
    main()
