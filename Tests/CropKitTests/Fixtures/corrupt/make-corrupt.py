#!/usr/bin/env python3
"""Regenerates the corrupt-mid-stream fixtures (run from anywhere; needs Pillow for the JPEG).

    python3 Tests/CropKitTests/Fixtures/corrupt/make-corrupt.py

bad-filter-row120.png       320×200 RGB gradient whose row 120 has filter type 7 (valid zlib and CRCs): libpng
                            fails after handing out 120 good rows.
bad-filter-row120-rgba.png  the same, RGBA with a soft alpha ramp.
truncated-baseline.jpg      320×200 baseline JPEG (q90, 4:2:0) cut at 60 % of its bytes: a warning, and an error
                            in strict mode, partway down the picture.
png-bad-filter-thumbnail*.png  copies of ../../../../../shared/testdata/crashers (128×85, a bad filter byte in IDAT).
"""
import io
import os
import struct
import zlib

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
W, H = 320, 200


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png(channels, bad_row):
    raw = bytearray()
    previous = bytes(W * channels)
    for y in range(H):
        row = bytearray()
        for x in range(W):
            px = [x * 255 // W, y * 255 // H, 128]
            if channels == 4:
                px.append(64 + x * 191 // W)
            row.extend(px)
        # Filter "Up" (2) keeps the file small; the bad row gets the undefined type 7.
        raw.append(7 if y == bad_row else 2)
        raw.extend((a - b) % 256 for a, b in zip(row, previous))
        previous = row
    colour_type = 6 if channels == 4 else 2
    ihdr = struct.pack(">IIBBBBB", W, H, 8, colour_type, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(bytes(raw), 6)) + chunk(b"IEND", b"")


def main():
    with open(os.path.join(HERE, "bad-filter-row120.png"), "wb") as f:
        f.write(png(3, 120))
    with open(os.path.join(HERE, "bad-filter-row120-rgba.png"), "wb") as f:
        f.write(png(4, 120))
    image = Image.new("RGB", (W, H))
    image.putdata([(x * 255 // W, y * 255 // H, (x * y) % 256) for y in range(H) for x in range(W)])
    out = io.BytesIO()
    image.save(out, "JPEG", quality=90, subsampling=2)
    data = out.getvalue()
    with open(os.path.join(HERE, "truncated-baseline.jpg"), "wb") as f:
        f.write(data[: len(data) * 6 // 10])


main()
