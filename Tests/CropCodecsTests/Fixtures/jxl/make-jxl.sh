#!/usr/bin/env bash
# Regenerates the JPEG XL fixtures with libjxl's own tools (Debian's libjxl-tools 0.7, vips for the 16-bit source) and
# their references decoded by djxl, the reader JXLDecoderTests compares CropKit's pixels with.
#
#   photo-lossy.jxl        photo-128.png at cjxl -q 85 (VarDCT, XYB): 128×85 RGB
#   rgba-lossless.jxl      ../webp/rgba-lossless-source.png, lossless: 110×52 RGBA (djxl's and the source's pixels agree)
#   rgb16-lossless.jxl     photo-128.png widened to 16 bits (×257) and lossless: 16-bit RGB
#   gray-lossy.jxl         photo-128.png in gray at -q 90
#   orientation6.jxl       ../exif/landscape-6-mm.jpg recompressed losslessly (JPEG reconstruction data, a Brotli-
#                          compressed Exif box, codestream orientation 6): stored 43×64, shown 64×43
#   animated.jxl           three flat 32×24 frames (red, green, blue; a GIF made by Pillow), lossless
#   animated-disc.jxl      an APNG made by Pillow, lossless: four 40×30 RGBA frames (a disc moving over a half-
#                          transparent ground, delays 80, 160, 40, 120 ms, played twice, which cjxl 0.7 drops: for
#                          ever); Pillow writes frames 2–4 as the rectangles that changed, which cjxl 0.7 stores as frames replacing the whole canvas
#                          (transparent outside the rectangle); animated-disc-djxl-N.png are djxl's frames (its APNG,
#                          split by Pillow), the reference
#   truncated.jxl          the first half of photo-lossy.jxl
#   *-djxl.png             djxl's decode of each (8-bit files to 8-bit PNG, the 16-bit one to 16-bit PNG), the
#                          orientation applied (djxl applies it; CropKit leaves it to the pipeline)
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cjxl ../photo-128.png photo-lossy.jxl -q 85 --quiet
cjxl ../webp/rgba-lossless-source.png rgba-lossless.jxl -d 0 --quiet
vips linear ../photo-128.png "$tmp/wide.v" 257 0
vips cast "$tmp/wide.v" "$tmp/rgb16.v" ushort
vips copy "$tmp/rgb16.v" "$tmp/rgb16.png" --interpretation rgb16
cjxl "$tmp/rgb16.png" rgb16-lossless.jxl -d 0 --quiet
vips colourspace ../photo-128.png "$tmp/gray.png" b-w
cjxl "$tmp/gray.png" gray-lossy.jxl -q 90 --quiet
cjxl ../exif/landscape-6-mm.jpg orientation6.jxl --quiet
/usr/bin/python3 - "$tmp/three.gif" <<'PY'
import sys
from PIL import Image
frames = [Image.new("RGB", (32, 24), colour) for colour in ((220, 40, 40), (40, 200, 60), (30, 60, 210))]
frames[0].save(sys.argv[1], save_all=True, append_images=frames[1:], duration=100, loop=0)
PY
cjxl "$tmp/three.gif" animated.jxl -d 0 --quiet
/usr/bin/python3 - "$tmp/disc.png" <<'PY'
import sys
from PIL import Image, ImageDraw
frames = []
for i in range(4):
    frame = Image.new("RGBA", (40, 30), (30, 60, 160, 128))
    ImageDraw.Draw(frame).ellipse((4 + 8 * i, 6, 20 + 8 * i, 22), fill=(250, 240, 40, 255))
    frames.append(frame)
frames[0].save(sys.argv[1], save_all=True, append_images=frames[1:], duration=[80, 160, 40, 120], loop=2)
PY
cjxl "$tmp/disc.png" animated-disc.jxl -d 0 --quiet
djxl animated-disc.jxl "$tmp/disc-djxl.apng" --quiet
/usr/bin/python3 - "$tmp/disc-djxl.apng" <<'PY'
import sys
from PIL import Image, ImageSequence
for i, frame in enumerate(ImageSequence.Iterator(Image.open(sys.argv[1]))):
    frame.convert("RGBA").save(f"animated-disc-djxl-{i}.png")
PY
head -c "$(( $(stat -c %s photo-lossy.jxl) / 2 ))" photo-lossy.jxl > truncated.jxl
for name in photo-lossy rgba-lossless gray-lossy orientation6 animated; do
  djxl "$name.jxl" "$name-djxl.png" --bits_per_sample=8 --quiet
done
djxl rgb16-lossless.jxl rgb16-lossless-djxl.png --bits_per_sample=16 --quiet
