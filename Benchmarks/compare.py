#!/usr/bin/env python3
"""Side-by-side benchmark: CropKit's CLI against libvips (two releases), ImageMagick and Pillow on the same tasks.

Every tool runs as a separate process on the same input; we record median wall time and peak RSS (the child's
ru_maxrss) over several runs after a warm-up, and print CropKit's ratio to each tool. Tools that are not installed are
skipped. This is a measurement, not a test: it never fails on a slow figure.

Two libvips releases: Debian's 8.14 (`vips`, `vipsthumbnail`, whole processes) and the newest, 8.18 from PyPI's
`pyvips-binary` (the build sharp ships, with Highway SIMD) in a virtualenv this script makes under ~/.cache, through
`vips_tasks.py`: timed as a whole process ("vips 8.18", Python's start-up included) and inside its own process from
opening the file to the written output ("vips 8.18 in", the issue's measure; its memory is the whole process's).

CropKit is timed the same two ways: its CLI as a whole process ("cropkit", every other tool's ratio is to it), and
the same command run inside one process by `CropKitTasks` ("cropkit in", when that release binary is built:
`CROPKIT_BENCHMARKS=1 swift build -c release --product CropKitTasks`), whose ratio is to "vips 8.18 in". The two
in-process figures are the like-for-like pair: a process that has run a task once keeps much of the memory it took
(its allocator's heap; CropKit maps a progressive JPEG's coefficient arrays afresh for each decode), and on
a virtual machine whose host takes back idle guest memory (this one's kernel reports free 8 MiB blocks to it), a new
process pays for every fresh page: writing a byte to each page of a fresh 72 MB mapping (a 24-megapixel progressive
JPEG's coefficients) took 13 to 140 ms here on 2026-11-29 with the machine otherwise quiet (27 to 264 ms beside a
build), where the whole T2 task takes about 0.2 s.

    Benchmarks/compare.py [--runs N] [--tasks T0,T1,T2,T3] [--image PATH] [--cropkit PATH] [--cropkit-tasks PATH]

Tasks (the issues' definitions):
    T0  decode and re-encode as JPEG q90                         (issue 2, vs `vips copy`)
    T1  thumbnail, longest side 256, JPEG q85                    (issue 4)
    T2  resize to 1920 wide, Lanczos3, JPEG q90                   (issue 4; also PSNR against Pillow's LANCZOS)
    T1s square thumbnail 256×256, centre crop                     (cropkit thumbnail, vipsthumbnail --smartcrop centre)
    T3  straighten 7.5°, largest crop of the original aspect with no fill pixels, native resolution, JPEG q90
    W1  resize to 1920 wide, WebP q80                               (issue 42)
    A1  resize to 1920 wide, AVIF q60                               (issue 42)
"""

import argparse
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DEFAULT_IMAGE = os.path.join(ROOT, "..", "shared", "testdata", "photos", "unsplash-rachel-hisko-6000x4000.jpg")
VIPS_818_VENV = os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "cropkit-bench-vips818")


def vips_818_python():
    """A Python with pyvips over PyPI's libvips 8.18 (made on first use), or None when it cannot be made."""
    python = os.path.join(VIPS_818_VENV, "bin", "python")
    if not os.path.exists(python):
        made = subprocess.run([sys.executable, "-m", "venv", VIPS_818_VENV], capture_output=True).returncode == 0
        if not made or subprocess.run([os.path.join(VIPS_818_VENV, "bin", "pip"), "install", "-q", "pyvips-binary",
                                       "pyvips"], capture_output=True).returncode != 0:
            return None
    check = subprocess.run([python, "-c", "import pyvips; assert pyvips.version(1) >= 18"], capture_output=True)
    return python if check.returncode == 0 else None


def pillow_python():
    """A Python interpreter that has Pillow, or None."""
    for exe in [sys.executable, "/usr/bin/python3"]:
        if exe and os.path.exists(exe):
            ok = subprocess.run([exe, "-c", "import PIL"], capture_output=True).returncode == 0
            if ok:
                return exe
    return None


def image_size(path):
    """(width, height) of a JPEG or PNG, read from its header with no dependency."""
    with open(path, "rb") as f:
        data = f.read(1 << 20)
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    if data[:4] == b"RIFF" or data[4:8] == b"ftyp":
        # WebP and AVIF: libvips' header reader.
        sizes = [subprocess.run(["vipsheader", "-f", field, path], capture_output=True, text=True).stdout.strip()
                 for field in ("width", "height")]
        return tuple(int(v) if v.isdigit() else 0 for v in sizes)
    i = 2
    while i + 9 < len(data):
        if data[i] != 0xFF:
            i += 1
            continue
        marker = data[i + 1]
        if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF):
            return int.from_bytes(data[i + 7:i + 9], "big"), int.from_bytes(data[i + 5:i + 7], "big")
        if marker == 0xD8 or 0xD0 <= marker <= 0xD7 or marker == 0xFF:
            i += 1 if marker == 0xFF else 2
            continue
        i += 2 + int.from_bytes(data[i + 2:i + 4], "big")
    raise ValueError(f"cannot read the size of {path}")


def inner_rect(w, h, degrees):
    """The largest w:h rectangle centred in a w×h picture turned by `degrees` (the T3 crop)."""
    t = math.radians(abs(degrees))
    c, s = math.cos(t), math.sin(t)
    k = min(w / (w * c + h * s), h / (w * s + h * c))
    return int(w * k), int(h * k)


def commands(task, src, out, tools):
    """The command each available tool runs for a task, writing `out` (its extension picks the format)."""
    w, h = image_size(src)
    ext = os.path.splitext(out)[1]
    q = {"T0": 90, "T1": 85, "T1s": 85, "T2": 90, "T3": 90, "W1": 80, "A1": 60}[task]
    jpeg_opts = f"[Q={q}]" if ext in (".jpg", ".webp", ".avif") else ""
    cmds = {}
    ck = tools.get("cropkit")
    if ck:
        common = ["-o", out, "--force", "--quiet", "--quality", str(q)]
        cmds["cropkit"] = {
            "T0": [ck, "convert", src] + common,
            "T1": [ck, "resize", src, "--size", "256x256", "--mode", "fit"] + common,
            "T1s": [ck, "thumbnail", src, "--size", "256", "--progress", "none"] + common,
            "T2": [ck, "resize", src, "--width", "1920", "--filter", "lanczos3"] + common,
            "T3": [ck, "crop", src, "--straighten", "7.5"] + common,
            "W1": [ck, "resize", src, "--width", "1920"] + common,
            "A1": [ck, "resize", src, "--width", "1920"] + common,
        }[task]
    if tools.get("vips"):
        t = math.radians(7.5)
        c, s = math.cos(t), math.sin(t)
        cw, ch = inner_rect(w, h, 7.5)
        cx, cy = w / 2 * c + h / 2 * s, -w / 2 * s + h / 2 * c
        cmds["vips"] = {
            "T0": ["vips", "copy", src, out + jpeg_opts],
            "T1": ["vipsthumbnail", src, "-s", "256", "-o", out + jpeg_opts],
            "T1s": ["vipsthumbnail", src, "-s", "256", "--smartcrop", "centre", "-o", out + jpeg_opts],
            "T2": ["vips", "resize", src, out + jpeg_opts, str(1920 / w), "--kernel", "lanczos3"],
            # One-step affine: rotate counter-clockwise on screen and generate only the inner crop.
            "T3": ["vips", "affine", src, out + jpeg_opts, f"{c} {s} {-s} {c}",
                   "--oarea", f"{round(cx - cw / 2)} {round(cy - ch / 2)} {cw} {ch}", "--interpolate", "bicubic"],
            "W1": ["vips", "resize", src, out + jpeg_opts, str(1920 / w), "--kernel", "lanczos3"],
            "A1": ["vips", "resize", src, out + jpeg_opts, str(1920 / w), "--kernel", "lanczos3"],
        }[task]
    if tools.get("vips818"):
        cmds["vips 8.18"] = [tools["vips818"], os.path.join(HERE, "vips_tasks.py"), task, src, out, "--runs", "0"]
    if tools.get("magick") and task not in ("W1", "A1"):
        cw, ch = inner_rect(w, h, 7.5)
        m = tools["magick"]
        cmds["ImageMagick"] = {
            "T0": [m, src, "-quality", str(q), out],
            "T1": [m, "-define", "jpeg:size=512x512", src, "-thumbnail", "256x256", "-quality", str(q), out],
            "T1s": [m, "-define", "jpeg:size=512x512", src, "-thumbnail", "256x256^", "-gravity", "center", "-extent",
                    "256x256", "-quality", str(q), out],
            "T2": [m, src, "-filter", "Lanczos", "-resize", "1920x", "-quality", str(q), out],
            # ImageMagick's SRT angle is clockwise on screen, so −7.5 turns counter-clockwise like the others.
            "T3": [m, src, "-distort", "SRT", "-7.5", "-gravity", "center", "-crop", f"{cw}x{ch}+0+0", "+repage",
                   "-quality", str(q), out],
        }[task]
    if tools.get("pillow") and task not in ("W1", "A1"):
        name = {"T0": "transcode", "T1": "thumbnail", "T1s": "square", "T2": "resize", "T3": "straighten"}[task]
        cmds["Pillow"] = [tools["pillow"], os.path.join(HERE, "pillow_tasks.py"), name, src, out]
    return cmds


def run_once(cmd):
    """Runs a command; returns (wall seconds, peak RSS in MB). Raises on a non-zero exit."""
    wall, _, rss = run_measured(cmd)
    return wall, rss


def run_measured(cmd):
    """Runs a command; returns (wall seconds, CPU seconds: user + system, peak RSS in MB). Raises on a non-zero
    exit."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    err = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited with {code}: {err.strip()}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def psnr(path_a, path_b, python):
    """PSNR in dB between two images of the same size, computed by a Python that has Pillow."""
    code = r"""
import sys, math
from PIL import Image
a = Image.open(sys.argv[1]).convert("RGB"); b = Image.open(sys.argv[2]).convert("RGB")
if a.size != b.size: print("size-mismatch"); sys.exit(0)
try:
    import numpy as np
    d = np.asarray(a, dtype=np.float64) - np.asarray(b, dtype=np.float64); mse = float((d * d).mean())
except ImportError:
    da, db = a.tobytes(), b.tobytes(); mse = sum((x - y) ** 2 for x, y in zip(da, db)) / len(da)
print("inf" if mse == 0 else 10 * math.log10(255 * 255 / mse))
"""
    out = subprocess.run([python, "-c", code, path_a, path_b], capture_output=True, text=True)
    return out.stdout.strip() or out.stderr.strip()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--tasks", default="T0,T1,T1s,T2,T3,W1,A1")
    ap.add_argument("--image", default=DEFAULT_IMAGE)
    ap.add_argument("--cropkit", default=os.path.join(ROOT, ".build", "release", "cropkit"))
    ap.add_argument("--cropkit-tasks", default=os.path.join(ROOT, ".build", "release", "CropKitTasks"),
                    help="CropKit's commands timed in one process (\"cropkit in\"); skipped when not built")
    args = ap.parse_args()

    tools = {
        "cropkit": args.cropkit if os.access(args.cropkit, os.X_OK) else None,
        "vips": shutil.which("vips") and shutil.which("vipsthumbnail"),
        "magick": shutil.which("magick") or (os.path.exists("/usr/bin/convert") and "/usr/bin/convert"),
        "pillow": pillow_python(),
        "vips818": vips_818_python(),
        "cropkit in": args.cropkit_tasks if os.access(args.cropkit_tasks, os.X_OK) else None,
    }
    missing = [k for k, v in tools.items() if not v]
    if missing:
        print(f"skipping (not installed): {', '.join(missing)}")
    src = os.path.abspath(args.image)
    w, h = image_size(src)
    print(f"input: {os.path.basename(src)} {w}×{h}; {args.runs} runs after a warm-up; median wall time, peak RSS")
    print(f"machine: {os.cpu_count()} cores\n")

    with tempfile.TemporaryDirectory() as tmp:
        for task in args.tasks.split(","):
            out = os.path.join(tmp, task + {"W1": ".webp", "A1": ".avif"}.get(task, ".jpg"))
            results = {}
            cmds = commands(task, src, out, tools)
            for tool, cmd in cmds.items():
                try:
                    run_once(cmd)
                    samples = [run_once(cmd) for _ in range(args.runs)]
                    results[tool] = (statistics.median(s[0] for s in samples), max(s[1] for s in samples),
                                     image_size(out))
                except RuntimeError as e:
                    print(f"{task} {tool}: FAILED: {e}")
                if os.path.exists(out):
                    os.remove(out)
            # Timed inside their own processes (the runs' median after a warm-up), with the process's peak memory:
            # libvips 8.18 through vips_tasks.py, CropKit's same command through CropKitTasks.
            in_process = {}
            if tools["vips818"]:
                in_process["vips 8.18 in"] = [tools["vips818"], os.path.join(HERE, "vips_tasks.py"), task, src, out,
                                              "--runs", str(args.runs)]
            if tools["cropkit in"] and "cropkit" in cmds:
                in_process["cropkit in"] = [tools["cropkit in"], str(args.runs)] + cmds["cropkit"][1:]
            for tool, cmd in in_process.items():
                try:
                    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                    _, status, usage = os.wait4(proc.pid, 0)
                    reply = json.loads(proc.stdout.read().decode())
                    proc.stdout.close()
                    proc.stderr.close()
                    results[tool] = (reply["seconds"], usage.ru_maxrss / 1024, image_size(out))
                except (ValueError, KeyError, OSError) as e:
                    print(f"{task} {tool}: FAILED: {e}")
                if os.path.exists(out):
                    os.remove(out)
            print(f"{task}")
            for tool, (wall, rss, size) in results.items():
                line = f"  {tool:13s} {wall:7.3f} s {rss:7.1f} MB  {size[0]}×{size[1]}"
                mine = "cropkit in" if tool == "vips 8.18 in" and "cropkit in" in results else "cropkit"
                if not tool.startswith("cropkit") and mine in results:
                    cw, cr = results[mine][0], results[mine][1]
                    line += f"   {mine}/{tool}: time {cw / wall:.2f}×, memory {cr / rss:.2f}×"
                print(line)
                if tool == "vips 8.18 in" and mine == "cropkit in":
                    cw, cr = results["cropkit"][0], results["cropkit"][1]
                    print(f"  {'':13s} {'':27s}   cropkit/{tool}: time {cw / wall:.2f}×, memory {cr / rss:.2f}×"
                          " (the issue's measure)")
            if task == "T2" and tools["pillow"] and results:
                reference = os.path.join(tmp, "T2-pillow.png")
                subprocess.run(commands(task, src, reference, {"pillow": tools["pillow"]})["Pillow"], check=True)
                for tool in [t for t in results if t in ("cropkit", "vips", "ImageMagick")]:
                    png = os.path.join(tmp, f"T2-{tool}.png")
                    cmd = commands(task, src, png, {k: v for k, v in tools.items() if k in
                                   ({"cropkit": "cropkit", "vips": "vips", "ImageMagick": "magick"}[tool],)})
                    subprocess.run(list(cmd.values())[0], check=True, capture_output=True)
                    print(f"  PSNR {tool} vs Pillow LANCZOS (PNG): {psnr(png, reference, tools['pillow'])} dB")
            print()


if __name__ == "__main__":
    main()
