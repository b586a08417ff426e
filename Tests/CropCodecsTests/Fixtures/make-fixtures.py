#!/usr/bin/env python3
"""Regenerates the small codec test fixtures from ../shared/testdata (run from anywhere; needs Pillow).

    python3 Tests/CropCodecsTests/Fixtures/make-fixtures.py [path/to/shared/testdata]

exif/landscape-N-mm.jpg  N = 0…8: the recurser/exif-orientation-examples Landscape_N picture shrunk to 64 px on its
                         long side (Pillow, q90), with the original file's APP1 EXIF segment spliced in byte for byte
                         (big-endian "MM" TIFF, as the samples are written).
exif/landscape-N-ii.jpg  the same pixels with that EXIF block rewritten to little-endian ("II"): header, IFD entries
                         and the values they point at, nothing else changed.
exif/landscape-N-BO.png  N/BO = 6/mm, 8/ii, 3/ii: the same pixels decoded and saved by Pillow as PNG with that EXIF block
                         in an eXIf chunk (Pillow writes the TIFF bytes without the "Exif\\0\\0" prefix).
exif/leica-orient8-ii.jpg a 64 px shrink of photos/leica-t-4928x3264-orient8.jpg with that camera's own APP1
                         (little-endian, orientation 8, maker notes and thumbnail included).
photo-128.png            Landscape_1 shrunk to 128×85, lossless: the source for lossy round-trip tests.
cmyk-adobe.jpg           64×32 flat CMYK patches written by Pillow/libjpeg (Adobe APP14, inverted CMYK).
c2.icc                   the 524-byte ICC profile of photos/unsplash-rachel-hisko-6000x4000.jpg.
"""
import io
import os
import struct
import sys

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "../../../../shared/testdata")


def segments(data):
    """(marker, payload, start, end) for each segment before SOS."""
    i = 2
    out = []
    while i + 4 <= len(data) and data[i] == 0xFF:
        marker = data[i + 1]
        length = data[i + 2] << 8 | data[i + 3]
        out.append((marker, data[i + 4:i + 2 + length], i, i + 2 + length))
        if marker == 0xDA:
            break
        i += 2 + length
    return out


def app1_exif(path):
    data = open(path, "rb").read()
    for marker, payload, _, _ in segments(data):
        if marker == 0xE1 and payload.startswith(b"Exif\0"):
            return payload
    raise SystemExit(f"no EXIF APP1 in {path}")


def splice_app1(jpeg, payload):
    """Inserts an APP1 segment after SOI and any APP0 segments."""
    at = 2
    for marker, _, _, end in segments(jpeg):
        if marker == 0xE0:
            at = end
        else:
            break
    return jpeg[:at] + b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload + jpeg[at:]


def shrink(path, long_side=64):
    image = Image.open(path)
    image.draft("RGB", (long_side * 4, long_side * 4))
    image = image.convert("RGB")
    w, h = image.size
    scale = long_side / max(w, h)
    return image.resize((max(1, round(w * scale)), max(1, round(h * scale))), Image.LANCZOS)


def jpeg_bytes(image, quality=90):
    out = io.BytesIO()
    image.save(out, "JPEG", quality=quality)
    return out.getvalue()


SIZES = {1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8}


def tiff_to_little_endian(tiff):
    """Rewrites a big-endian TIFF structure (IFD chain, EXIF/GPS sub-IFDs) to little-endian."""
    assert tiff[:4] == b"MM\0*"
    out = bytearray(tiff)
    out[0:4] = b"II*\0"
    struct.pack_into("<I", out, 4, struct.unpack_from(">I", tiff, 4)[0])
    seen = set()

    def convert_ifd(offset):
        while offset and offset not in seen:
            seen.add(offset)
            count = struct.unpack_from(">H", tiff, offset)[0]
            struct.pack_into("<H", out, offset, count)
            for k in range(count):
                p = offset + 2 + 12 * k
                tag, typ, n = struct.unpack_from(">HHI", tiff, p)
                struct.pack_into("<HHI", out, p + 0, tag, typ, n)
                size = SIZES.get(typ, 1)
                unit = {3: 2, 8: 2, 4: 4, 9: 4, 5: 4, 10: 4, 11: 4, 12: 8}.get(typ, 1)
                total = size * n
                if total <= 4:
                    at = p + 8
                else:
                    at = struct.unpack_from(">I", tiff, p + 8)[0]
                    struct.pack_into("<I", out, p + 8, at)
                if unit > 1:
                    fmt = {2: "H", 4: "I", 8: "Q"}[unit]
                    for j in range(total // unit):
                        v = struct.unpack_from(">" + fmt, tiff, at + j * unit)[0]
                        struct.pack_into("<" + fmt, out, at + j * unit, v)
                if tag in (0x8769, 0x8825):  # EXIF and GPS sub-IFDs
                    convert_ifd(struct.unpack_from(">I", tiff, p + 8)[0])
            next_at = offset + 2 + 12 * count
            nxt = struct.unpack_from(">I", tiff, next_at)[0]
            struct.pack_into("<I", out, next_at, nxt)
            offset = nxt

    convert_ifd(struct.unpack_from(">I", tiff, 4)[0])
    return bytes(out)


def main():
    exif_dir = os.path.join(HERE, "exif")
    os.makedirs(exif_dir, exist_ok=True)
    for n in range(9):
        source = os.path.join(DATA, "exif-orientation", f"Landscape_{n}.jpg")
        small = jpeg_bytes(shrink(source))
        payload = app1_exif(source)
        with open(os.path.join(exif_dir, f"landscape-{n}-mm.jpg"), "wb") as f:
            f.write(splice_app1(small, payload))
        little = payload[:6] + tiff_to_little_endian(payload[6:])
        with open(os.path.join(exif_dir, f"landscape-{n}-ii.jpg"), "wb") as f:
            f.write(splice_app1(small, little))

    for n, order in [(6, "mm"), (8, "ii"), (3, "ii")]:
        path = os.path.join(exif_dir, f"landscape-{n}-{order}.jpg")
        exif = app1_exif(path)
        Image.open(path).convert("RGB").save(os.path.join(exif_dir, f"landscape-{n}-{order}.png"), exif=exif)

    leica = os.path.join(DATA, "photos", "leica-t-4928x3264-orient8.jpg")
    with open(os.path.join(exif_dir, "leica-orient8-ii.jpg"), "wb") as f:
        f.write(splice_app1(jpeg_bytes(shrink(leica)), app1_exif(leica)))

    shrink(os.path.join(DATA, "exif-orientation", "Landscape_1.jpg"), 128).save(os.path.join(HERE, "photo-128.png"))

    cmyk = Image.new("CMYK", (64, 32))
    patches = [(0, 0, 0, 0), (255, 0, 0, 0), (0, 255, 0, 0), (0, 0, 255, 0),
               (0, 0, 0, 255), (128, 64, 32, 0), (0, 0, 0, 128), (200, 100, 50, 100)]
    for i, value in enumerate(patches):
        x, y = (i % 4) * 16, (i // 4) * 16
        cmyk.paste(value, (x, y, x + 16, y + 16))
    cmyk.save(os.path.join(HERE, "cmyk-adobe.jpg"), "JPEG", quality=95)

    rachel = open(os.path.join(DATA, "photos", "unsplash-rachel-hisko-6000x4000.jpg"), "rb").read()
    for marker, payload, _, _ in segments(rachel):
        if marker == 0xE2 and payload.startswith(b"ICC_PROFILE\0"):
            with open(os.path.join(HERE, "c2.icc"), "wb") as f:
                f.write(payload[14:])


if __name__ == "__main__":
    main()
