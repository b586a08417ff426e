#!/usr/bin/env bash
# Smart crop (issue 15), release build, in one run: a 256×256 attention crop against CropKit's own centre crop
# (what the analysis adds) and against libvips' `vipsthumbnail --smartcrop attention` (the same job), on
#   P  6000×4000 progressive JPEG (photos/unsplash-rachel-hisko-6000x4000.jpg)
#   B  5760×3840 baseline JPEG (photos/canon-eos5dmk3-5760x3840.jpg)
# JPEG q85 out. Prints median wall time and peak RSS and the ratios (goals: attention ≤ 1.1× centre, ≤ 0.6× vips).
# The commands of a pair run alternately, so the shared machine's drift falls on both alike.
#
#   Benchmarks/smartcrop.sh [runs]
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-7}"
testdata=../shared/testdata
progressive="$testdata/photos/unsplash-rachel-hisko-6000x4000.jpg" baseline="$testdata/photos/canon-eos5dmk3-5760x3840.jpg"
for f in "$progressive" "$baseline"; do [ -f "$f" ] || { echo "no such image: $f" >&2; exit 1; }; done
source "$(dirname "$0")/measure.sh"
bench_setup

echo "$runs runs each, medians; $(nproc) cores"
for task in P B; do
  input="$progressive"; [ "$task" = B ] && input="$baseline"
  crop=("$cropkit" resize "$input" --size 256x256 --mode fill --quality 85 --force --quiet)
  read -r at ar ct cr < <(measure_pair "${crop[@]}" --gravity attention -o "$work/a.jpg" \
    -- "${crop[@]}" --gravity center -o "$work/c.jpg")
  report "$task cropkit attention" "$at" "$ar"
  report "$task cropkit centre" "$ct" "$cr"
  read -r at2 ar2 vt vr < <(measure_pair "${crop[@]}" --gravity attention -o "$work/a.jpg" \
    -- vipsthumbnail "$input" -s 256x256 --smartcrop attention -o "$work/v.jpg[Q=85]")
  report "$task vipsthumbnail --smartcrop attention" "$vt" "$vr"
  awk -v a="$at" -v c="$ct" -v a2="$at2" -v v="$vt" -v ar="$ar2" -v vr="$vr" -v n="$task" 'BEGIN {
    printf "%s attention ÷ centre: %.2f× (goal ≤ 1.1×); attention ÷ vips: time %.2f× (goal ≤ 0.6×), peak memory %.2f×\n\n",
      n, a / c, a2 / v, ar / vr }'
done
