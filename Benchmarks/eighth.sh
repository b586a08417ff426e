#!/usr/bin/env bash
# Shrink-on-load of sequential (baseline) JPEGs, at 1/8 or the scale SCALE names (1, 2, 4 or 8): CropKit's entropy
# decoder (at 1/8 it skips the AC coefficients the output never reads; at other scales it decodes them through its
# value tables) against libjpeg-turbo's own Huffman decoder (the same `cropkit convert` with the hidden
# --libjpeg-entropy flag) and against libvips' shrink-on-load (`vips copy IN[shrink=N]`), side by side in one run.
# Each command decodes at that scale and writes a JPEG q85. Prints median wall time and peak RSS, the ratios, and
# whether CropKit's output is byte-identical to the libjpeg-decoder output (it must be: the decoders give the same
# pixels, and --early-stop exact keeps 4:2:0 chroma exact).
#
#   [SCALE=2] Benchmarks/eighth.sh [runs] [image.jpg …]   (default: the four baseline camera photos of ../shared/testdata)
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-9}"
scale="${SCALE:-8}"
case "$scale" in 1 | 2 | 4 | 8) ;; *) echo "SCALE must be 1, 2, 4 or 8" >&2; exit 2 ;; esac
shift || true
images=("$@")
if [ ${#images[@]} -eq 0 ]; then
  images=(../shared/testdata/photos/samsung-s7edge-4032x3024.jpg ../shared/testdata/photos/canon-eos450d-4272x2848.jpg
    ../shared/testdata/photos/leica-t-4928x3264-orient8.jpg ../shared/testdata/photos/canon-eos5dmk3-5760x3840.jpg)
fi
source Benchmarks/measure.sh
[ -x /usr/bin/time ] || { echo "GNU time (/usr/bin/time) is needed" >&2; exit 1; }
.ci/install-deps bench
source Benchmarks/deploy-build.sh  # the static release build docs/deploy.md installs; sets $cropkit
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "1/$scale decode + JPEG q85 encode, median of $runs runs (wall time, peak RSS); ratios below 1 favour CropKit"
printf '%-34s %22s %22s %22s %8s %8s %s\n' image "cropkit (own)" "cropkit (libjpeg)" "vips shrink=$scale" \
  "÷libjpeg" "÷vips" identical
for input in "${images[@]}"; do
  [ -f "$input" ] || { echo "no such image: $input" >&2; exit 1; }
  fast=("$cropkit" convert "$input" -o "$work/fast.jpg" --scale "$scale" --early-stop exact --quality 85 --force)
  slow=("${fast[@]}" --libjpeg-entropy)
  slow[4]="$work/slow.jpg"
  read -r ft fr lt lr < <(measure_pair "${fast[@]}" -- "${slow[@]}")
  read -r vt vr < <(measure vips copy "$input[shrink=$scale]" "$work/vips.jpg[Q=85]")
  "${fast[@]}" >/dev/null && "${slow[@]}" >/dev/null
  identical=no
  cmp -s "$work/fast.jpg" "$work/slow.jpg" && identical=yes
  printf '%-34s %10.3f s %7.1f MB %10.3f s %7.1f MB %10.3f s %7.1f MB %7.2f× %7.2f× %s\n' "$(basename "$input")" \
    "$ft" "$(awk -v k="$fr" 'BEGIN { print k / 1024 }')" "$lt" "$(awk -v k="$lr" 'BEGIN { print k / 1024 }')" \
    "$vt" "$(awk -v k="$vr" 'BEGIN { print k / 1024 }')" \
    "$(awk -v a="$ft" -v b="$lt" 'BEGIN { print a / b }')" "$(awk -v a="$ft" -v b="$vt" 'BEGIN { print a / b }')" \
    "$identical"
  [ "$identical" = yes ] || { echo "CropKit's entropy decoder changed the output of $input" >&2; exit 1; }
done
