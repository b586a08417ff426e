#!/usr/bin/env python3
"""Two builds of CropKit's CLI side by side: for a change that must not change behaviour or speed (a move of code
between modules, a rename), the old and the new release binary run compare.py's CropKit tasks (the same commands)
and a smart fill, alternating old/new every round on the same photo. Each task prints the median wall times and peak
RSS, new ÷ old, and whether the two outputs are byte-identical.

    git worktree add /tmp/old BASE && (cd /tmp/old && swift build -c release --product cropkit)
    swift build -c release --product cropkit
    Benchmarks/ab.py /tmp/old/.build/release/cropkit .build/release/cropkit [--rounds 9] [--image PATH]
"""
import argparse, os, statistics, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import DEFAULT_IMAGE, commands, run_once  # noqa: E402

TASKS = ["T0", "T1", "T1s", "T2", "T3", "fill-attention"]


def command(task, cropkit, src, out):
    """compare.py's CropKit command for a task; a 400×400 attention fill for the smart crop."""
    if task == "fill-attention":
        return [cropkit, "resize", src, "--size", "400x400", "--mode", "fill", "--gravity", "attention",
                "-o", out, "--force", "--quiet"]
    return commands(task, src, out, {"cropkit": cropkit})["cropkit"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--image", default=DEFAULT_IMAGE)
    a = ap.parse_args()
    work = tempfile.mkdtemp()
    builds = {"old": a.old, "new": a.new}
    for task in TASKS:
        out = {key: os.path.join(work, f"{key}.jpg") for key in builds}
        runs = {key: [] for key in builds}
        for key in builds:  # warm-up
            run_once(command(task, builds[key], a.image, out[key]))
        for r in range(a.rounds):
            for key in (["old", "new"] if r % 2 == 0 else ["new", "old"]):
                runs[key].append(run_once(command(task, builds[key], a.image, out[key])))
        wall = {key: statistics.median(t for t, _ in runs[key]) for key in builds}
        rss = {key: statistics.median(m for _, m in runs[key]) for key in builds}
        same = open(out["old"], "rb").read() == open(out["new"], "rb").read()
        print(f"{task:15} old {wall['old']:.3f} s {rss['old']:6.1f} MB   new {wall['new']:.3f} s {rss['new']:6.1f} MB"
              f"   new/old time {wall['new'] / wall['old']:.3f} memory {rss['new'] / rss['old']:.3f}"
              f"   outputs {'identical' if same else 'DIFFER'}", flush=True)


if __name__ == "__main__":
    main()
