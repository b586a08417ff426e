#!/usr/bin/env python3
"""Two builds of CropKit's CLI side by side: for a change that must not change behaviour or speed (a move of code
between modules, a rename), the old and the new release binary run compare.py's CropKit tasks and a smart fill,
alternating old/new every round on the same photo, and each task prints the median wall times, new ÷ old, and
whether the two outputs are byte-identical.

    git worktree add /tmp/old BASE && (cd /tmp/old && swift build -c release --product cropkit)
    swift build -c release --product cropkit
    Benchmarks/ab.py /tmp/old/.build/release/cropkit .build/release/cropkit [--rounds 9] [--image PATH]
"""
import argparse, os, statistics, subprocess, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ap = argparse.ArgumentParser()
ap.add_argument("old")
ap.add_argument("new")
ap.add_argument("--rounds", type=int, default=9)
ap.add_argument("--image", default=os.path.join(ROOT, "..", "shared", "testdata", "photos",
                                                "unsplash-rachel-hisko-6000x4000.jpg"))
a = ap.parse_args()
old, new, rounds, src = a.old, a.new, a.rounds, a.image
work = tempfile.mkdtemp()
tasks = {
 "T0": lambda ck, o: [ck, "convert", src, "-o", o + ".jpg", "--force", "--quiet", "--quality", "90"],
 "T1": lambda ck, o: [ck, "resize", src, "--size", "256x256", "--mode", "fit", "-o", o + ".jpg", "--force", "--quiet", "--quality", "85"],
 "T1s": lambda ck, o: [ck, "thumbnail", src, "--size", "256", "--progress", "none", "-o", o + ".jpg", "--force", "--quiet", "--quality", "85"],
 "T2": lambda ck, o: [ck, "resize", src, "--width", "1920", "--filter", "lanczos3", "-o", o + ".jpg", "--force", "--quiet", "--quality", "90"],
 "T3": lambda ck, o: [ck, "crop", src, "--straighten", "7.5", "-o", o + ".jpg", "--force", "--quiet", "--quality", "90"],
 "fill-attention": lambda ck, o: [ck, "resize", src, "--size", "400x400", "--mode", "fill", "--gravity", "attention", "-o", o + ".jpg", "--force", "--quiet"],
}
def run(cmd):
    """Wall time of one run."""
    t = time.perf_counter(); subprocess.run(cmd, check=True); return time.perf_counter() - t
for name, mk in tasks.items():
    times = {"old": [], "new": []}
    for ck, key in ((old, "old"), (new, "new")): run(mk(ck, os.path.join(work, key)))  # warm-up
    for r in range(rounds):
        order = [(old, "old"), (new, "new")] if r % 2 == 0 else [(new, "new"), (old, "old")]
        for ck, key in order: times[key].append(run(mk(ck, os.path.join(work, key))))
    mo, mn = statistics.median(times["old"]), statistics.median(times["new"])
    same = open(os.path.join(work, "old.jpg"), "rb").read() == open(os.path.join(work, "new.jpg"), "rb").read()
    print(f"{name:15} old {mo:.3f} s  new {mn:.3f} s  new/old {mn / mo:.3f}  outputs {'identical' if same else 'DIFFER'}", flush=True)
