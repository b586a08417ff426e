"""The benchmark tasks done with Pillow, the way a careful Pillow user would write them.

    python3 pillow_tasks.py TASK INPUT OUTPUT

TASK is one of: transcode, thumbnail, square, resize, straighten. The output format follows the extension.
"""

import math
import sys

from PIL import Image


def save(im, path, quality):
    if path.lower().endswith(".png"):
        im.save(path)
    else:
        im.save(path, quality=quality)


def largest_inner_rect(w, h, degrees):
    """Size of the largest w:h rectangle, centred, inside a w×h picture turned by `degrees`."""
    t = math.radians(abs(degrees))
    c, s = math.cos(t), math.sin(t)
    k = min(w / (w * c + h * s), h / (w * s + h * c))
    return int(w * k), int(h * k)


def main():
    task, src, dst = sys.argv[1:4]
    im = Image.open(src)
    if task == "transcode":
        save(im, dst, 90)
    elif task == "thumbnail":
        # Image.thumbnail uses JPEG draft mode (DCT scaling) and a reducing gap, Pillow's fast path.
        im.thumbnail((256, 256), Image.Resampling.LANCZOS)
        save(im, dst, 85)
    elif task == "square":
        # A 256×256 centre-cropped thumbnail: draft mode first (as thumbnail() does), then ImageOps.fit.
        from PIL import ImageOps
        im.draft("RGB", (512, 512))
        save(ImageOps.fit(im, (256, 256), Image.Resampling.LANCZOS), dst, 85)
    elif task == "resize":
        w, h = im.size
        out = im.resize((1920, round(h * 1920 / w)), Image.Resampling.LANCZOS)
        save(out, dst, 90)
    elif task == "straighten":
        w, h = im.size
        cw, ch = largest_inner_rect(w, h, 7.5)
        rotated = im.rotate(7.5, resample=Image.Resampling.BICUBIC, expand=True)
        rw, rh = rotated.size
        left, top = (rw - cw) // 2, (rh - ch) // 2
        save(rotated.crop((left, top, left + cw, top + ch)), dst, 90)
    else:
        sys.exit(f"unknown task {task}")


if __name__ == "__main__":
    main()
