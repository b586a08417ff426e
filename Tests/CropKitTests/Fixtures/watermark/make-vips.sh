#!/usr/bin/env bash
# Remakes the watermark fixtures and libvips' composites of them (Debian's vips 8.14, `composite2` mode over, which
# works in premultiplied float and rounds once), which WatermarkTests compares CropKit's with:
#   base-opaque.png       64×48 RGB, a crop of the bundled waterfall photo
#   base-alpha.png        64×48 RGBA, the watercolour sample with its own transparency
#   mark.png              24×12 RGBA, an anti-aliased white disc and a red bar on transparency, alpha 0…255
#   mark-half.png         mark.png with its alpha halved (what opacity 0.5 composites)
#   vips-*.png            vips composite2 BASE MARK over --x 33 --y 30
set -euo pipefail
cd "$(dirname "$0")"
samples=../../../../Sources/CropSamples/Samples
/usr/bin/python3 - "$samples" <<'PY'
import sys
from PIL import Image, ImageDraw, ImageOps
samples = sys.argv[1]
photo = ImageOps.exif_transpose(Image.open(f"{samples}/waterfall-orientation6.jpg")).convert("RGB")
photo.resize((64, 48), Image.LANCZOS).save("base-opaque.png")
Image.open(f"{samples}/watercolor-rgba.png").convert("RGBA").resize((64, 48), Image.LANCZOS).save("base-alpha.png")
big = Image.new("RGBA", (240, 120), (0, 0, 0, 0))
d = ImageDraw.Draw(big)
d.ellipse((10, 10, 110, 110), fill=(255, 255, 255, 255))
d.rectangle((130, 40, 230, 80), fill=(220, 30, 40, 200))
mark = big.resize((24, 12), Image.LANCZOS)
mark.save("mark.png")
r, g, b, a = mark.split()
Image.merge("RGBA", (r, g, b, a.point(lambda v: (v + 1) // 2))).save("mark-half.png")
PY
for base in opaque alpha; do
  for mark in mark mark-half; do
    vips composite2 "base-$base.png" "$mark.png" "vips-$base-$mark.png" over --x 33 --y 30
  done
done
