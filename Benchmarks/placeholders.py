#!/usr/bin/env python3
"""How well each placeholder stands for the picture it replaces, drawn by the reference decoders.

For each photo and each chain of steps, `cropkit` renders the finished picture and `cropkit placeholder` the three
placeholders of the same steps; PyPI's `blurhash` and `thumbhash-python` decode the hashes (ThumbHash without its
default 1.25 saturation boost, which paints colours the picture does not have) and Pillow the preview. Each is
compared with the finished picture on a 4×3 grid of blocks (what a blurred stand-in can show): the mean and the
largest difference of the blocks' mean colours, in 1/255.

    Benchmarks/placeholders.py CROPKIT PHOTO…   (run by Benchmarks/placeholders.sh, in its virtualenv)
"""
import base64
import io
import json
import subprocess
import sys
import tempfile

import blurhash
import numpy as np
import thumbhash
from PIL import Image

cropkit, photos = sys.argv[1], sys.argv[2:]
chains = {
    "4:3 crop, 1600 wide": ["--aspect", "4:3", "--width", "1600"],
    "square fill 512": ["--size", "512x512", "--mode", "fill"],
    "straighten 7.5°, 16:9": ["--straighten", "7.5", "--aspect", "16:9", "--width", "1280"],
}


def blocks(image, grid=(4, 3)):
    """The mean sRGB colour of each block of a 4×3 grid, 0…255."""
    a = np.asarray(image.convert("RGB"), dtype=float)
    h, w = a.shape[:2]
    return np.array([
        a[j * h // grid[1]:(j + 1) * h // grid[1], i * w // grid[0]:(i + 1) * w // grid[0]].reshape(-1, 3).mean(0)
        for j in range(grid[1]) for i in range(grid[0])])


def decoded(kind, value, width, height):
    if kind == "blurhash":
        w, h = (32, max(1, round(32 * height / width))) if width >= height else (max(1, round(32 * width / height)), 32)
        return Image.fromarray(np.clip(np.array(blurhash.decode(value, w, h)), 0, 255).astype("uint8"))
    if kind == "thumbhash":
        return thumbhash.thumbhash_to_image(value, base_size=32, saturation_boost=1.0)
    return Image.open(io.BytesIO(base64.b64decode(value.split(",", 1)[1])))


worst = {}
with tempfile.TemporaryDirectory() as work:
    for photo in photos:
        for name, flags in chains.items():
            out = f"{work}/final.png"
            command = "resize" if "--straighten" not in flags and "--aspect" not in flags else "crop"
            if command == "crop":
                crop_flags = [f for f in flags if f not in ("--width", "1600", "1280")]
                width = flags[flags.index("--width") + 1]
                args = [cropkit, "crop", photo, "-o", out, "--force", "--quiet", "--max-size", width] + crop_flags
            else:
                args = [cropkit, "resize", photo, "-o", out, "--force", "--quiet"] + flags
            subprocess.run(args, check=True)
            final = Image.open(out)
            reference = blocks(final)
            for kind in ["blurhash", "thumbhash", "preview"]:
                made = json.loads(subprocess.run(
                    [cropkit, "placeholder", photo, "--kind", kind] + flags, check=True, capture_output=True,
                    text=True).stdout)
                assert (made["width"], made["height"]) == final.size, (made, final.size)
                diff = np.abs(blocks(decoded(kind, made["value"], made["width"], made["height"])) - reference)
                worst.setdefault(kind, []).append((diff.mean(), diff.max()))
                print(f"{photo.split('/')[-1]:40} {name:24} {kind:9} {made['width']}×{made['height']}"
                      f"  blocks: mean {diff.mean():5.1f}/255, max {diff.max():5.1f}/255  ({len(made['value'])} chars)")

print()
for kind, rows in worst.items():
    means, maxes = zip(*rows)
    print(f"{kind:9} over {len(rows)} cases: mean block difference {np.mean(means):.1f}/255 "
          f"(worst case {max(means):.1f}), largest block difference {max(maxes):.1f}/255")
