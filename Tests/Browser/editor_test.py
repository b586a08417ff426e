#!/usr/bin/env python3
"""Real-browser test of `cropkit edit`: Chromium (headless) driven by Selenium against a live server on loopback.

Steps: draw a new box, move it, straighten 10°, rotate 90°, reload (the session comes back from its recipe), click
Done, download the render and check its pixel size against the engine's outputSize and that its corners hold no
fill (PNG output: every corner pixel opaque). Also measures the WebSocket round trip of a drag (median / p95) and
saves screenshots under the output folder (default .build/browser).

Needs Debian's chromium, chromium-driver and python3-selenium (`.ci/install-deps browser`); run with /usr/bin/python3.
Exit status 0 when every check passes.
"""
import argparse
import base64
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
failures = []


def check(condition, message):
    print(("  ok   " if condition else "  FAIL ") + message, flush=True)
    if not condition:
        failures.append(message)


def start_server(cropkit, image):
    command = [cropkit, "edit", "--port", "0"] + ([image] if image else [])
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.time() + 120
    while time.time() < deadline:
        line = process.stdout.readline()
        if not line:
            if process.poll() is not None:
                raise RuntimeError(f"cropkit edit exited with status {process.returncode}")
            continue
        print("  server: " + line.rstrip(), flush=True)
        match = re.search(r"(http://127\.0\.0\.1:\d+/)", line)
        if match:
            return process, match.group(1)
    process.kill()
    raise RuntimeError("cropkit edit printed no URL within 120 s")


def make_driver(download_dir):
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,860", "--force-device-scale-factor=1"]:
        options.add_argument(argument)
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    options.add_experimental_option("prefs", {
        "download.default_directory": download_dir, "download.prompt_for_download": False,
        "safebrowsing.enabled": False,
    })
    service = Service(shutil.which("chromedriver") or "/usr/bin/chromedriver")
    driver = webdriver.Chrome(service=service, options=options)
    driver.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": download_dir})
    return driver


def view(driver):
    return driver.execute_script("return window.cropkit && window.cropkit.view")


def wait_idle(driver):
    driver.execute_async_script("window.cropkit.idle().then(arguments[0])")


def wait_view(driver, timeout=30):
    WebDriverWait(driver, timeout).until(lambda d: view(d) is not None)
    wait_idle(driver)
    return view(driver)


def drag(driver, points, pause=0.03):
    """Presses at points[0], moves through the rest and releases, in viewport coordinates of the overlay."""
    overlay = driver.find_element(By.ID, "overlay")
    origin = overlay.rect
    mouse = PointerInput("mouse", "mouse")
    actions = ActionBuilder(driver, mouse=mouse)
    x, y = points[0]
    actions.pointer_action.move_to_location(int(origin["x"] + x), int(origin["y"] + y))
    actions.pointer_action.pointer_down()
    for x, y in points[1:]:
        actions.pointer_action.pause(pause)
        actions.pointer_action.move_to_location(int(origin["x"] + x), int(origin["y"] + y))
    actions.pointer_action.pointer_up()
    actions.perform()
    wait_idle(driver)
    return view(driver)


def touch(driver, tracks, pause=0.03):
    """Touches with one finger per track (lists of overlay points of equal length), moves them together, lifts."""
    overlay = driver.find_element(By.ID, "overlay")
    origin = overlay.rect
    actions = ActionBuilder(driver)
    fingers = [actions.add_pointer_input("touch", f"finger{i}") for i in range(len(tracks))]
    for finger, track in zip(fingers, tracks):
        x, y = track[0]
        finger.create_pointer_move(x=int(origin["x"] + x), y=int(origin["y"] + y))
        finger.create_pointer_down()
    for step in range(1, len(tracks[0])):
        for finger, track in zip(fingers, tracks):
            x, y = track[step]
            finger.create_pointer_move(duration=int(pause * 1000), x=int(origin["x"] + x), y=int(origin["y"] + y))
    for finger in fingers:
        finger.create_pointer_up(0)
    actions.perform()
    wait_idle(driver)
    return view(driver)


def steps(a, b, n=12):
    return [(a[0] + (b[0] - a[0]) * i / n, a[1] + (b[1] - a[1]) * i / n) for i in range(n + 1)]


def image_size(data):
    """(width, height) of a PNG or JPEG file."""
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return struct.unpack(">II", data[16:24])
    i = 2
    while i < len(data):
        if data[i] != 0xFF:
            i += 1
            continue
        marker = data[i + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            i += 2
            continue
        length = struct.unpack(">H", data[i + 2:i + 4])[0]
        if marker in (0xC0, 0xC1, 0xC2):
            height, width = struct.unpack(">HH", data[i + 5:i + 9])
            return width, height
        i += 2 + length
    raise ValueError("no image size found")


def corner_pixels(driver, data, mime):
    """RGBA of the 3×3 pixels at each corner, decoded by the browser."""
    # The page's Content-Security-Policy allows blob: images (not data:), so the bytes go through a Blob.
    return driver.execute_async_script("""
        const [b64, mime, done] = arguments;
        const bytes = Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
        const url = URL.createObjectURL(new Blob([bytes], {type: mime}));
        const img = new Image();
        img.onload = () => {
          const c = document.createElement('canvas');
          c.width = img.naturalWidth; c.height = img.naturalHeight;
          const g = c.getContext('2d');
          g.drawImage(img, 0, 0);
          const out = [];
          for (const [x, y] of [[0, 0], [c.width - 3, 0], [0, c.height - 3], [c.width - 3, c.height - 3]]) {
            out.push(Array.from(g.getImageData(x, y, 3, 3).data));
          }
          done({width: img.naturalWidth, height: img.naturalHeight, corners: out});
        };
        img.onerror = () => done(null);
        img.src = url;
    """, base64.b64encode(data).decode(), mime)


def measure_round_trip(driver, moves=300):
    """A drag of `moves` pointer moves sent one at a time (each waits for its answer); then cancelled."""
    return driver.execute_async_script("""
        const [moves, done] = arguments;
        const k = window.cropkit;
        const box = k.view.cropBox;
        const cx = box.x + box.width / 2, cy = box.y + box.height / 2;
        (async () => {
          await k.idle();
          k.send({type: 'pointerDown', id: 99, x: cx, y: cy, intent: 'auto'});
          await k.idle();
          k.resetStats();
          for (let i = 1; i <= moves; i++) {
            k.send({type: 'pointerMove', id: 99, x: cx + 20 * Math.sin(i / 10), y: cy + 15 * Math.cos(i / 13)});
            await k.idle();
          }
          const s = k.stats();
          k.send({type: 'pointerCancel', id: 99});
          await k.idle();
          done(s);
        })();
    """, moves)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cropkit", default=os.path.join(ROOT, ".build", "debug", "cropkit"))
    parser.add_argument("--image", default=None, help="picture to edit (default: the bundled sample)")
    parser.add_argument("--out", default=os.path.join(ROOT, ".build", "browser"))
    args = parser.parse_args()

    os.makedirs(args.out, exist_ok=True)
    download_dir = os.path.join(args.out, "downloads")
    shutil.rmtree(download_dir, ignore_errors=True)
    os.makedirs(download_dir)

    server, url = start_server(args.cropkit, args.image)
    driver = None
    try:
        driver = make_driver(download_dir)
        driver.set_script_timeout(60)
        driver.get(url)
        v0 = wait_view(driver)
        box = v0["cropBox"]
        full = v0["outputSize"]
        print(f"  start: output {full['width']}×{full['height']}, box {box}", flush=True)
        check(v0["angle"] == 0 and v0["quarterTurns"] == 0, "the untouched picture is shown")
        check(driver.execute_script("return getComputedStyle(document.getElementById('picture')).visibility")
              == "visible", "the preview is drawn")

        # 1. Draw a new box (the box fills the picture, so a drag inside it draws).
        a = (box["x"] + box["width"] * 0.15, box["y"] + box["height"] * 0.2)
        b = (box["x"] + box["width"] * 0.6, box["y"] + box["height"] * 0.75)
        v1 = drag(driver, steps(a, b))
        out1 = v1["outputSize"]
        check(v1["gesture"] == "none" and v1["canUndo"], "drawing a box is one finished, undoable gesture")
        check(out1["width"] < full["width"] * 0.6 and out1["height"] < full["height"] * 0.7,
              f"the drawn box crops the picture ({out1['width']}×{out1['height']})")

        # 2. Move it: drag from the box's centre.
        box1 = v1["cropBox"]
        centre = (box1["x"] + box1["width"] / 2, box1["y"] + box1["height"] / 2)
        c1 = v1["recipe"]["crop"]
        v2 = drag(driver, steps(centre, (centre[0] + 60, centre[1] + 40)))
        c2 = v2["recipe"]["crop"]
        check(v2["outputSize"] == out1, "moving keeps the crop's size")
        check(c2["centerX"] > c1["centerX"] + 0.01 and c2["centerY"] > c1["centerY"] + 0.01,
              f"moving shifts the crop right and down ({c1['centerX']:.3f},{c1['centerY']:.3f} → "
              f"{c2['centerX']:.3f},{c2['centerY']:.3f})")

        # 3. Straighten 10°: the slider, then the − and + buttons.
        driver.execute_script("""
            const s = document.getElementById('straighten');
            s.value = 10;
            s.dispatchEvent(new Event('input'));
            s.dispatchEvent(new Event('change'));
        """)
        wait_idle(driver)
        driver.find_element(By.ID, "straighten-minus").click()
        wait_idle(driver)
        check(abs(view(driver)["angle"] - 9.9) < 1e-9, "the − button straightens by −0.1°")
        driver.find_element(By.ID, "straighten-plus").click()
        wait_idle(driver)
        v3 = view(driver)
        check(abs(v3["angle"] - 10) < 1e-9, f"straightened to 10° (angle {v3['angle']})")
        check(driver.find_element(By.ID, "angle").text == "10.0°", "the angle readout says 10.0°")

        # 4. Rotate 90° right.
        driver.find_element(By.ID, "rotate-right").click()
        wait_idle(driver)
        v4 = view(driver)
        check(v4["quarterTurns"] == 1, "rotated a quarter turn")
        check(v4["outputSize"]["width"] == v3["outputSize"]["height"]
              and v4["outputSize"]["height"] == v3["outputSize"]["width"], "the turn swaps the output's sides")
        # The keyboard: R turns again, Ctrl+Z undoes it; ] straightens by +0.1°, Ctrl+Z undoes that.
        overlay = driver.find_element(By.ID, "overlay")
        overlay.send_keys("r")
        wait_idle(driver)
        check(view(driver)["quarterTurns"] == 2, "R rotates right")
        ActionChains(driver).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
        wait_idle(driver)
        check(view(driver)["recipe"] == v4["recipe"], "Ctrl+Z undoes the turn")
        overlay.send_keys("]")
        wait_idle(driver)
        check(abs(view(driver)["angle"] - 10.1) < 1e-9, "] straightens by +0.1°")
        ActionChains(driver).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
        wait_idle(driver)
        check(view(driver)["recipe"] == v4["recipe"], "Ctrl+Z undoes the straighten step")
        # Auto levels the waterfall's horizon (measured on the server) and says so; Ctrl+Z takes it back.
        driver.find_element(By.ID, "straighten-auto").click()
        wait_idle(driver)
        auto = view(driver)
        notice = driver.find_element(By.ID, "message").text
        check(abs(auto["angle"]) < 1 and notice.startswith("Levelled: "),
              f"Auto levels the horizon (angle {auto['angle']}, message '{notice}')")
        ActionChains(driver).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
        wait_idle(driver)
        check(view(driver)["recipe"] == v4["recipe"], "Ctrl+Z undoes Auto")
        driver.save_screenshot(os.path.join(args.out, "editor.png"))

        # Round trip of a drag on localhost.
        rtt = measure_round_trip(driver)
        print(f"  round trip over {rtt['count']} moves: median {rtt['median']:.2f} ms, p95 {rtt['p95']:.2f} ms, "
              f"max {rtt['max']:.2f} ms", flush=True)
        check(rtt["count"] >= 290, "round-trip sample collected")
        check(view(driver)["recipe"] == v4["recipe"], "a cancelled drag leaves the state as it was")

        # A reload brings the session back from its recipe.
        driver.refresh()
        v5 = wait_view(driver)
        check(v5["quarterTurns"] == 1 and abs(v5["angle"] - 10) < 1e-9, "a reload restores turns and angle")
        check(v5["outputSize"] == v4["outputSize"], "a reload restores the crop size")

        # Touch: one finger moves the box; two fingers spreading apart zoom the picture under it (a pinch).
        box5 = v5["cropBox"]
        centre = (box5["x"] + box5["width"] / 2, box5["y"] + box5["height"] / 2)
        c5 = v5["recipe"]["crop"]
        v6 = touch(driver, [steps(centre, (centre[0] - 30, centre[1] - 20))])
        c6 = v6["recipe"]["crop"]
        check(v6["outputSize"] == v5["outputSize"] and (c6["centerX"], c6["centerY"]) != (c5["centerX"], c5["centerY"]),
              "a one-finger touch drag moves the box")
        box6 = v6["cropBox"]
        mid = (box6["x"] + box6["width"] / 2, box6["y"] + box6["height"] / 2)
        spread = min(box6["width"], box6["height"]) / 4
        v7 = touch(driver, [steps((mid[0] - spread / 2, mid[1]), (mid[0] - spread, mid[1])),
                            steps((mid[0] + spread / 2, mid[1]), (mid[0] + spread, mid[1]))])
        check(v7["gesture"] == "none", "the pinch ended")
        check(v7["outputSize"]["width"] < v6["outputSize"]["width"] * 0.8,
              f"a two-finger pinch apart zooms in: fewer source pixels under the box "
              f"({v6['outputSize']['width']} → {v7['outputSize']['width']} px wide)")
        check(abs(v7["outputSize"]["width"] / v7["outputSize"]["height"]
                  - v6["outputSize"]["width"] / v6["outputSize"]["height"]) < 0.01, "the pinch keeps the box's shape")
        v5 = v7

        # 5. Done, as PNG so fill would show as transparency.
        driver.execute_script("document.getElementById('format').value = 'png'")
        expected = v5["outputSize"]
        driver.find_element(By.ID, "done").click()
        WebDriverWait(driver, 120).until(
            lambda d: d.find_element(By.ID, "result").is_displayed())
        link = driver.find_element(By.ID, "download")
        shown = driver.find_element(By.ID, "result-size").text
        check(f"{expected['width']} × {expected['height']} px" in shown, f"the result shows its pixel size ({shown})")
        driver.save_screenshot(os.path.join(args.out, "editor-done.png"))
        link.click()
        deadline = time.time() + 60
        files = []
        while time.time() < deadline:
            files = [f for f in os.listdir(download_dir) if not f.endswith(".crdownload")]
            if files:
                break
            time.sleep(0.2)
        check(len(files) == 1, f"one file downloaded ({files})")
        if files:
            path = os.path.join(download_dir, files[0])
            data = open(path, "rb").read()
            size = image_size(data)
            check(size == (expected["width"], expected["height"]),
                  f"6. the download is {size[0]}×{size[1]} px, the engine said "
                  f"{expected['width']}×{expected['height']}")
            decoded = corner_pixels(driver, data, "image/png")
            check(decoded is not None and (decoded["width"], decoded["height"]) == size, "the browser decodes it")
            if decoded:
                fills = [c for c in decoded["corners"]
                         if any(c[i + 3] < 255 or c[i:i + 3] == [0, 0, 0] for i in range(0, len(c), 4))]
                check(not fills, "no fill pixels in the corners (all opaque, none black)")
    finally:
        if driver:
            driver.quit()
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
    if failures:
        print(f"editor browser test: {len(failures)} check(s) failed", flush=True)
        return 1
    print(f"editor browser test: all checks passed; screenshots in {args.out}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
