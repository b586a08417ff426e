#!/usr/bin/env python3
"""Regenerates the GIF and TIFF fixtures (run from anywhere; needs only Python and libvips's `vips` command).

    python3 Tests/CropCodecsTests/Fixtures/make-gif-tiff.py [path/to/shared/testdata]
    python3 Tests/CropCodecsTests/Fixtures/make-gif-tiff.py --sample-formats   # only the sample-format TIFFs

The GIFs are written by the small encoder below (literal LZW codes with a clear code every 250, which every decoder
reads), so that each file has exactly the structure its test is about. The TIFFs are written by libvips from
photo-128.png with the compressions and layouts named; the `-vips.png` references are libvips's own decodes
(`vips copy`), the other implementation CropKit is checked against. See README.md.
"""
import os
import shutil
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "../../../../shared/testdata")


def sub_blocks(data):
    out = bytearray()
    for i in range(0, len(data), 255):
        chunk = data[i:i + 255]
        out += bytes([len(chunk)]) + chunk
    return bytes(out) + b"\0"


def lzw_literal(indices):
    """Minimum code size 8; codes 9 bits wide: CLEAR, then literals, CLEAR again every 250 (the table never reaches
    512 entries, so the width never changes), END."""
    codes, run = [256], 0
    for value in indices:
        if run == 250:
            codes.append(256)
            run = 0
        codes.append(value)
        run += 1
    codes.append(257)
    bits, count, out = 0, 0, bytearray()
    for code in codes:
        bits |= code << count
        count += 9
        while count >= 8:
            out.append(bits & 0xFF)
            bits >>= 8
            count -= 8
    if count:
        out.append(bits & 0xFF)
    return bytes([8]) + sub_blocks(bytes(out))


def color_table(colors):
    size = 2
    while size < len(colors):
        size *= 2
    padded = list(colors) + [(0, 0, 0)] * (size - len(colors))
    return size.bit_length() - 2, b"".join(bytes(c) for c in padded)


def frame(left, top, width, height, indices, interlaced=False, local=None, transparent=None):
    out = b""
    if transparent is not None:
        out += b"\x21\xF9\x04" + bytes([1]) + b"\0\0" + bytes([transparent]) + b"\0"
    if interlaced:
        rows = [indices[y * width:(y + 1) * width] for y in range(height)]
        order = [y for start, step in ((0, 8), (4, 8), (2, 4), (1, 2)) for y in range(start, height, step)]
        indices = [v for y in order for v in rows[y]]
    flags = 0x40 if interlaced else 0
    table = b""
    if local is not None:
        bits, table = color_table(local)
        flags |= 0x80 | bits
    out += b"\x2C" + struct.pack("<4H", left, top, width, height) + bytes([flags]) + table
    return out + lzw_literal(indices)


def gif(width, height, frames, palette=None):
    flags, table = 0, b""
    if palette is not None:
        bits, table = color_table(palette)
        flags = 0x80 | 0x70 | bits
    return b"GIF89a" + struct.pack("<2H", width, height) + bytes([flags, 0, 0]) + table + b"".join(frames) + b";"


PALETTE = [(0, 0, 0), (255, 255, 255), (220, 40, 30), (30, 160, 60), (40, 70, 200), (250, 200, 20), (128, 128, 128),
           (90, 30, 120)]


def pattern(width, height, colors, seed):
    return [(x // 3 + y // 2 + seed * (x ^ y)) % colors for y in range(height) for x in range(width)]


def tiff(width, height, bits, planes, tags, big_endian=False):
    """An uncompressed TIFF: `planes` is one bytes object (contiguous) or one per sample (planar), each a single
    strip; `tags` maps tag → (type, values) with type 3 SHORT, 4 LONG, 7 UNDEFINED (values: bytes), 12 DOUBLE."""
    e = ">" if big_endian else "<"
    header_and_data = bytearray((b"MM\0*" if big_endian else b"II*\0") + b"\0\0\0\0")
    offsets = []
    for plane in planes:
        offsets.append(len(header_and_data))
        header_and_data += plane
    tags = dict(tags)
    tags.update({256: (4, [width]), 257: (4, [height]), 258: (3, [bits] * tags.get(277, (3, [1]))[1][0]),
                 273: (4, offsets), 278: (4, [height]), 279: (4, [len(p) for p in planes])})
    if len(header_and_data) % 2:
        header_and_data += b"\0"
    ifd_offset = len(header_and_data)
    extra = bytearray()
    entries = sorted(tags.items())
    extra_base = ifd_offset + 2 + 12 * len(entries) + 4
    ifd = struct.pack(e + "H", len(entries))
    for tag, (kind, values) in entries:
        if kind == 7:
            payload, count = bytes(values), len(values)
        else:
            code = {3: "H", 4: "I", 12: "d"}[kind]
            payload, count = b"".join(struct.pack(e + code, v) for v in values), len(values)
        if len(payload) <= 4:
            field = payload + b"\0" * (4 - len(payload))
        else:
            field = struct.pack(e + "I", extra_base + len(extra))
            extra += payload + (b"\0" if len(payload) % 2 else b"")
        ifd += struct.pack(e + "HHI", tag, kind, count) + field
    ifd += b"\0\0\0\0"
    header_and_data[4:8] = struct.pack(e + "I", ifd_offset)
    return bytes(header_and_data + ifd + extra)


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


def vips(*args):
    subprocess.run(["vips", *args], check=True)


def main():
    # GIF
    write("gif/interlaced.gif", gif(37, 29, [frame(0, 0, 37, 29, pattern(37, 29, 8, 1), interlaced=True)], PALETTE))
    write("gif/plain.gif", gif(37, 29, [frame(0, 0, 37, 29, pattern(37, 29, 8, 1))], PALETTE))
    write("gif/transparent-offset.gif",
          gif(40, 30, [frame(6, 5, 21, 13, pattern(21, 13, 8, 2), transparent=3)], PALETTE))
    local = [(10 * i, 255 - 20 * i, 7 * i) for i in range(12)]
    write("gif/past-screen-local-table.gif", gif(10, 8, [frame(2, 1, 16, 12, pattern(16, 12, 12, 3), local=local)]))
    write("gif/no-color-table.gif", gif(8, 8, [frame(0, 0, 8, 8, pattern(8, 8, 4, 4))]))
    animated = gif(24, 16, [frame(0, 0, 24, 16, pattern(24, 16, 8, s)) for s in range(5)], PALETTE)
    write("gif/animated-5.gif", animated)
    plain = open(os.path.join(HERE, "gif/interlaced.gif"), "rb").read()
    write("gif/truncated.gif", plain[:len(plain) // 2])
    write("gif/animated-broken-after-2.gif", animated[:len(animated) * 2 // 5 + 40])
    shutil.copy(os.path.join(DATA, "gif/animated-3-frames.gif"), os.path.join(HERE, "gif/animated-3-frames.gif"))
    for name in ["interlaced", "transparent-offset", "animated-3-frames"]:
        vips("copy", os.path.join(HERE, f"gif/{name}.gif"), os.path.join(HERE, f"gif/{name}-vips.png"))

    # TIFF, from photo-128.png (128×85 RGB) and the lossless RGBA WebP source (110×52).
    photo = os.path.join(HERE, "photo-128.png")
    rgba = os.path.join(HERE, "webp/rgba-lossless-source.png")
    t = lambda name: os.path.join(HERE, "tiff/" + name)
    vips("tiffsave", photo, t("rgb-lzw-strips.tif"), "--compression", "lzw", "--predictor", "horizontal")
    vips("cast", photo, t("wide.v"), "ushort", "--shift")
    vips("tiffsave", t("wide.v"), t("rgb16-deflate-tiles.tif"), "--compression", "deflate", "--tile",
         "--tile-width", "32", "--tile-height", "32")
    vips("tiffsave", photo, t("rgb-jpeg-tiles.tif"), "--compression", "jpeg", "--Q", "90", "--tile",
         "--tile-width", "64", "--tile-height", "64")
    vips("tiffsave", rgba, t("rgba-packbits.tif"), "--compression", "packbits")
    vips("colourspace", photo, t("gray.v"), "b-w")
    vips("tiffsave", t("gray.v"), t("gray-miniswhite.tif"), "--miniswhite")
    for name in ["rgb-lzw-strips", "rgb16-deflate-tiles", "rgb-jpeg-tiles", "rgba-packbits", "gray-miniswhite"]:
        vips("copy", t(name + ".tif"), t(name + "-vips.png"))
    vips("cast", photo, t("float.v"), "float")
    vips("tiffsave", t("float.v"), t("float.tif"), "--compression", "deflate")
    vips("flip", photo, t("flipped.v"), "vertical")
    vips("join", photo, t("flipped.v"), t("pages.v"), "vertical")
    vips("tiffsave", t("pages.v"), t("two-pages.tif"), "--page-height", "85", "--compression", "deflate")
    for name in ["float.v", "pages.v", "flipped.v"]:
        os.remove(t(name))
    os.remove(t("wide.v"))
    os.remove(t("gray.v"))
    # Written here, for what vips does not write: an Orientation tag, big-endian 16-bit, planar samples, associated
    # alpha.
    w, h = 6, 4
    gray = [(x * 9000 + y * 3000 + 17) % 65536 for y in range(h) for x in range(w)]
    write("tiff/gray16-be-orientation6.tif", tiff(w, h, 16, [struct.pack(">%dH" % len(gray), *gray)],
                                                  {262: (3, [1]), 274: (3, [6]), 277: (3, [1])}, big_endian=True))
    pixels = [((x * 40) % 256, (y * 60) % 256, (x * y * 10) % 256, [0, 64, 128, 255][(x + y) % 4])
              for y in range(h) for x in range(w)]
    premultiplied = [tuple((c * p[3] + 127) // 255 for c in p[:3]) + (p[3],) for p in pixels]
    planes = [bytes(p[c] for p in premultiplied) for c in range(4)]
    write("tiff/rgba-associated-planar.tif", tiff(w, h, 8, planes, {262: (3, [2]), 277: (3, [4]), 284: (3, [2]),
                                                                     338: (3, [1])}))
    data = open(t("rgb-lzw-strips.tif"), "rb").read()
    write("tiff/truncated.tif", data[:len(data) // 2])
    sample_formats()


def packed(values, bits):
    """`values` packed `bits` apiece from the most significant bit, the row padded to a byte."""
    number, length = 0, 0
    for v in values:
        number, length = (number << bits) | v, length + bits
    pad = -length % 8
    return (number << pad).to_bytes((length + pad) // 8, "big")


def sample_formats():
    """TIFFs of the sample formats the direct path converts (what libvips does not write): each 6×4, its samples
    (the test recomputes them) a formula of x, y and the channel."""
    w, h = 6, 4
    value = lambda x, y, c, top: (x * 37 + y * 91 + c * 53) * (top + 1) // 400 % (top + 1)
    # 12-bit RGB, contiguous, one row packed after another (each row padded to a byte), big-endian.
    rows = b"".join(packed([value(x, y, c, 4095) for x in range(w) for c in range(3)], 12) for y in range(h))
    write("tiff/uint12-rgb.tif", tiff(w, h, 12, [rows], {262: (3, [2]), 277: (3, [3])}, big_endian=True))
    # 3-bit gray (libtiff's RGBA reader takes 1, 2, 4 and 8 bits only).
    rows = b"".join(packed([value(x, y, 0, 7) for x in range(w)], 3) for y in range(h))
    write("tiff/uint3-gray.tif", tiff(w, h, 3, [rows], {262: (3, [1]), 277: (3, [1])}))
    # Signed 8-bit RGBA with unassociated alpha.
    data = struct.pack("<%db" % (w * h * 4), *[value(x, y, c, 255) - 128 for y in range(h) for x in range(w) for c in range(4)])
    write("tiff/int8-rgba.tif", tiff(w, h, 8, [data], {262: (3, [2]), 277: (3, [4]), 338: (3, [2]), 339: (3, [2] * 4)}))
    # 32-bit unsigned gray.
    data = struct.pack("<%dI" % (w * h), *[value(x, y, 0, 65535) * 65536 + (x * 9000) % 65536 for y in range(h) for x in range(w)])
    write("tiff/uint32-gray.tif", tiff(w, h, 32, [data], {262: (3, [1]), 277: (3, [1])}))
    # Half floats, gray: below 0, above 1 and NaN among them.
    halves = [[-0.5, 0.0, 0.25, 0.5, 1.0, 2.0][x] if y == 0 else (x + 6 * y) / 24 for y in range(h) for x in range(w)]
    halves[w] = float("nan")
    write("tiff/half-gray.tif", tiff(w, h, 16, [struct.pack("<%de" % (w * h), *halves)], {262: (3, [1]), 277: (3, [1]), 339: (3, [3])}))
    # 32-bit floats, RGB, planar, big-endian, on 0…255 as SMinSampleValue and SMaxSampleValue say (as libvips casts).
    planes = [struct.pack(">%df" % (w * h), *[float(value(x, y, c, 255)) for y in range(h) for x in range(w)]) for c in range(3)]
    write("tiff/float-range-planar.tif", tiff(w, h, 32, planes, {262: (3, [2]), 277: (3, [3]), 284: (3, [2]),
                                                               339: (3, [3] * 3), 340: (12, [0.0] * 3), 341: (12, [255.0] * 3)},
                                              big_endian=True))


if __name__ == "__main__":
    sample_formats() if sys.argv[1:2] == ["--sample-formats"] else main()
