#!/usr/bin/env python3
"""Regenerates the fuzz targets' seed corpora under Fuzz/Corpus/ from the repository's test fixtures (run from
anywhere; needs only Python). Each seed carries the control bytes its target reads first (see each target's body in Fuzz/Bodies).

    python3 Fuzz/make-corpus.py
"""
import glob
import json
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CODECS = os.path.join(ROOT, "Tests/CropCodecsTests/Fixtures")
KIT = os.path.join(ROOT, "Tests/CropKitTests/Fixtures")


def reset(target):
    path = os.path.join(HERE, "Corpus", target)
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


def write(directory, name, data):
    with open(os.path.join(directory, name), "wb") as f:
        f.write(data)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def app1_tiff(jpeg):
    """The TIFF bytes of a JPEG's EXIF APP1 segment, if any."""
    i = 2
    while i + 4 <= len(jpeg) and jpeg[i] == 0xFF:
        marker, length = jpeg[i + 1], jpeg[i + 2] << 8 | jpeg[i + 3]
        payload = jpeg[i + 4:i + 2 + length]
        if marker == 0xE1 and payload.startswith(b"Exif\0\0"):
            return payload[6:]
        if marker == 0xDA:
            break
        i += 2 + length
    return None


jpegs = sorted(glob.glob(os.path.join(CODECS, "exif/*.jpg")))[:6] + [os.path.join(CODECS, "cmyk-adobe.jpg")]
jpegs += sorted(glob.glob(os.path.join(KIT, "landscape-[16]-mm.jpg"))) + [os.path.join(KIT, "corrupt/truncated-baseline.jpg")]
pngs = [os.path.join(CODECS, "pngsuite/png", n) for n in
        ["basn0g01.png", "basn2c08.png", "basn3p04.png", "basn4a16.png", "basn6a08.png", "basi6a16.png",
         "tbrn2c08.png", "xcrn0g04.png", "xd0n2c08.png"]]
pngs += [os.path.join(KIT, "corrupt/bad-filter-row120.png")] + sorted(glob.glob(os.path.join(CODECS, "exif/*.png")))[:2]

d = reset("FuzzJPEG")
for i, p in enumerate(jpegs):
    write(d, f"{i:02}-{os.path.basename(p)}", bytes([i * 37 % 64]) + read(p))
# Progressive files at 1/8 (control & 3 == 3) with each early stop (bits 2–3: off, exact, DC-only), whole (bit 5).
progressive = sorted(glob.glob(os.path.join(CODECS, "progressive/*.jpg")))
for i, p in enumerate(progressive):
    for stop in range(3):
        write(d, f"{len(jpegs) + 3 * i + stop:02}-{os.path.basename(p)}", bytes([3 | stop << 2 | 32]) + read(p))
# Sequential files with restart markers at 1/8, whole, decoded by both entropy decoders and compared (bit 6).
sequential = sorted(glob.glob(os.path.join(CODECS, "sequential/*.jpg")))
for i, p in enumerate(sequential):
    start = len(jpegs) + 3 * len(progressive)
    write(d, f"{start + 2 * i:02}-{os.path.basename(p)}", bytes([3 | 32 | 64]) + read(p))
    write(d, f"{start + 2 * i + 1:02}-{os.path.basename(p)}", bytes([3 | 1 << 2 | 32]) + read(p))
# Progressive files with several scan scripts, decoded by one thread and by two and compared (bit 7), at full size,
# at 1/2 (and strict).
scans = sorted(glob.glob(os.path.join(CODECS, "scans/*.jpg")))
for i, p in enumerate(scans):
    start = len(jpegs) + 3 * len(progressive) + 2 * len(sequential)
    write(d, f"{start + i:02}-scans-{os.path.basename(p)}", bytes([128 | (i % 2) | (16 if i % 3 == 0 else 0)]) + read(p))
# The same sequential files at full size, 1/2 and 1/4 through both entropy decoders (bit 6): the value tables.
for i, p in enumerate(sequential):
    start = len(jpegs) + 3 * len(progressive) + 2 * len(sequential) + len(scans)
    write(d, f"{start + i:02}-entropy-{os.path.basename(p)}", bytes([i % 3 | 32 | 64]) + read(p))
# Progressive files at 1/8 with the DC-only stop, decoded by both entropy decoders and compared (bit 6): CropKit's
# reader of DC-first scans and its output pass from the DC store, warnings included.
for i, p in enumerate(progressive + scans):
    write(d, f"{40 + i:02}-dc-first-{os.path.basename(p)}", bytes([3 | 2 << 2 | 32 | 64]) + read(p))
d = reset("FuzzPNG")
for i, p in enumerate(pngs):
    write(d, f"{i:02}-{os.path.basename(p)}", bytes([i % 4]) + read(p))
d = reset("FuzzWebP")
for i, p in enumerate(sorted(glob.glob(os.path.join(CODECS, "webp/*.webp")))):
    write(d, f"{i:02}-{os.path.basename(p)}", bytes([i * 3 % 16 | 8]) + read(p))
    if "animated" in p or "gif2webp" in p:
        # Every frame (control bit 4).
        write(d, f"{i:02}-frames-{os.path.basename(p)}", bytes([16 | 8]) + read(p))
# Regression seed: a RIFF size below the header made the container reader build a reversed range.
write(d, "crash-riff-size-below-header", read(os.path.join(CODECS, "webp/crashers/riff-size-below-header.bin")))
d = reset("FuzzHEIF")
for i, name in enumerate(["alpha.heic", "ten-bit.heic", "truncated.heic", "corrupted.heic"]):
    write(d, f"{i:02}-{name}", bytes([i * 3 % 4]) + read(os.path.join(CODECS, "heif", name)))
for i, name in enumerate(["kimono.rotate90.avif", "kimono.mirror-horizontal.avif"]):
    write(d, f"{i + 4:02}-{name}", bytes([i * 2]) + read(os.path.join(CODECS, "avif", name)))
# An AVIF image sequence read frame by frame (control bit 0x20) as well as whole.
write(d, "06-star.avifs-frames", bytes([0x24]) + read(os.path.join(CODECS, "corpus-findings/star.avifs")))
# Regression seed: a grid larger than its ispe made libheif allocate past 2 GB (now held to the checked size).
write(d, "crash-grid-larger-than-ispe", read(os.path.join(CODECS, "heif/crashers/grid-larger-than-ispe.bin")))
# Regression seed: a primary image with no bit depth, on which libheif's decoder spawned threads until the process
# aborted (now refused before decoding).
write(d, "crash-undefined-bit-depth", read(os.path.join(CODECS, "heif/crashers/undefined-bit-depth.bin")))
# Regression seed: an nclx box libheif rejects came back with an error and an allocated structure (a 52-byte leak).
write(d, "crash-nclx-error-leak", read(os.path.join(CODECS, "heif/crashers/nclx-error-leak.bin")))
d = reset("FuzzGIF")
gifs = [p for p in sorted(glob.glob(os.path.join(CODECS, "gif/*.gif"))) if os.path.getsize(p) < 20000]
for i, p in enumerate(gifs):
    write(d, f"{i:02}-{os.path.basename(p)}", bytes([i * 5 % 16]) + read(p))
    # Every frame composited (control bit 4).
    write(d, f"{i:02}-frames-{os.path.basename(p)}", bytes([16 | 8]) + read(p))
d = reset("FuzzTIFF")
for i, p in enumerate(sorted(glob.glob(os.path.join(CODECS, "tiff/*.tif")))):
    write(d, f"{i:02}-{os.path.basename(p)}", bytes([i * 5 % 16]) + read(p))
# Regression seed: a strip size of 4 GB made the shim allocate it (now refused at the allocation limit).
write(d, "crash-huge-strip", bytes([10]) + read(os.path.join(CODECS, "tiff/crashers/huge-strip.bin")))


def seeds_with_damage(target, pattern):
    """Each file of a folder as a seed, and the same file cut short and with a byte flipped past its header: the
    library's error paths."""
    d = reset(target)
    for i, p in enumerate(sorted(glob.glob(os.path.join(CODECS, pattern)))):
        data = read(p)
        write(d, f"{i:02}-{os.path.basename(p)}", bytes([i * 5 % 16]) + data)
        write(d, f"{i:02}-cut-{os.path.basename(p)}", bytes([8]) + data[: len(data) * 2 // 3])
        flipped = bytearray(data)
        flipped[len(data) // 2] ^= 0x55
        write(d, f"{i:02}-flipped-{os.path.basename(p)}", bytes([12]) + bytes(flipped))


seeds_with_damage("FuzzJXL", "jxl/*.jxl")
seeds_with_damage("FuzzJP2", "jp2/*.j[p2][2k]")

d = reset("FuzzEXIF")
for p in jpegs:
    tiff = app1_tiff(read(p))
    if tiff:
        write(d, os.path.basename(p) + ".tiff", tiff)
        write(d, os.path.basename(p) + ".app1", b"Exif\0\0" + tiff)
write(d, "crash-orientation-1-absent", bytes.fromhex("49492a000b00000000000000000000000004"))
d = reset("FuzzICC")
icc = read(os.path.join(CODECS, "c2.icc"))
write(d, "profile.icc", icc)
# Regression seeds (inputs the fuzzer once crashed on; the corpus replays them on every run):
write(d, "crash-empty", b"")  # an empty payload made assemble() read past its end
header = b"ICC_PROFILE\0"
half = len(icc) // 2
write(d, "two-parts", header + bytes([1, 2]) + icc[:half] + b"\xff\x00\xff" + header + bytes([2, 2]) + icc[half:])
d = reset("FuzzFormat")
for p in jpegs[:3] + pngs[:3]:
    write(d, os.path.basename(p), read(p)[:4096])
d = reset("FuzzRecipe")
recipes = [
    {"version": 1},
    {"version": 1, "crop": {"centerX": 0.35, "centerY": 0.425, "width": 0.5, "height": 0.75}, "angle": 4.5,
     "quarterTurns": 1, "flipHorizontal": False, "flipVertical": False, "aspect": "2:3"},
    {"version": 1, "angle": -45, "aspect": "original", "flipVertical": True},
    {"version": 1, "crop": {"centerX": 0.99, "centerY": 0.01, "width": 0.02, "height": 1.3}, "angle": 44.9},
]
for i, r in enumerate(recipes):
    write(d, f"recipe-{i}.json", bytes([7, 200, 5, 100, i]) + json.dumps(r).encode())
d = reset("FuzzEditorEvents")
events = [
    '{"type":"viewport","width":800,"height":600,"insets":{"top":16,"left":16,"bottom":16,"right":16}}',
    '{"type":"pointerDown","id":1,"x":120.5,"y":80}', '{"type":"pointerMove","id":1,"x":300,"y":250}',
    '{"type":"pointerUp","id":1,"x":300,"y":250}', '{"type":"straighten","angle":-3.5,"final":false}',
    '{"type":"straightenBy","delta":0.1}', '{"type":"rotate","direction":"clockwise","aspectPolicy":"keepOutputRatio"}',
    '{"type":"flip","axis":"vertical"}', '{"type":"aspect","aspect":"16:9"}', '{"type":"swapAspect"}',
    '{"type":"nudge","dx":-1,"dy":0}', '{"type":"resizeBy","handle":"topLeft","dx":10,"dy":1}',
    '{"type":"zoom","factor":1.1,"x":400,"y":300}', '{"type":"undo"}',
    '{"type":"redo"}', '{"type":"mode","mode":"pan"}', '{"type":"pointerDown","id":2,"x":10,"y":10,"intent":"draw"}',
    '{"type":"pointerCancel","id":2}', '{"type":"resetCrop"}', '{"type":"reset"}',
]
write(d, "session.jsonl", bytes([20, 14]) + "\n".join(events).encode())
write(d, "pinch.jsonl", bytes([3, 200]) + "\n".join([
    '{"type":"pointerDown","id":1,"x":100,"y":100}', '{"type":"pointerDown","id":2,"x":200,"y":200}',
    '{"type":"pointerMove","id":2,"x":300,"y":300}', '{"type":"pointerMove","id":2,"x":100,"y":300}',
    '{"type":"pointerUp","id":2,"x":100,"y":300}',
    '{"type":"pointerUp","id":1,"x":100,"y":100}']).encode())
d = reset("FuzzMultipart")
body = (b"--b0undary\r\nContent-Disposition: form-data; name=\"recipe\"\r\n\r\n{\"version\":1}\r\n"
        b"--b0undary\r\nContent-Disposition: form-data; name=\"image\"; filename=\"a.png\"\r\n"
        b"Content-Type: image/png\r\n\r\n\x89PNG\r\n\x1a\nrest\r\n--b0undary--\r\n")
write(d, "two-parts", b"multipart/form-data; boundary=b0undary\n" + body)
write(d, "quoted", b"multipart/form-data; boundary=\"b0undary\"; charset=utf-8\n" + body)
d = reset("FuzzPipeline")
for i, p in enumerate([jpegs[0], jpegs[7], pngs[1], pngs[4], os.path.join(KIT, "corrupt/bad-filter-row120-rgba.png")]):
    write(d, f"{i:02}-{os.path.basename(p)}", bytes([i * 2 + (i & 1) * 8, 30 - i * 12 & 255]) + read(p))
# Animations (GIF, WebP, an AVIF sequence) written as GIF (format bits 2) and WebP (3): the animation path
# (FrameHandoff, every frame reader and encoder but AVIF's, which is too slow under ASan).
for i, (p, fmt) in enumerate([("gif/dispose_bgnd_transparency.gif", 2), ("gif/animated-5.gif", 3),
                              ("webp/animated.webp", 2), ("webp/dispose_bgnd_transparency-gif2webp.webp", 3),
                              ("corpus-findings/star.avifs", 3)]):
    write(d, f"anim-{i:02}-{os.path.basename(p)}", bytes([fmt << 3 | i << 1, 20]) + read(os.path.join(CODECS, p)))

d = reset("FuzzBMP")
# bmpsuite's files (Tests/CropCodecsTests/Fixtures/bmp), each whole and lenient, and strict.
for i, p in enumerate(sorted(glob.glob(os.path.join(CODECS, "bmp", "*.bmp")))):
    write(d, f"{i:02}-{os.path.basename(p)}", bytes([i * 5 % 16]) + read(p))
# Regression seeds: a 127×31040 RLE4 bitmap of 120 bytes took over 15 s under ASan (one closure call per pixel to
# fill colour 0), and a slow unit of the same kind.
for p in sorted(glob.glob(os.path.join(CODECS, "bmp", "crashers", "*.bin"))):
    write(d, "crash-" + os.path.basename(p), read(p))

d = reset("FuzzFaces")
# RGB pictures (width and height bytes, then pixels): one of dlib's labelled faces enlarged to 128 px (cropped from
# the fixtures), a flat field and a noisy one.
face = os.path.join(ROOT, "Tests", "CropKitTests", "Fixtures", "faces", "2008_001009.jpg")
if os.path.exists(face):
    import subprocess, tempfile
    with tempfile.TemporaryDirectory() as tmp:
        ppm = os.path.join(tmp, "face.ppm")
        subprocess.run(["vips", "extract_area", face, ppm, "135", "60", "100", "100"], check=True)
        subprocess.run(["vips", "resize", ppm, ppm + ".ppm", "1.28"], check=True)
        raw = read(ppm + ".ppm")
        body = raw.split(b"\n", 4)[4]  # P6, vips' comment, the size, 255, then the pixels
        write(d, "00-face", bytes([128 - 64, 128 - 64]) + body)
write(d, "01-flat", bytes([0, 0]) + bytes([128]) * 64)
write(d, "02-noise", bytes([100, 37]) + bytes((i * 7919) % 251 for i in range(3000)))

d = reset("FuzzStraighten")
# Grey pictures (width and height bytes, then rows): a horizon tilted by a few degrees either way, a tilted grid of
# verticals, a flat field and a ramp.
for i, (w, h, tilt) in enumerate([(48, 36, 3), (36, 48, -7), (48, 48, 12), (40, 30, 0.5)]):
    t = tilt * 3.14159265 / 180
    rows = bytes(200 if y - h / 2 > (x - w / 2) * t else 40 for y in range(h) for x in range(w))
    write(d, f"{i:02}-horizon", bytes([w - 8, h - 8]) + rows)
    grid = bytes(220 if int(x + y * t) % 12 < 2 else 30 for y in range(h) for x in range(w))
    write(d, f"{i:02}-verticals", bytes([w - 8, h - 8]) + grid)
write(d, "flat", bytes([40, 40, 128]))
write(d, "ramp", bytes([40, 32]) + bytes(range(256)))

# The hostile set (Tests/Hostile/make-hostile.py: lengths, counts and sizes claiming far more than the file holds,
# libpng's 1 GiB-chunk crashers among them) and the files foreign corpora showed CropKit misread
# (Tests/CropCodecsTests/Fixtures/corpus-findings), each decoded whole, lenient and strict.
HOSTILE = os.path.join(ROOT, "Tests/Hostile/files")
FINDINGS = os.path.join(CODECS, "corpus-findings")
whole = {"FuzzPNG": ([2, 3], (".png",)), "FuzzJPEG": ([32, 48], (".jpg",)), "FuzzWebP": ([8, 12], (".webp",)),
         "FuzzHEIF": ([2, 7], (".heic", ".heif", ".avif", ".avifs")), "FuzzGIF": ([8, 12], (".gif",)),
         "FuzzTIFF": ([8, 12], (".tif", ".tiff")), "FuzzBMP": ([8, 12], (".bmp",))}
for target, (controls, extensions) in whole.items():
    d = os.path.join(HERE, "Corpus", target)
    for folder, prefix in [(HOSTILE, "hostile"), (FINDINGS, "finding")]:
        for p in sorted(glob.glob(os.path.join(folder, "*"))):
            if p.endswith(extensions) and os.path.getsize(p) < 64 * 1024:
                for control in controls:
                    write(d, f"{prefix}-{control}-{os.path.basename(p)}", bytes([control]) + read(p))
