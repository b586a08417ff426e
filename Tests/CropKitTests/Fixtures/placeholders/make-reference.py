#!/usr/bin/env python3
"""Remakes the placeholder fixtures and the reference encoders' hashes of them (reference.json).

Needs Pillow, numpy and the reference encoders from PyPI (`blurhash`, `thumbhash-python`):
    python3 -m venv /tmp/ph && /tmp/ph/bin/pip install pillow numpy blurhash thumbhash-python
    /tmp/ph/bin/python Tests/CropKitTests/Fixtures/placeholders/make-reference.py
The pictures are at most 100 px a side, so CropKit hashes them as they are (no reduction), pixel for pixel the input
the reference encoders get. BlurHash has no alpha: CropKit composites over white first, and so does this script.
"""
import json
import os

import blurhash
import numpy as np
import thumbhash
from PIL import Image, ImageOps

here = os.path.dirname(os.path.abspath(__file__))
samples = os.path.join(here, "../../../../Sources/CropSamples/Samples")


def make():
    photo = ImageOps.exif_transpose(Image.open(os.path.join(samples, "waterfall-orientation6.jpg"))).convert("RGB")
    photo.resize((100, 67), Image.LANCZOS).save(os.path.join(here, "photo-100x67.png"), optimize=True)
    photo.convert("L").resize((45, 60), Image.LANCZOS).save(os.path.join(here, "gray-45x60.png"), optimize=True)
    alpha = Image.open(os.path.join(samples, "watercolor-rgba.png")).convert("RGBA")
    alpha.resize((64, 31), Image.LANCZOS).save(os.path.join(here, "alpha-64x31.png"), optimize=True)


def components(w, h):
    short = max(3, min(4, round(4 * min(w, h) / max(w, h))))
    return (4, short) if w >= h else (short, 4)


def reference():
    out = {}
    for name in sorted(f for f in os.listdir(here) if f.endswith(".png")):
        rgba = Image.open(os.path.join(here, name)).convert("RGBA")
        a = np.asarray(rgba).astype(float)
        alpha = a[..., 3:4] / 255
        over = np.floor(a[..., :3] * alpha + 255 * (1 - alpha) + 0.5).astype(int)
        cx, cy = components(*rgba.size)
        out[name] = {
            "blurhash": blurhash.encode(over.tolist(), cx, cy),
            "blurhash3x3": blurhash.encode(over.tolist(), 3, 3),
            "thumbhash": thumbhash.image_to_thumbhash(rgba),
        }
    with open(os.path.join(here, "reference.json"), "w") as f:
        json.dump(out, f, indent=2, sort_keys=True)
        f.write("\n")


make()
reference()
