#!/usr/bin/env python3
"""Two builds of CropKit's CLI side by side: for a change that must not change behaviour or speed (a move of code
between modules, a rename), or one that should be faster, the old and the new release binary run compare.py's
CropKit tasks (the same commands) and a smart fill, alternating old/new every round on the same photo. Each task
prints the median wall times, CPU times (user + system, which a busy machine disturbs less than wall time) and peak
RSS, new ÷ old, and whether the two outputs are byte-identical. A baseline photo (`--image
../shared/testdata/photos/samsung-s7edge-4032x3024.jpg`) takes T1 through the sequential decoder at 1/8.

    git worktree add /tmp/old BASE && (cd /tmp/old && swift build -c release --product cropkit)
    swift build -c release --product cropkit
    Benchmarks/ab.py /tmp/old/.build/release/cropkit .build/release/cropkit [--rounds 9] [--image PATH] [--tasks T1,T2]
"""
import argparse, os, statistics, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import DEFAULT_IMAGE, commands, run_measured as measure  # noqa: E402

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
    ap.add_argument("--tasks", default=",".join(TASKS), help="comma-separated, of " + ", ".join(TASKS))
    a = ap.parse_args()
    tasks = a.tasks.split(",")
    unknown = [t for t in tasks if t not in TASKS]
    if unknown:
        ap.error(f"unknown tasks: {', '.join(unknown)}")
    work = tempfile.mkdtemp()
    builds = {"old": a.old, "new": a.new}
    for task in tasks:
        out = {key: os.path.join(work, f"{key}.jpg") for key in builds}
        runs = {key: [] for key in builds}
        for key in builds:  # warm-up
            measure(command(task, builds[key], a.image, out[key]))
        for r in range(a.rounds):
            for key in (["old", "new"] if r % 2 == 0 else ["new", "old"]):
                runs[key].append(measure(command(task, builds[key], a.image, out[key])))
        wall, cpu, rss = ({key: statistics.median(run[i] for run in runs[key]) for key in builds} for i in range(3))
        same = open(out["old"], "rb").read() == open(out["new"], "rb").read()
        print(f"{task:15} old {wall['old']:.3f} s {cpu['old']:.3f} s CPU {rss['old']:6.1f} MB"
              f"   new {wall['new']:.3f} s {cpu['new']:.3f} s CPU {rss['new']:6.1f} MB"
              f"   new/old time {wall['new'] / wall['old']:.3f} CPU {cpu['new'] / cpu['old']:.3f}"
              f" memory {rss['new'] / rss['old']:.3f}   outputs {'identical' if same else 'DIFFER'}", flush=True)


if __name__ == "__main__":
    main()
