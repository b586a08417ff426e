#!/usr/bin/env python3
"""Hostile uploads against `cropkit serve`'s memory: 16 requests at once for files built to cost memory, while a
well-behaved client keeps asking for thumbnails of a normal photo.

The served folder holds, besides the bundled photo:
  - libpng's two 57-byte crashers (huge_pCAL_chunk.png, huge_sCAL_chunk.png: a chunk length of 1 GiB), copied from
    Tests/Hostile/files;
  - bomb.webp: a 5 KB lossless WebP of 4000x4000 (made here with `cropkit convert --lossless` from a flat PNG)
    whose decode holds libwebp's 64 MB ARGB picture: about 70 MB a request, 14,000 times its size;
  - prog-bomb.jpg: a 192-byte progressive JPEG declaring 9000x9000 (81 MP, under the service's 100 MP limit): its
    coefficient arrays would take 490 MB for a real picture of that size.

The service runs with 8 slots (as on an 8-core machine) and --memory-budget BUDGET (default 128 MB: one WebP bomb at a time). 16 hostile
requests go at once (8 WebP bombs, 4 progressive bombs, 2 of each crasher) while the well-behaved client makes 20
requests for a 200-pixel thumbnail. It passes when:
  - every well-behaved request is answered 200;
  - every hostile request gets an answer (200 for the WebP bombs, which the budget admits one at a time; 413 for the
    progressive bomb, which plans more than the budget; 422 for the crashers), and the service still answers /health;
  - the service's peak resident memory (VmHWM) stays under BUDGET + CONSTANT MB (default 96: the process itself,
    headers read before a plan, and bodies in flight).
Prints the peak, so the same script measures a build without memory admission (--expect-fail to only report).

  Tests/Python/serve_hostile.py --cropkit .build/debug/cropkit [--budget-mb 128] [--constant-mb 96]
"""
import argparse
import http.client
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from editor_client import memory, start_process  # noqa: E402

PHOTO = os.path.join(ROOT, "Sources", "CropSamples", "Samples", "waterfall-orientation6.jpg")
HOSTILE = os.path.join(ROOT, "Tests", "Hostile", "files")


def chunk(kind, payload):
    return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload) & 0xFFFFFFFF)


def flat_png(side):
    """An RGB PNG of horizontal bands of flat colour (compresses to almost nothing)."""
    compressor = zlib.compressobj(9)
    data = b"".join(compressor.compress(b"\x00" + bytes([(y // 50) % 256, 90, 160]) * side) for y in range(side))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", data + compressor.flush()) + chunk(b"IEND", b""))


def progressive_jpeg_bomb(side):
    """SOI, tables, a progressive SOF of side x side (3 components, 4:4:4), the first DC scan and a little data."""
    def segment(marker, payload):
        return b"\xFF" + bytes([marker]) + struct.pack(">H", len(payload) + 2) + payload
    dqt = segment(0xDB, b"\x00" + bytes([1] * 64))
    sof = segment(0xC2, b"\x08" + struct.pack(">HH", side, side) + b"\x03\x01\x11\x00\x02\x11\x00\x03\x11\x00")
    dht = segment(0xC4, b"\x00" + bytes([1] + [0] * 15) + b"\x00")
    sos = segment(0xDA, b"\x03\x01\x00\x02\x00\x03\x00\x00\x00\x00")
    return b"\xFF\xD8" + dqt + sof + dht + sos + bytes(64) + b"\xFF\xD9"


def get(port, path, timeout=120):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        return response.status
    except Exception as error:  # a reset or a timeout is a failure to answer
        return f"{type(error).__name__}"
    finally:
        connection.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cropkit", required=True)
    parser.add_argument("--budget-mb", type=int, default=128)
    parser.add_argument("--constant-mb", type=int, default=96)
    parser.add_argument("--expect-fail", action="store_true", help="only report (for a build without admission)")
    args = parser.parse_args()

    folder = tempfile.mkdtemp(prefix="cropkit-hostile-")
    failures = []
    try:
        shutil.copy(PHOTO, os.path.join(folder, "photo.jpg"))
        for name in ("png-huge_pCAL_chunk.png", "png-huge_sCAL_chunk.png"):
            shutil.copy(os.path.join(HOSTILE, name), os.path.join(folder, name))
        with open(os.path.join(folder, "flat.png"), "wb") as f:
            f.write(flat_png(4000))
        subprocess.run([args.cropkit, "convert", os.path.join(folder, "flat.png"), "-o", os.path.join(folder, "bomb.webp"),
                        "--lossless"], check=True, stdout=subprocess.DEVNULL)
        os.remove(os.path.join(folder, "flat.png"))
        with open(os.path.join(folder, "prog-bomb.jpg"), "wb") as f:
            f.write(progressive_jpeg_bomb(9000))

        command = [args.cropkit, "serve", "--root", folder, "--port", "0", "--allow-unsigned", "--concurrency", "8",
                   "--queue", "64", "--timeout", "120"]
        if not args.expect_fail:
            command += ["--memory-budget", str(args.budget_mb)]
        process, port = start_process(command, r"http://127\.0\.0\.1:(\d+)/img/",
                                      env={**os.environ, "CROPKIT_SIGNING_KEY": ""})
        try:
            assert get(port, "/img/photo.jpg?width=200") == 200
            rss, _ = memory(process.pid)
            with open(f"/proc/{process.pid}/clear_refs", "w") as f:
                f.write("5")
            print(f"serve_hostile: idle {rss:.0f} MB; budget {args.budget_mb} MB")

            hostile = (["/img/bomb.webp?width=300"] * 8 + ["/img/prog-bomb.jpg?width=300"] * 4
                       + ["/img/png-huge_pCAL_chunk.png?width=300", "/img/png-huge_sCAL_chunk.png?width=300"] * 2)
            answers = [None] * len(hostile)
            started = time.time()

            def attack(i, path):
                answers[i] = get(port, path)

            threads = [threading.Thread(target=attack, args=(i, p)) for i, p in enumerate(hostile)]
            for thread in threads:
                thread.start()
            polite = []
            for _ in range(20):
                polite.append(get(port, "/img/photo.jpg?width=200"))
            for thread in threads:
                thread.join()
            rss, peak = memory(process.pid)
            seconds = time.time() - started
            health = get(port, "/health")
        finally:
            process.terminate()
            process.wait(timeout=30)

        expected = {"/img/bomb.webp?width=300": 200, "/img/prog-bomb.jpg?width=300": 413}
        for path, answer in zip(hostile, answers):
            want = expected.get(path, 422)
            if answer != want and not args.expect_fail:
                failures.append(f"{path}: {answer}, expected {want}")
        if polite.count(200) != len(polite):
            failures.append(f"well-behaved client: {polite}")
        if health != 200:
            failures.append(f"/health: {health}")
        limit = args.budget_mb + args.constant_mb
        print(f"serve_hostile: 16 hostile requests ({sorted(set(map(str, answers)))}) and 20 well-behaved "
              f"({polite.count(200)} answered 200) in {seconds:.1f} s; peak resident memory {peak:.0f} MB "
              f"(limit {limit} MB), {rss:.0f} MB after")
        if peak > limit and not args.expect_fail:
            failures.append(f"peak resident memory {peak:.0f} MB is over {limit} MB")
        if process.returncode not in (0, -15):
            failures.append(f"the service exited {process.returncode}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    for failure in failures:
        print(f"  FAIL {failure}")
    sys.exit(1 if failures and not args.expect_fail else 0)


if __name__ == "__main__":
    main()
