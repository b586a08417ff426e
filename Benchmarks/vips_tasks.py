#!/usr/bin/env python3
"""The benchmark tasks through pyvips, for the newest libvips: PyPI's `pyvips-binary` (the libvips line sharp ships,
8.18 with Highway SIMD), in the virtualenv `Benchmarks/compare.py` makes.

    vips_tasks.py TASK SRC OUT [--runs N]

Runs TASK N times (after one warm-up) inside this process, each from opening SRC to the written OUT, and prints
`{"seconds": median, "version": "8.18.x"}` as JSON: libvips' own time, without Python's start-up and import, which a
whole-process timing of the same script (`--runs 0`: one run, nothing printed) includes.

Tasks: T0 decode + JPEG q90; T1 fit in 256, q85; T1s 256×256 centre square, q85; T2 1920 wide, Lanczos3, q90;
T3 straighten 7.5° and the largest inner crop, q90; W1 1920 wide → WebP q80; A1 1920 wide → AVIF q60.
"""

import json
import math
import statistics
import sys
import time

import pyvips


def inner_rect(w, h, degrees):
    t = math.radians(abs(degrees))
    c, s = math.cos(t), math.sin(t)
    k = min(w / (w * c + h * s), h / (w * s + h * c))
    return int(w * k), int(h * k)


def run(task, src, out):
    if task == "T0":
        pyvips.Image.new_from_file(src, access="sequential").write_to_file(out, Q=90)
    elif task == "T1":
        pyvips.Image.thumbnail(src, 256).write_to_file(out, Q=85)
    elif task == "T1s":
        pyvips.Image.thumbnail(src, 256, height=256, crop="centre").write_to_file(out, Q=85)
    elif task in ("T2", "W1", "A1"):
        image = pyvips.Image.new_from_file(src, access="sequential")
        resized = image.resize(1920 / image.width, kernel="lanczos3")
        options = {"T2": {"Q": 90}, "W1": {"Q": 80}, "A1": {"Q": 60}}[task]
        resized.write_to_file(out, **options)
    elif task == "T3":
        image = pyvips.Image.new_from_file(src)
        w, h = image.width, image.height
        t = math.radians(7.5)
        c, s = math.cos(t), math.sin(t)
        cw, ch = inner_rect(w, h, 7.5)
        cx, cy = w / 2 * c + h / 2 * s, -w / 2 * s + h / 2 * c
        turned = image.affine([c, s, -s, c], oarea=[round(cx - cw / 2), round(cy - ch / 2), cw, ch],
                              interpolate=pyvips.Interpolate.new("bicubic"))
        turned.write_to_file(out, Q=90)
    else:
        raise SystemExit(f"unknown task {task}")


def main():
    task, src, out = sys.argv[1:4]
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 7
    pyvips.cache_set_max(0)  # every run decodes afresh, as a new process would
    run(task, src, out)
    if runs == 0:
        return
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        run(task, src, out)
        times.append(time.perf_counter() - start)
    version = f"{pyvips.version(0)}.{pyvips.version(1)}.{pyvips.version(2)}"
    print(json.dumps({"seconds": statistics.median(times), "version": version}))


if __name__ == "__main__":
    main()
