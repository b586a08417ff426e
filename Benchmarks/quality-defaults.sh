#!/usr/bin/env bash
# The default quality of each lossy format, measured: four test photos at 1800 px (vips thumbnail, sRGB PNG) encoded
# by libvips at its defaults (JPEG and WebP Q 75, HEIC and AVIF Q 50, effort 4) and by CropKit at a range of qualities
# (effort 4), on the same libraries. For each: the total size of the four files, the mean SSIM against the source
# (luma, Gaussian windows: Benchmarks/ssim.py) and the total encode time (release build). docs/formats.md's table of
# defaults comes from this; sharp's defaults (JPEG and WebP 80, AVIF and HEIC 50) are among CropKit's rows.
#
#   Benchmarks/quality-defaults.sh [qualities…]     # default: 50 60 70 75 80 85 90
set -euo pipefail
cd "$(dirname "$0")/.."
qualities=("${@:-50 60 70 75 80 85 90}")
read -r -a qualities <<<"${qualities[*]}"
testdata=../shared/testdata/photos
photos=(canon-eos450d-4272x2848 samsung-s7edge-4032x3024 unsplash-rachel-hisko-6000x4000 leica-t-4928x3264-orient8)
source "$(dirname "$0")/measure.sh"
runs=1
bench_setup
venv=.build/bench-venv
[ -x "$venv/bin/python" ] || { python3 -m venv "$venv" && "$venv/bin/pip" install --quiet numpy; }
for p in "${photos[@]}"; do
  vips thumbnail "$testdata/$p.jpg" "$work/$p.png" 1800 --export-profile srgb
  vips rawsave "$work/$p.png" "$work/$p.raw"
done

# row LABEL FORMAT COMMAND-WITH-{in}-{out}: encodes every photo, prints size, SSIM and time.
row() {
  local label="$1" format="$2" command="$3" bytes=0 seconds=0 scores=()
  for p in "${photos[@]}"; do
    local out="$work/$p.$format" cmd
    rm -f "$out"
    cmd="${command//\{in\}/$work/$p.png}"
    cmd="${cmd//\{out\}/$out}"
    read -r t _ < <(timed bash -c "$cmd")
    seconds=$(awk -v a="$seconds" -v b="$t" 'BEGIN { print a + b }')
    bytes=$((bytes + $(stat -c %s "$out")))
    vips copy "$out" "$work/decoded.png" && vips rawsave "$work/decoded.png" "$work/decoded.raw"
    local size; size=$(vipsheader -f width "$work/$p.png")x$(vipsheader -f height "$work/$p.png")
    scores+=("$("$venv/bin/python" Benchmarks/ssim.py "$work/$p.raw" "$work/decoded.raw" "${size%x*}" "${size#*x}")")
  done
  awk -v l="$label" -v b="$bytes" -v t="$seconds" -v s="${scores[*]}" 'BEGIN {
    n = split(s, v, " "); m = 0; for (i = 1; i <= n; i++) m += v[i]
    printf "%-28s %8.0f KB  SSIM %.4f  %6.2f s\n", l, b / 1024, m / n, t }'
}

echo "four photos at 1800 px wide; sizes are totals, SSIM the mean (luma), time the total encode (1 run)"
for format in jpg webp avif heic; do
  case $format in
    jpg) vq=75 ;; webp) vq=75 ;; *) vq=50 ;;
  esac
  echo "== $format"
  row "vips (default, Q $vq)" "$format" "vips copy {in} {out}"
  for q in "${qualities[@]}"; do
    row "cropkit --quality $q" "$format" "$cropkit convert {in} -o {out} --quality $q --quiet"
  done
done
