#!/usr/bin/env python3
"""What CropKit makes of every file in ../shared/testdata/corpus-findings (files from Pillow's, libavif's, libheif's,
libpng's, ImageMagick's and libjpeg-turbo's test data that CropKit once misread): for each, `cropkit info`'s line,
then `orient` to an upright sRGB PNG (`--icc srgb`: colours as they are shown) and `thumbnail` to 64 px (exit
status, peak RSS), and, where the repository keeps another reader's rendering of the file
(Tests/CropCodecsTests/Fixtures/corpus-findings/NAME-pillow.png, -vips.png or -reference.png), the largest and mean
channel difference of CropKit's PNG against it (alpha included). Prints a Markdown table.

    Benchmarks/corpus-findings.py [--cropkit PATH]      # needs Pillow and NumPy (a venv: pip install pillow numpy)
"""
import argparse
import glob
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FINDINGS = os.path.join(ROOT, "..", "shared", "testdata", "corpus-findings")
REFERENCES = os.path.join(ROOT, "Tests", "CropCodecsTests", "Fixtures", "corpus-findings")


def run(command):
    """Runs a command under GNU time; its exit status, output (first line of stderr or stdout) and peak RSS in MB."""
    with tempfile.NamedTemporaryFile() as timing:
        done = subprocess.run(["/usr/bin/time", "-o", timing.name, "-f", "%M"] + command,
                              capture_output=True, text=True)
        rss = open(timing.name).read().strip().splitlines()[-1]
    text = (done.stderr.strip() or done.stdout.strip()).splitlines()
    return done.returncode, (text[0] if text else ""), int(rss) / 1024 if rss.isdigit() else 0


def difference(ours, reference):
    from PIL import Image
    import numpy as np
    a = np.asarray(Image.open(ours).convert("RGBA"), dtype=np.int32)
    b = np.asarray(Image.open(reference).convert("RGBA"), dtype=np.int32)
    if a.shape != b.shape:
        return f"size {a.shape[1]}×{a.shape[0]} vs {b.shape[1]}×{b.shape[0]}"
    d = np.abs(a - b)
    return f"max {d.max()}, mean {d.mean():.2f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cropkit", default=os.path.join(ROOT, ".build", "release", "cropkit"))
    cropkit = parser.parse_args().cropkit
    files = sorted(f for f in glob.glob(os.path.join(FINDINGS, "*"))
                   if not f.endswith(("-reference.png", "-source.png")))
    print("| file | info | orient → sRGB PNG | thumbnail 64 | against another reader |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as work:
        for path in files:
            name = os.path.basename(path)
            stem = os.path.splitext(name)[0]
            _, info, _ = run([cropkit, "info", path])
            info = info.split(": ", 1)[-1]
            png = os.path.join(work, stem + ".png")
            status, said, rss = run([cropkit, "orient", path, "-o", png, "--force", "--frames", "first", "--icc", "srgb",
                                     "--quiet"])
            convert = f"ok, {rss:.0f} MB" if status == 0 else f"exit {status}: {said.split(': ', 2)[-1]}"
            thumb = os.path.join(work, stem + "-thumb.png")
            status, said, rss = run([cropkit, "thumbnail", path, "-o", thumb, "--size", "64", "--force", "--quiet",
                                     "--frames", "first", "--progress", "none"])
            thumbnail = f"ok, {rss:.0f} MB" if status == 0 else f"exit {status}"
            compared = "—"
            for suffix in ("-pillow.png", "-vips.png", "-reference.png"):
                reference = os.path.join(REFERENCES, stem + suffix)
                if os.path.exists(reference) and os.path.exists(png):
                    compared = suffix[1:-4] + ": " + difference(png, reference)
                    break
            print(f"| {name} | {info} | {convert} | {thumbnail} | {compared} |")


if __name__ == "__main__":
    sys.exit(main())
