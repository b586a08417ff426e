#!/usr/bin/env bash
# Remakes the text-watermark fixtures, which TextMarkTests compares CropKit's drawing with:
#   test-sans-bold.ttf   DejaVu Sans Bold (fonts-dejavu-core) cut to Basic Latin, Latin-1, — ’ and the ff/fi/ffi
#                        ligatures, kerning kept, renamed "CropKit Test Sans" (its licence: LICENSE-DejaVu.txt)
#   reference-*.png      a line drawn by another stack: uharfbuzz (HarfBuzz's own OpenType functions) shapes it,
#                        freetype-py's FreeType draws each glyph unhinted at its fractional pen position, glyphs
#                        combined by their larger coverage; reference.json says the text, size, plane and pen
# Needs fonts-dejavu-core; makes a virtualenv with fonttools, freetype-py, uharfbuzz and Pillow under ~/.cache.
set -euo pipefail
cd "$(dirname "$0")"
venv="${XDG_CACHE_HOME:-$HOME/.cache}/cropkit-text-venv"
[ -x "$venv/bin/python" ] || { python3 -m venv "$venv" && "$venv/bin/pip" install -q fonttools freetype-py uharfbuzz pillow; }
source=/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf
"$venv/bin/pyftsubset" "$source" --unicodes="U+0020-007E,U+00A0-00FF,U+2014,U+2019" --layout-features='kern,liga' \
  --output-file=cut.ttf
"$venv/bin/python" - <<'PY'
import json
from fontTools.ttLib import TTFont
font = TTFont("cut.ttf")
for record in font["name"].names:
    if record.nameID in (1, 4, 16):
        record.string = "CropKit Test Sans" + (" Bold" if record.nameID == 4 else "")
    elif record.nameID == 6:
        record.string = "CropKitTestSans-Bold"
font.save("test-sans-bold.ttf")

import freetype, uharfbuzz as hb
from PIL import Image
cases = [
    {"name": "line", "text": "Wafer \u2014 ffi \u00a9 AVAT", "size": 40.0, "width": 440, "height": 60, "x": 5.25, "baseline": 45.5},
    {"name": "small", "text": "Hamburgefonstiv 0123", "size": 13.0, "width": 170, "height": 20, "x": 1.5, "baseline": 15.0},
]
data = open("test-sans-bold.ttf", "rb").read()
for case in cases:
    blob = hb.Blob(data)
    hbfont = hb.Font(hb.Face(blob))
    hbfont.scale = (int(round(case["size"] * 64)),) * 2
    buf = hb.Buffer()
    buf.add_str(case["text"])
    buf.guess_segment_properties()
    hb.shape(hbfont, buf, {})
    face = freetype.Face("test-sans-bold.ttf")
    face.set_char_size(int(round(case["size"] * 64)), 0, 72, 72)
    w, h = case["width"], case["height"]
    plane = bytearray(w * h)
    pen_x = int(round(case["x"] * 64))
    origin_y = int(round((h - case["baseline"]) * 64))  # FreeType's y counts up from the plane's bottom
    for info, pos in zip(buf.glyph_infos, buf.glyph_positions):
        gx = pen_x + pos.x_offset
        gy = origin_y + pos.y_offset
        face.set_transform(freetype.Matrix(0x10000, 0, 0, 0x10000), freetype.Vector(gx & 63, gy & 63))
        face.load_glyph(info.codepoint, freetype.FT_LOAD_NO_HINTING | freetype.FT_LOAD_NO_BITMAP)
        face.glyph.render(freetype.FT_RENDER_MODE_NORMAL)
        bm = face.glyph.bitmap
        left = (gx >> 6) + face.glyph.bitmap_left
        top = h - ((gy >> 6) + face.glyph.bitmap_top)
        for r in range(bm.rows):
            for c in range(bm.width):
                x, y = left + c, top + r
                if 0 <= x < w and 0 <= y < h:
                    v = bm.buffer[r * bm.pitch + c]
                    if v > plane[y * w + x]:
                        plane[y * w + x] = v
        pen_x += pos.x_advance
    Image.frombytes("L", (w, h), bytes(plane)).save(f"reference-{case['name']}.png")
    case["advance"] = (pen_x - int(round(case["x"] * 64))) / 64
    case["glyphs"] = len(buf.glyph_infos)
json.dump(cases, open("reference.json", "w"), indent=1, ensure_ascii=False)
PY
rm cut.ttf
sed -n "/^Files: \*/,/^Files: debian/p" /usr/share/doc/fonts-dejavu-core/copyright | sed "\$d" > LICENSE-DejaVu.txt
