#!/usr/bin/env python3
"""Writes the hostile set: small files whose lengths, counts or sizes claim far more than the file holds.

Each file is a few bytes to a few KB and declares a huge length somewhere a parser reads before it allocates: a PNG
chunk, an EXIF IFD, an ICC tag, an ISO box, a WebP chunk, a GIF extension, a JPEG marker, TIFF strip counts, a BMP
header, colour count, pixel offset or embedded profile. A reader
must end each one with a clear error (or, where the format allows, a lenient picture) without allocating what the
length claims. `Tests/CLITests/HostileInputTests.swift` runs `cropkit info`, `convert` and `thumbnail` on every file
and holds each run's peak resident memory under 64 MB; `Fuzz/make-corpus.py` seeds the fuzz corpora with them.

    Tests/Hostile/make-hostile.py        # rewrites Tests/Hostile/files/

Standard library only. The carriers are the repository's own small fixtures (a 2 KB AVIF, a 5 KB HEIC) or built
here from scratch.
"""
import os
import struct
import zlib

ROOT = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(ROOT, "files")
FIXTURES = os.path.join(ROOT, "..", "CropCodecsTests", "Fixtures")
HUGE = 0x40000000  # 1 GiB
MANIFEST = []


def write(name, data, claim):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)
    MANIFEST.append((name, len(data), claim))


# MARK: - PNG

def chunk(kind, payload, length=None):
    n = len(payload) if length is None else length
    return struct.pack(">I", n) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload) & 0xFFFFFFFF)


def raw_chunk_header(kind, length):
    """A chunk header claiming `length` bytes, followed by nothing (the file ends)."""
    return struct.pack(">I", length) + kind


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
IHDR_8X8 = chunk(b"IHDR", struct.pack(">IIBBBBB", 8, 8, 8, 2, 0, 0, 0))


def png_idat(width=8, height=8):
    rows = b"".join(b"\x00" + bytes([x * 30 % 256, 128, 64] * width)[: 3 * width] for x in range(height))
    return chunk(b"IDAT", zlib.compress(rows))


def png_files():
    for name in ("huge_pCAL_chunk.png", "huge_sCAL_chunk.png"):
        path = os.path.join(ROOT, "..", "..", "..", "shared", "testdata", "corpus-findings", name)
        if os.path.exists(path):  # libpng's own crashers (contrib/testpngs/crashers)
            with open(path, "rb") as f:
                write("png-" + name, f.read(), "libpng's crasher: a chunk length of about 1 GiB")
    write("png-unknown-chunk-1gib.png", PNG_SIGNATURE + IHDR_8X8 + raw_chunk_header(b"vpAg", HUGE),
          "an unknown ancillary chunk of 1 GiB")
    write("png-text-chunk-1gib.png", PNG_SIGNATURE + IHDR_8X8 + raw_chunk_header(b"zTXt", HUGE),
          "a zTXt chunk of 1 GiB")
    write("png-exif-chunk-1gib.png", PNG_SIGNATURE + IHDR_8X8 + raw_chunk_header(b"eXIf", HUGE),
          "an eXIf chunk of 1 GiB")
    write("png-idat-1gib.png", PNG_SIGNATURE + IHDR_8X8 + raw_chunk_header(b"IDAT", HUGE),
          "an IDAT chunk of 1 GiB for an 8x8 picture")
    # iCCP whose compressed profile declares 2 GiB in its header (the first 4 bytes of the profile).
    header = struct.pack(">I", 0x7FFFFF00) + b"lcms" + bytes(124)
    write("png-iccp-claims-2gib.png",
          PNG_SIGNATURE + IHDR_8X8 + chunk(b"iCCP", b"icc\x00\x00" + zlib.compress(header)) + png_idat()
          + chunk(b"IEND", b""), "an iCCP profile whose header claims 2 GiB")
    write("png-exif-ifd-65535-entries.png",
          PNG_SIGNATURE + IHDR_8X8 + chunk(b"eXIf", exif_tiff_huge_ifd()) + png_idat() + chunk(b"IEND", b""),
          "an eXIf IFD of 65535 entries in 30 bytes")
    write("png-ihdr-2g-by-2g.png", PNG_SIGNATURE + chunk(b"IHDR", struct.pack(">IIBBBBB", 0x7FFFFFFF, 0x7FFFFFFF, 8, 6, 0, 0, 0))
          + png_idat() + chunk(b"IEND", b""), "an IHDR of 2^31-1 x 2^31-1 RGBA")
    many = b"".join(chunk(b"sPLT", b"p%d\x00\x08" % i + bytes(6)) for i in range(2000))
    write("png-2000-splt-chunks.png", PNG_SIGNATURE + IHDR_8X8 + many + png_idat() + chunk(b"IEND", b""),
          "2,000 suggested-palette chunks")


# MARK: - EXIF and ICC (carried by JPEG, PNG)

def exif_tiff_huge_ifd():
    """A big-endian TIFF header whose IFD0 claims 65535 entries, followed by two."""
    entries = struct.pack(">HHII", 0x0112, 3, 1, 6 << 16) + struct.pack(">HHII", 0x010F, 2, HUGE, 8)
    return b"MM\x00\x2a" + struct.pack(">I", 8) + struct.pack(">H", 0xFFFF) + entries


def exif_tiff_huge_values():
    """IFD0 with a tag of 1 GiB LONG values, an ExifIFD pointer to itself, and a GPS pointer past the end."""
    entries = [
        struct.pack(">HHII", 0x0112, 3, 1, 6 << 16),
        struct.pack(">HHII", 0x0110, 2, HUGE, 8),        # Model: 1 GiB of ASCII at offset 8
        struct.pack(">HHII", 0x0111, 4, HUGE, 8),        # StripOffsets: 1 GiB LONGs
        struct.pack(">HHII", 0x8769, 4, 1, 8),           # ExifIFD: a loop back to IFD0
        struct.pack(">HHII", 0x8825, 4, 1, 0xFFFFFFF0),  # GPS IFD: past the end
    ]
    return b"MM\x00\x2a" + struct.pack(">I", 8) + struct.pack(">H", len(entries)) + b"".join(entries) + struct.pack(">I", 8)


def icc_huge():
    """An ICC profile whose header claims 4 GiB and whose tag table claims 268 million tags."""
    header = struct.pack(">I", 0xFFFFFF00) + b"lcms" + struct.pack(">I", 0x02100000) + b"mntrRGB XYZ "
    header += bytes(12) + b"acsp" + bytes(128 - len(header) - 4)
    header = header[:128]
    tags = struct.pack(">I", 0x0FFFFFFF) + b"rXYZ" + struct.pack(">II", 144, HUGE) + b"desc" + struct.pack(">II", 0xFFFFFF00, 64)
    return header + tags + bytes(64)


# MARK: - JPEG

def segment(marker, payload, length=None):
    n = len(payload) + 2 if length is None else length
    return b"\xFF" + bytes([marker]) + struct.pack(">H", n) + payload


def tiny_jpeg_body():
    """SOF0..EOI of an 8x8 grey baseline JPEG (one block, DC 0, EOB)."""
    dqt = segment(0xDB, b"\x00" + bytes([1] * 64))
    sof = segment(0xC0, b"\x08" + struct.pack(">HH", 8, 8) + b"\x01\x01\x11\x00")
    # DC table 0: one code of length 1 for category 0; AC table 0: one code of length 1 for EOB (0x00).
    dht = segment(0xC4, b"\x00" + bytes([1] + [0] * 15) + b"\x00" + b"\x10" + bytes([1] + [0] * 15) + b"\x00")
    sos = segment(0xDA, b"\x01\x01\x00\x00\x3f\x00")
    return dqt + sof + dht + sos + b"\x00" + b"\xFF\xD9"  # DC code 0, EOB 0, padding


def jpeg_files():
    soi = b"\xFF\xD8"
    write("jpeg-dht-65535-truncated.jpg", soi + segment(0xC4, b"\x00" + bytes([255] * 16), length=0xFFFF),
          "a DHT marker of 65535 bytes in a 23-byte file, counts claiming 4080 symbols")
    write("jpeg-dqt-65535-truncated.jpg", soi + segment(0xDB, b"\x10", length=0xFFFF), "a DQT marker of 65535 bytes")
    write("jpeg-app1-65535-truncated.jpg", soi + segment(0xE1, b"Exif\x00\x00MM", length=0xFFFF),
          "an APP1 marker of 65535 bytes, the file ends after 12")
    write("jpeg-com-65535-truncated.jpg", soi + segment(0xFE, b"x", length=0xFFFF), "a COM marker of 65535 bytes")
    write("jpeg-exif-ifd-65535-entries.jpg", soi + segment(0xE1, b"Exif\x00\x00" + exif_tiff_huge_ifd()) + tiny_jpeg_body(),
          "an EXIF IFD of 65535 entries in 30 bytes")
    write("jpeg-exif-values-1gib.jpg", soi + segment(0xE1, b"Exif\x00\x00" + exif_tiff_huge_values()) + tiny_jpeg_body(),
          "EXIF tags of 1 GiB of values, an IFD loop and a pointer past the end")
    write("jpeg-icc-claims-4gib.jpg",
          soi + segment(0xE2, b"ICC_PROFILE\x00\x01\x01" + icc_huge()) + tiny_jpeg_body(),
          "an ICC profile claiming 4 GiB and 268M tags, in one APP2")
    write("jpeg-icc-chunk-1-of-255.jpg",
          soi + segment(0xE2, b"ICC_PROFILE\x00\x01\xFF" + bytes(100)) + tiny_jpeg_body(),
          "an ICC profile's chunk 1 of 255, the other 254 missing")
    write("jpeg-sof-65500x65500.jpg", soi + segment(0xC2, b"\x08" + struct.pack(">HH", 65500, 65500) + b"\x03\x01\x22\x00\x02\x11\x00\x03\x11\x00"),
          "a progressive SOF of 65500x65500 (4.3 gigapixels)")
    many_com = b"".join(segment(0xFE, b"c" * 100) for _ in range(1000))
    write("jpeg-1000-com-markers.jpg", soi + many_com + tiny_jpeg_body(), "1000 COM markers before the frame")


# MARK: - TIFF

def tiff(entries, extra=b"", big_endian=False):
    """A classic TIFF: header, IFD at 8 with `entries` (tag, type, count, value-or-offset), then `extra` bytes."""
    e = ">" if big_endian else "<"
    head = (b"MM\x00\x2a" if big_endian else b"II\x2a\x00") + struct.pack(e + "I", 8)
    ifd = struct.pack(e + "H", len(entries))
    for tag, typ, count, value in sorted(entries):
        if typ == 3 and count == 1:
            ifd += struct.pack(e + "HHIHH", tag, typ, count, value, 0)
        else:
            ifd += struct.pack(e + "HHII", tag, typ, count, value)
    ifd += struct.pack(e + "I", 0)
    return head + ifd + extra


def tiff_base(width=16, height=16, strips=None):
    data_offset = 8 + 2 + 12 * 11 + 4
    entries = [
        (256, 3, 1, width), (257, 3, 1, height), (258, 3, 1, 8), (259, 3, 1, 1), (262, 3, 1, 1),
        (277, 3, 1, 1), (278, 3, 1, height),
    ]
    return entries, data_offset


def tiff_files():
    entries, offset = tiff_base()
    pixels = bytes(range(256))
    write("tiff-strip-bytecount-4gib.tif",
          tiff(entries + [(273, 4, 1, offset), (279, 4, 1, 0xFFFFFFF0), (284, 3, 1, 1), (0x8298, 2, 1, 0)], pixels),
          "one strip whose byte count claims 4 GiB")
    write("tiff-268m-strips.tif",
          tiff([(256, 3, 1, 16), (257, 4, 1, 0x7FFFFFFF), (258, 3, 1, 8), (259, 3, 1, 1), (262, 3, 1, 1),
                (277, 3, 1, 1), (278, 3, 1, 8), (273, 4, 0x0FFFFFFF, 200), (279, 4, 0x0FFFFFFF, 200), (284, 3, 1, 1)],
               pixels), "268 million strips (StripOffsets and StripByteCounts counts)")
    write("tiff-tile-bytecount-4gib.tif",
          tiff([(256, 3, 1, 16), (257, 3, 1, 16), (258, 3, 1, 8), (259, 3, 1, 1), (262, 3, 1, 1), (277, 3, 1, 1),
                (322, 3, 1, 16), (323, 3, 1, 16), (324, 4, 1, 200), (325, 4, 1, 0xFFFFFFF0), (284, 3, 1, 1)], pixels),
          "one tile whose byte count claims 4 GiB")
    write("tiff-icc-tag-1gib.tif",
          tiff(entries + [(273, 4, 1, 200), (279, 4, 1, 256), (284, 3, 1, 1), (34675, 7, HUGE, 8)], pixels),
          "an ICC profile tag of 1 GiB")
    write("tiff-xmp-tag-1gib.tif",
          tiff(entries + [(273, 4, 1, 200), (279, 4, 1, 256), (284, 3, 1, 1), (700, 1, HUGE, 8)], pixels),
          "an XMP tag of 1 GiB")
    head = b"II\x2a\x00" + struct.pack("<I", 8) + struct.pack("<H", 0xFFFF) + bytes(40)
    write("tiff-ifd-65535-entries.tif", head, "an IFD of 65535 entries in 50 bytes")
    # BigTIFF: 64-bit counts.
    big = b"II\x2b\x00\x08\x00\x00\x00" + struct.pack("<Q", 16) + struct.pack("<Q", 4)
    for tag, typ, count, value in [(256, 3, 1, 16), (257, 3, 1, 16), (273, 16, 1 << 40, 200), (279, 16, 1 << 40, 200)]:
        big += struct.pack("<HHQQ", tag, typ, count, value)
    write("bigtiff-strips-2pow40.tif", big + struct.pack("<Q", 0) + pixels, "BigTIFF strip arrays of 2^40 entries")


# MARK: - GIF

def gif_header(width=1, height=1, table=True):
    flags = 0x80 if table else 0
    data = b"GIF89a" + struct.pack("<HHBBB", width, height, flags, 0, 0)
    return data + (b"\x00\x00\x00\xff\xff\xff" if table else b"")


def gif_image(left, top, width, height, lzw=b"\x02\x02\x4c\x01\x00"):
    return b"\x2c" + struct.pack("<HHHHB", left, top, width, height, 0) + lzw


def gif_files():
    write("gif-frame-65535x65535.gif", gif_header() + gif_image(0, 0, 65535, 65535) + b"\x3b",
          "a 1x1 screen with a 65535x65535 frame")
    write("gif-frame-offset-65535.gif", gif_header() + gif_image(65534, 65534, 1, 1) + b"\x3b",
          "a 1x1 frame placed at 65534,65534")
    blocks = b"".join(b"\xff" + bytes([i % 256]) * 255 for i in range(400))
    write("gif-comment-100kb.gif", gif_header() + b"\x21\xfe" + blocks + b"\x00" + gif_image(0, 0, 1, 1) + b"\x3b",
          "a comment extension of 400 full sub-blocks")
    write("gif-extension-truncated.gif", gif_header() + b"\x21\xff\xff" + b"NETSCAPE2.0", "an extension sub-block of 255 bytes, the file ends after 11")
    frames = b"".join(b"\x21\xf9\x04\x04\x01\x00\x00\x00" + gif_image(0, 0, 1, 1) for _ in range(10000))
    write("gif-10000-frames.gif", gif_header() + frames + b"\x3b", "10,000 frames of 1x1")
    frames = b"".join(b"\x21\xf9\x04\x04\x01\x00\x00\x00" + gif_image(0, 0, 1, 1) for _ in range(2000))
    write("gif-4000x4000-2000-frames.gif", gif_header(4000, 4000) + frames + b"\x3b",
          "2,000 frames on a 4000x4000 canvas: 32 gigapixels to render as an animation")
    write("gif-lzw-code-size-12.gif", gif_header() + gif_image(0, 0, 1, 1, b"\x0c\x02\x00\x10\x00") + b"\x3b",
          "an LZW minimum code size of 12 (past the 12-bit code limit)")


# MARK: - WebP

def riff(chunks, size=None):
    body = b"WEBP" + b"".join(chunks)
    return b"RIFF" + struct.pack("<I", len(body) if size is None else size) + body


def webp_chunk(fourcc, payload, length=None):
    n = len(payload) if length is None else length
    return fourcc + struct.pack("<I", n) + payload + (b"\x00" if len(payload) % 2 else b"")


def vp8x(flags, width=8, height=8):
    return webp_chunk(b"VP8X", bytes([flags, 0, 0, 0]) + struct.pack("<I", width - 1)[:3] + struct.pack("<I", height - 1)[:3])


def webp_files():
    write("webp-iccp-chunk-2gib.webp", riff([vp8x(0x20), b"ICCP" + struct.pack("<I", 0x7FFFFFF0) + b"xxxx"]),
          "an ICCP chunk of 2 GiB")
    write("webp-exif-chunk-2gib.webp", riff([vp8x(0x08), b"EXIF" + struct.pack("<I", 0x7FFFFFF0) + b"MM"]),
          "an EXIF chunk of 2 GiB")
    write("webp-riff-4gib.webp", riff([vp8x(0)], size=0xFFFFFFF0), "a RIFF size of 4 GiB in a 30-byte file")
    write("webp-anmf-2gib.webp", riff([vp8x(0x02), webp_chunk(b"ANIM", bytes(6)), b"ANMF" + struct.pack("<I", 0x7FFFFFF0) + bytes(16)]),
          "an animation frame chunk of 2 GiB")
    write("webp-vp8l-16384x16384.webp", riff([webp_chunk(b"VP8L", b"\x2f" + struct.pack("<I", (16383) | (16383 << 14))[:4] + bytes(8))]),
          "a lossless bitstream of 16384x16384 (268 MP) in 30 bytes")
    write("webp-exif-ifd-65535-entries.webp", riff([vp8x(0x08), webp_chunk(b"EXIF", exif_tiff_huge_ifd())]),
          "an EXIF IFD of 65535 entries")


# MARK: - HEIF / AVIF (ISO boxes)

def iso_boxes(d, start, end):
    """(type, offset, header size, size) of the boxes in d[start:end]."""
    out, off = [], start
    while off + 8 <= end:
        size, kind = struct.unpack(">I4s", d[off:off + 8])
        header = 8
        if size == 1:
            size, header = struct.unpack(">Q", d[off + 8:off + 16])[0], 16
        elif size == 0:
            size = end - off
        out.append((kind, off, header, size))
        off += size
    return out


def find_box(d, path):
    start, end = 0, len(d)
    for i, name in enumerate(path):
        match = [b for b in iso_boxes(d, start, end) if b[0] == name][0]
        kind, off, header, size = match
        if i == len(path) - 1:
            return off, header, size
        start, end = off + header + (4 if name == b"meta" else 0), off + size


def heif_files():
    with open(os.path.join(FIXTURES, "avif", "odd709.avif"), "rb") as f:
        avif = f.read()
    with open(os.path.join(FIXTURES, "heif", "odd420.heic"), "rb") as f:
        heic = f.read()

    def patched(data, at, fmt, value):
        b = bytearray(data)
        struct.pack_into(fmt, b, at, value)
        return bytes(b)

    # iloc v0, offset_size 4, length_size 4, base_offset_size 0: item_count(2) item_id(2) dref(2) extents(2) off(4) len(4).
    off, header, size = find_box(avif, [b"meta", b"iloc"])
    version = avif[off + header]
    sizes = avif[off + header + 4]
    assert version == 0 and sizes == 0x44, (version, sizes)
    extent_length_at = off + header + 4 + 2 + 2 + 2 + 2 + 2 + 4
    write("avif-iloc-extent-1gib.avif", patched(avif, extent_length_at, ">I", HUGE), "the picture's iloc extent claims 1 GiB")
    write("avif-iloc-offset-past-end.avif", patched(avif, extent_length_at - 4, ">I", 0xFFFFFF00), "the picture's data starts 4 GiB in")
    off, header, size = find_box(avif, [b"meta"])
    write("avif-meta-box-4gib.avif", patched(avif, off, ">I", 0xFFFFFFF0), "the meta box claims 4 GiB")
    off, header, size = find_box(avif, [b"mdat"])
    large = avif[:off] + struct.pack(">I4sQ", 1, b"mdat", 1 << 40) + avif[off + 8:]
    write("avif-mdat-largesize-1tib.avif", large, "a 64-bit mdat size of 1 TiB")
    off, header, size = find_box(avif, [b"meta", b"iprp", b"ipco", b"colr"])
    write("avif-colr-box-1gib.avif", patched(avif, off, ">I", HUGE), "a colr property box of 1 GiB")
    off, header, size = find_box(avif, [b"meta", b"iprp", b"ipma"])
    write("avif-ipma-4g-entries.avif", patched(avif, off + header + 4, ">I", 0xFFFFFFFF), "ipma claims 4 billion entries")
    off, header, size = find_box(avif, [b"meta", b"iinf"])
    write("avif-iinf-65535-items.avif", patched(avif, off + header + 4, ">H", 0xFFFF), "iinf claims 65535 items")
    off, header, size = find_box(avif, [b"meta", b"iprp", b"ipco", b"ispe"])
    write("avif-ispe-65535x65535.avif", patched(patched(avif, off + header + 4, ">I", 65535), off + header + 8, ">I", 65535),
          "ispe declares 65535x65535")
    # The HEIC carries EXIF: make its iloc claim 1 GiB for every item.
    off, header, size = find_box(heic, [b"meta", b"iloc"])
    b = bytearray(heic)
    version, sizes, base_sizes = heic[off + header], heic[off + header + 4], heic[off + header + 5]
    offset_size, length_size, base_size = sizes >> 4, sizes & 15, base_sizes >> 4
    index_size = base_sizes & 15 if version in (1, 2) else 0
    p = off + header + 6
    count = struct.unpack(">H" if version < 2 else ">I", heic[p:p + (2 if version < 2 else 4)])[0]
    p += 2 if version < 2 else 4
    for _ in range(count):
        p += 2 if version < 2 else 4
        if version in (1, 2):
            p += 2
        p += 2 + base_size
        extents = struct.unpack(">H", heic[p:p + 2])[0]
        p += 2
        for _ in range(extents):
            p += index_size + offset_size
            if length_size == 4:
                struct.pack_into(">I", b, p, HUGE)
            p += length_size
    write("heic-every-iloc-extent-1gib.heic", bytes(b), "every item's iloc extent (tiles, EXIF) claims 1 GiB")


# MARK: - BMP

def bmp(width, height, bits, compression=0, colors_used=0, pixel_offset=None, pixels=b"", palette=None, header=40,
        extra=b""):
    palette = palette if palette is not None else (b"\x00\x00\x00\x00" * (1 << bits) if bits <= 8 else b"")
    offset = 14 + header + len(palette) if pixel_offset is None else pixel_offset
    info = struct.pack("<IiiHHIIiiII", header, width, height, 1, bits, compression, 0, 2835, 2835, colors_used, 0)
    info += extra + b"\x00" * (header - len(info) - len(extra))
    return b"BM" + struct.pack("<IHHI", 14 + len(info) + len(palette) + len(pixels), 0, 0, offset) + info + palette + pixels


def bmp_files():
    write("bmp-60000x60000.bmp", bmp(60000, 60000, 8), "an 8-bit bitmap of 60000x60000 (3.6 gigapixels), no pixels")
    write("bmp-8000x8000-100-bytes.bmp", bmp(8000, 8000, 24, pixels=b"\x80" * 100),
          "a 24-bit 8000x8000 bitmap (192 MB of rows) with 100 bytes of pixels")
    write("bmp-colors-used-1gib.bmp", bmp(4, 4, 8, colors_used=HUGE, pixels=b"\x01" * 16),
          "an 8-bit bitmap whose header says it uses 2^30 colours")
    write("bmp-offset-4gib.bmp", bmp(4, 4, 24, pixel_offset=0xFFFFFFF0, pixels=b"\x01" * 48),
          "pixels said to start 4 GiB into a 100-byte file")
    # A version 5 header (124 bytes) whose colour space is 'MBED' with a profile of 1 GiB.
    v5 = struct.pack("<12I", 0, 0, 0, 0, 0x4D424544, *([0] * 7))  # masks 40-56, then CSType at 56
    v5 += b"\x00" * (112 - 40 - len(v5)) + struct.pack("<II", 124, HUGE)
    write("bmp-v5-profile-1gib.bmp", bmp(4, 4, 24, header=124, extra=v5, pixels=b"\x01" * 48),
          "a version 5 header embedding an ICC profile of 1 GiB")
    write("bmp-header-1gib.bmp", b"BM" + struct.pack("<IHHII", 64, 0, 0, 54, HUGE) + b"\x00" * 40,
          "an info header of 1 GiB")


def main():
    os.makedirs(OUT, exist_ok=True)
    for name in os.listdir(OUT):
        os.remove(os.path.join(OUT, name))
    png_files()
    jpeg_files()
    tiff_files()
    gif_files()
    webp_files()
    heif_files()
    bmp_files()
    with open(os.path.join(OUT, "MANIFEST.txt"), "w") as f:
        f.write("# file\tbytes\twhat it claims (written by ../make-hostile.py)\n")
        for name, size, claim in MANIFEST:
            f.write(f"{name}\t{size}\t{claim}\n")
    print(f"{len(MANIFEST)} files in {OUT}")


if __name__ == "__main__":
    main()
