#!/usr/bin/env bash
# Animations resized, side by side with libvips in one run (release build): a 120-frame 1280×720 animated WebP
# (lossy, 40 ms a frame) and a 100-frame 1280×720 GIF (the same pan, quantised by Pillow), each resized to 320 wide
# and written in its own format (WebP at quality 80 for both), against `vips thumbnail 'in[n=-1]' out 320`. Both are made from a pan
# across a test photo, so every frame differs. Prints the median time and peak RSS of each, the time ratio, and
# CropKit's peak RSS against what all frames decoded at once would take (frames × 1280 × 720 × 4 bytes).
#
#   Benchmarks/animation.sh [runs]     # default 3
set -euo pipefail
cd "$(dirname "$0")/.."
source "$(dirname "$0")/measure.sh"
runs="${1:-3}"
bench_setup
command -v img2webp >/dev/null || .ci/install-deps tools
cache=.build/bench-animation
mkdir -p "$cache"
photo=../shared/testdata/photos/canon-eos5dmk3-5760x3840.jpg
if [ ! -s "$cache/pan.webp" ] || [ ! -s "$cache/pan.gif" ]; then
  echo "making the animations (once; kept in $cache)"
  vips thumbnail "$photo" "$cache/wide.png" 2560
  for i in $(seq 0 119); do
    vips crop "$cache/wide.png" "$cache/f$(printf %03d "$i").png" $((i * 10)) $((i * 4)) 1280 720
  done
  img2webp -loop 0 -lossy -q 75 -d 40 "$cache"/f*.png -o "$cache/pan.webp" >/dev/null 2>&1
  /usr/bin/python3 - "$cache" <<'EOF'
import sys
from PIL import Image
cache = sys.argv[1]
frames = [Image.open(f"{cache}/f{i:03d}.png").convert("RGB") for i in range(100)]
frames[0].save(f"{cache}/pan.gif", save_all=True, append_images=frames[1:], duration=40, loop=0)
EOF
  rm -f "$cache"/f*.png "$cache/wide.png"
fi

all_frames_mb() { awk -v n="$1" 'BEGIN { printf "%.0f", n * 1280 * 720 * 4 / 1048576 }'; }
echo "120-frame and 100-frame 1280×720 animations resized to 320 wide, quality 80; median of $runs runs"
for input in pan.webp pan.gif; do
  ext="${input##*.}"
  save="$work/vips.$ext"
  [ "$ext" = webp ] && save="$save[Q=80]"  # vips' GIF writer takes no quality
  frames=$("$cropkit" info --json "$cache/$input" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["frames"])')
  read -r ct cr vt vr < <(measure_pair \
    "$cropkit" resize "$cache/$input" --width 320 --quality 80 -o "$work/out.$ext" --force --quiet -- \
    vips thumbnail "$cache/$input[n=-1]" "$save" 320)
  report "cropkit resize $input → 320 wide ($frames frames)" "$ct" "$cr"
  report "vips thumbnail $input[n=-1] 320" "$vt" "$vr"
  whole=$(all_frames_mb "$frames")
  awk -v c="$ct" -v v="$vt" -v r="$cr" -v w="$whole" 'BEGIN {
    printf "  time %.2f× libvips; peak RSS %.0f MB = %.2f× all %d frames decoded (%d MB)\n", c / v, r / 1024, r / 1024 / w, 0, w }' \
    | sed "s/all 0 frames/all $frames frames/"
  "$cropkit" info "$work/out.$ext"
  echo
  vipsheader -a "$work/vips.$ext" | grep -E "^(width|height|n-pages|page-height):" | tr '\n' ' '
  echo
done
