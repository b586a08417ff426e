#!/usr/bin/env python3
"""Soak test of `cropkit edit`'s render API: concurrent renders on loopback for a fixed time, sampling the server's
resident memory, to show that memory does not creep.

Starts `cropkit edit` (release build by default; render concurrency 2, queue 4) and has CLIENTS threads render the
bundled photo with varied recipes (straightened, turned, reduced, PNG and JPEG, some to be refused: bad recipes,
truncated bodies) until MINUTES have passed, then stops by itself. Every SAMPLE seconds it records VmRSS. Reports the
curve, the answers, and the growth of the resident memory after the warm-up (the first WARMUP minutes): the mean of
the last minute against the mean of the first minute after the warm-up. Exit status 1 if that growth is past
--max-growth (10 %), an answer is not a documented one, or the server dies.

  Benchmarks/editor-soak.py [--minutes 10] [--clients 8] [--warmup 2] [--sample 5] [--cropkit PATH]
"""
import argparse
import http.client
import json
import os
import random
import statistics
import sys
import threading
import time
import urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Tests", "Python"))
from editor_client import memory, start_server  # noqa: E402

PHOTO = os.path.join(ROOT, "Sources", "CropSamples", "Samples", "waterfall-orientation6.jpg")
RGBA = os.path.join(ROOT, "Sources", "CropSamples", "Samples", "watercolor-rgba.png")


def recipes(rng):
    """A recipe (as a query value) and whether it is valid. Valid recipes use the free or original aspect: their crop
    fractions are the same share of both sides, so they match either lock."""
    angle = rng.choice([0, 0, 3.5, -7.5, 12, 30])
    size = 0.5 if abs(angle) > 10 else 0.8
    recipe = {"version": 1, "crop": {"centerX": 0.5, "centerY": 0.5, "width": size, "height": size}, "angle": angle,
              "quarterTurns": rng.randint(0, 3), "flipHorizontal": rng.random() < 0.3,
              "aspect": rng.choice(["free", "original"])}
    roll = rng.random()
    if roll < 0.05:
        return json.dumps({"version": 1, "angle": 90}), False  # out of range
    if roll < 0.1:
        recipe["aspect"] = "16:9"  # a crop whose proportions do not match its aspect lock
        return json.dumps(recipe), False
    return json.dumps(recipe), True


def client(port, stop, rng, counts, lock):
    photo, rgba = open(PHOTO, "rb").read(), open(RGBA, "rb").read()
    while not stop.is_set():
        recipe, valid = recipes(rng)
        body, kind = (rgba, "image/png") if rng.random() < 0.3 else (photo, "image/jpeg")
        truncated = rng.random() < 0.05
        if truncated:
            body = body[: len(body) // 2]
        query = {"recipe": recipe, "format": rng.choice(["jpeg", "png"])}
        if rng.random() < 0.6:
            query["maxWidth"] = str(rng.choice([256, 800, 1600]))
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
            conn.request("POST", "/api/render?" + urllib.parse.urlencode(query, quote_via=urllib.parse.quote), body=body,
                         headers={"Content-Type": kind})
            response = conn.getresponse()
            response.read()
            status = response.status
            conn.close()
        except Exception as error:  # noqa: BLE001 - counted as a failure
            status = f"error {type(error).__name__}"
        expected = status in (200, 503) if (valid and not truncated) else status in (400, 422, 503)
        with lock:
            counts[status] = counts.get(status, 0) + 1
            if not expected:
                counts.setdefault("unexpected", []).append((status, valid, truncated))
        if status == 503:
            time.sleep(0.05)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cropkit", default=os.path.join(ROOT, ".build", "release", "cropkit"))
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--warmup", type=float, default=2)
    parser.add_argument("--sample", type=float, default=5)
    parser.add_argument("--max-growth", type=float, default=0.10)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    process, port = start_server(args.cropkit, 2, 4)
    stop, lock, counts = threading.Event(), threading.Lock(), {}
    threads = [threading.Thread(target=client, args=(port, stop, random.Random(args.seed + i), counts, lock))
               for i in range(args.clients)]
    start = time.time()
    for t in threads:
        t.start()
    samples = []
    try:
        while time.time() - start < args.minutes * 60:
            time.sleep(args.sample)
            if process.poll() is not None:
                break
            samples.append((time.time() - start, memory(process.pid)[0]))
    finally:
        stop.set()
        for t in threads:
            t.join()
        alive = process.poll() is None
        peak = memory(process.pid)[1] if alive else float("nan")
        process.terminate()
        process.wait(timeout=10)
    unexpected = counts.pop("unexpected", [])
    print(f"soak: {args.minutes:g} min, {args.clients} clients, answers {dict(sorted(counts.items(), key=str))}")
    print("RSS (MB) by minute: " + ", ".join(
        f"{m}: {statistics.mean(r for t, r in samples if m * 60 <= t < (m + 1) * 60):.0f}"
        for m in range(int(args.minutes)) if any(m * 60 <= t < (m + 1) * 60 for t, _ in samples)))
    after = [r for t, r in samples if t >= args.warmup * 60]
    first = [r for t, r in samples if args.warmup * 60 <= t < (args.warmup + 1) * 60]
    last = [r for t, r in samples if t >= samples[-1][0] - 60] if samples else []
    growth = (statistics.mean(last) / statistics.mean(first) - 1) if first and last else float("nan")
    print(f"after the {args.warmup:g} min warm-up: min {min(after):.0f}, max {max(after):.0f} MB; first minute "
          f"{statistics.mean(first):.0f} MB, last minute {statistics.mean(last):.0f} MB: growth {growth * 100:+.1f} %;"
          f" peak {peak:.0f} MB" if after and first else "not enough samples after the warm-up")
    failed = (not alive) or bool(unexpected) or not (growth <= args.max_growth)
    if unexpected:
        print(f"unexpected answers: {unexpected[:10]}")
    print("soak: " + ("FAILED" if failed else "passed"))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
