#!/usr/bin/env bash
# Regenerates the JPEG 2000 fixtures with OpenJPEG's own tools (Debian's libopenjp2-tools 2.5; vips and Pillow for the
# sources) and their references decoded by opj_decompress, the reader JP2Tests compares CropKit's pixels with.
#
#   photo-lossless.jp2   photo-128.png, lossless (the default 5/3 wavelet, 6 resolution levels): 128×85 RGB
#   photo-lossy.j2k      the same at 20:1 (9/7 wavelet), as a raw codestream, in 32×32 tiles
#   rgba.jp2             ../webp/rgba-lossless-source.png, lossless, with its alpha component: 110×52
#   gray16.jp2           photo-128.png in gray widened to 16 bits, lossless
#   sycc420.j2k          the photo as Y, Cb and Cr planes with the chroma at half size (4:2:0), raw codestream
#   truncated.jp2        the first half of photo-lossless.jp2
#   *-opj.png            opj_decompress's decode of each (sYCC turned into RGB, as CropKit does)
#   photo-lossless-rN-opj.png  opj_decompress -r N (N = 1, 2, 3): the picture reduced 2, 4 and 8 times by its levels
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
q() { "$@" > /dev/null; }
q opj_compress -i ../photo-128.png -o photo-lossless.jp2
q opj_compress -i ../photo-128.png -o photo-lossy.j2k -r 20 -I -t 32,32
q opj_compress -i ../webp/rgba-lossless-source.png -o rgba.jp2
vips colourspace ../photo-128.png "$tmp/gray.v" b-w
vips linear "$tmp/gray.v" "$tmp/wide.v" 257 0
vips cast "$tmp/wide.v" "$tmp/gray16.v" ushort
vips copy "$tmp/gray16.v" "$tmp/gray16.png" --interpretation grey16
q opj_compress -i "$tmp/gray16.png" -o gray16.jp2
/usr/bin/python3 - "$tmp/ycc.raw" <<'PY'
import sys
from PIL import Image
photo = Image.open("../photo-128.png").convert("RGB").crop((0, 0, 128, 84)).convert("YCbCr")
y, cb, cr = photo.split()
half = (64, 42)
with open(sys.argv[1], "wb") as out:
    out.write(y.tobytes() + cb.resize(half, Image.Resampling.BOX).tobytes() + cr.resize(half, Image.Resampling.BOX).tobytes())
PY
q opj_compress -i "$tmp/ycc.raw" -o sycc420.j2k -F 128,84,3,8,u@1x1:2x2:2x2
head -c "$(( $(stat -c %s photo-lossless.jp2) / 2 ))" photo-lossless.jp2 > truncated.jp2
for f in photo-lossless.jp2 photo-lossy.j2k rgba.jp2 gray16.jp2 sycc420.j2k; do
  q opj_decompress -i "$f" -o "${f%.*}-opj.png"
done
for n in 1 2 3; do
  q opj_decompress -i photo-lossless.jp2 -o "photo-lossless-r$n-opj.png" -r "$n"
done
