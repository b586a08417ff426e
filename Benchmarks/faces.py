#!/usr/bin/python3
"""Face detection, measured: CropKit's detector (`cropkit analyze --json`) beside OpenCV's Haar cascade
(`haarcascade_frontalface_alt2.xml`, the one thumbor uses) on the same photos, in one run.

Sets (labels from dlib's training.xml, boxes in displayed pixels):
  labelled  the four PASCAL VOC photos of Tests/CropKitTests/Fixtures/faces (18 faces, 37–90 px)
  4x        the same photos enlarged 4× (Lanczos, vips), as phone photos are: 2000×1500, faces 148–360 px
  6pct      the same photos enlarged 6.5× on a grey 6000×4000 canvas: 24 MP, the smallest faces 6% of the short side
  exif6     the same photos stored turned a quarter with EXIF orientation 6 (and exif8 with 8), losslessly (PNG with
            an eXIf chunk: the pixels shown are the labelled photo's own): the labels are where the faces are shown
  exif6-q95 the same, stored as JPEG at quality 95 (and exif8-q95): a second generation of JPEG, so near-threshold
            faces may come and go; the difference from exif6 is the re-encoding's, not the orientation's
  negative  photos with no face (../shared/testdata/photos, six 12–24 MP photos; two EXIF samples)

For each: recall (labelled faces matched by a detection at IoU ≥ 0.4, all faces and faces of 40 px and more),
false positives (detections matching no face) per photo; the avatar check (the 1:1 face proposal keeps the largest
labelled face whole); then the time and peak RSS of `cropkit analyze` on the 24 MP photo against
`vipsthumbnail --smartcrop attention` (whole processes, median of --runs).

    .ci/install-deps bench
    swift build -c release --product cropkit
    Benchmarks/faces.py [--cropkit .build/release/cropkit] [--smallest-face 0.06] [--runs 7]
"""
import argparse, json, os, statistics, subprocess, sys, tempfile, time, xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "Tests/CropKitTests/Fixtures/faces")
SHARED = os.path.join(os.path.dirname(ROOT), "shared/testdata")
PHOTO_24MP = os.path.join(SHARED, "photos/unsplash-rachel-hisko-6000x4000.jpg")
HAAR = "/usr/share/opencv4/haarcascades/haarcascade_frontalface_alt2.xml"


def labels():
    """{photo name: [(x, y, w, h)]} from training.xml."""
    out = {}
    for image in ET.parse(os.path.join(FIXTURES, "training.xml")).getroot().iter("image"):
        out[os.path.splitext(image.get("file"))[0]] = [
            tuple(float(b.get(k)) for k in ("left", "top", "width", "height")) for b in image.iter("box")]
    return out


def iou(a, b):
    ix = max(0, min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0]))
    iy = max(0, min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]))
    inter = ix * iy
    return inter / (a[2] * a[3] + b[2] * b[3] - inter) if inter else 0


def match(found, truth, threshold=0.4):
    """Greedy matching, best IoU first: (matched truth indices, unmatched detections)."""
    pairs = sorted(((iou(f, t), i, j) for i, f in enumerate(found) for j, t in enumerate(truth)), reverse=True)
    used_f, used_t = set(), set()
    for score, i, j in pairs:
        if score >= threshold and i not in used_f and j not in used_t:
            used_f.add(i)
            used_t.add(j)
    return used_t, len(found) - len(used_f)


def make_sets(work, truth):
    """(set name, [(path, [boxes])]) for every set."""
    from PIL import Image
    sets = {"labelled": [], "4x": [], "6pct": [], "exif6": [], "exif8": [], "exif6-q95": [], "exif8-q95": [],
            "negative": []}
    for name, boxes in sorted(truth.items()):
        src = os.path.join(FIXTURES, name + ".jpg")
        sets["labelled"].append((src, boxes))
        big = os.path.join(work, name + "-4x.jpg")
        subprocess.run(["vips", "resize", src, big + "[Q=92]", "4", "--kernel", "lanczos3"], check=True)
        sets["4x"].append((big, [tuple(4 * v for v in b) for b in boxes]))
        image = Image.open(src)
        # A 24 MP photo whose smallest face is 6% of its short side: the photo enlarged so its 37 px faces are 240
        # px, on a grey 6000×4000 canvas.
        f = 240 / 37
        canvas = Image.new("RGB", (6000, 4000), (128, 128, 128))
        canvas.paste(image.resize((round(image.width * f), round(image.height * f)), Image.Resampling.LANCZOS), (0, 0))
        path = os.path.join(work, name + "-6pct.jpg")
        canvas.save(path, quality=90)
        sets["6pct"].append((path, [tuple(f * v for v in b) for b in boxes]))
        for orientation, turn in ((6, Image.Transpose.ROTATE_90), (8, Image.Transpose.ROTATE_270)):
            # Stored turned so that the orientation tag turns it back: the faces are shown where labelled.
            exif = Image.Exif()
            exif[0x0112] = orientation
            path = os.path.join(work, f"{name}-o{orientation}.png")
            image.transpose(turn).save(path, exif=exif)
            sets[f"exif{orientation}"].append((path, boxes))
            path = os.path.join(work, f"{name}-o{orientation}.jpg")
            image.transpose(turn).save(path, quality=95, exif=exif)
            sets[f"exif{orientation}-q95"].append((path, boxes))
    for name in sorted(os.listdir(os.path.join(SHARED, "photos"))):
        sets["negative"].append((os.path.join(SHARED, "photos", name), []))
    for name in ("Landscape_6.jpg", "Portrait_8.jpg"):
        sets["negative"].append((os.path.join(SHARED, "exif-orientation", name), []))
    return sets


def cropkit_faces(cropkit, path, smallest):
    out = subprocess.run([cropkit, "analyze", path, "--json", "--smallest-face", str(smallest)],
                         check=True, capture_output=True, text=True).stdout
    report = json.loads(out)
    faces = [(f["x"], f["y"], f["width"], f["height"]) for f in report["faces"]]
    face = next(p for p in report["proposals"] if p["measure"] == "face")
    return faces, face["rect"]


def haar_faces(cascade, path):
    import cv2
    import numpy as np
    from PIL import Image, ImageOps
    # The picture as shown (EXIF orientation applied: OpenCV applies it to JPEG only), in OpenCV's BGR order.
    image = np.array(ImageOps.exif_transpose(Image.open(path)).convert("RGB"))[:, :, ::-1].copy()
    gray = cv2.equalizeHist(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    found = cascade.detectMultiScale(gray, scaleFactor=1.1, minNeighbors=3, minSize=(20, 20))
    return [tuple(float(v) for v in f) for f in found]


def evaluate(sets, detect):
    """Per set: recall (all, ≥ 40 px), false positives per photo, avatars keeping the largest face whole."""
    rows = {}
    for name, photos in sets.items():
        hits = big_hits = total = big_total = false = avatars = avatar_total = 0
        for path, truth in photos:
            found, avatar = detect(path)
            matched, extra = match(found, truth)
            false += extra
            total += len(truth)
            hits += len(matched)
            big = [j for j, t in enumerate(truth) if min(t[2], t[3]) >= 40]
            big_total += len(big)
            big_hits += len([j for j in big if j in matched])
            if avatar is not None and truth:
                avatar_total += 1
                x, y, w, h = max(truth, key=lambda t: t[2] * t[3])
                ax, ay, aw, ah = avatar
                avatars += ax <= x + 0.5 and ay <= y + 0.5 and x + w <= ax + aw + 0.5 and y + h <= ay + ah + 0.5
        rows[name] = dict(photos=len(photos), faces=total, recall=hits / total if total else None,
                          recall40=big_hits / big_total if big_total else None, fp_per_photo=false / len(photos),
                          false=false, avatars=f"{avatars}/{avatar_total}" if avatar_total else "-")
    return rows


def timed(command, runs):
    """Median wall time and peak RSS (MB) of a whole process."""
    times, peaks = [], []
    for _ in range(runs):
        start = time.perf_counter()
        result = subprocess.run(["/usr/bin/time", "-f", "%M"] + command, capture_output=True, text=True, check=True)
        times.append(time.perf_counter() - start)
        peaks.append(int(result.stderr.strip().splitlines()[-1]) / 1024)
    return statistics.median(times), max(peaks)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cropkit", default=os.path.join(ROOT, ".build/release/cropkit"))
    ap.add_argument("--smallest-face", type=float, default=0.06)
    ap.add_argument("--runs", type=int, default=7)
    a = ap.parse_args()
    import cv2
    cascade = cv2.CascadeClassifier(HAAR)
    work = tempfile.mkdtemp()
    sets = make_sets(work, labels())
    results = {
        "cropkit": evaluate(sets, lambda p: cropkit_faces(a.cropkit, p, a.smallest_face)),
        "haar alt2": evaluate(sets, lambda p: (haar_faces(cascade, p), None)),
    }
    print(f"| detector | set | photos | faces | recall | recall ≥ 40 px | false positives (per photo) | avatar keeps the largest face |")
    print("|---|---|---|---|---|---|---|---|")
    for detector, rows in results.items():
        for name, r in rows.items():
            fmt = lambda v: "-" if v is None else f"{v:.2f}"
            print(f"| {detector} | {name} | {r['photos']} | {r['faces']} | {fmt(r['recall'])} | {fmt(r['recall40'])} | "
                  f"{r['false']} ({r['fp_per_photo']:.2f}) | {r['avatars']} |")
    out = os.path.join(work, "t.jpg")
    ours = timed([a.cropkit, "analyze", PHOTO_24MP, "--json"], a.runs)
    vips = timed(["vipsthumbnail", PHOTO_24MP, "-s", "128", "--smartcrop", "attention", "-o", out], a.runs)
    without = timed([a.cropkit, "analyze", PHOTO_24MP, "--json", "--smallest-face", "1"], a.runs)
    thumb = timed([a.cropkit, "thumbnail", PHOTO_24MP, "--size", "128", "--gravity", "face", "-o", out, "--force",
                   "--quiet"], a.runs)
    print(f"\non {os.path.basename(PHOTO_24MP)} (whole processes, median of {a.runs}):")
    print(f"  vipsthumbnail -s 128 --smartcrop attention: {vips[0]:.3f} s, {vips[1]:.0f} MB")
    print(f"  cropkit analyze (straighten, faces, 3 proposals): {ours[0]:.3f} s, {ours[1]:.0f} MB: "
          f"{ours[0] / vips[0]:.2f}× time, {ours[1] / vips[1]:.2f}× RSS")
    print(f"  cropkit analyze --smallest-face 1 (the face scan on an 80-pixel copy): {without[0]:.3f} s, "
          f"{without[1]:.0f} MB: faces add {ours[0] - without[0]:.3f} s")
    print(f"  cropkit thumbnail --size 128 --gravity face: {thumb[0]:.3f} s, {thumb[1]:.0f} MB: "
          f"{thumb[0] / vips[0]:.2f}× time, {thumb[1] / vips[1]:.2f}× RSS")


if __name__ == "__main__":
    sys.exit(main())
