#!/usr/bin/env bash
# Side-by-side benchmark of the formats issue (12), CropKit against libvips in one run (release build, the same
# codec libraries underneath: libheif with libde265/libaom, libwebp):
#   F1  heif/pug.heic (iPhone 13 Pro, 4032×3024 grid) → 256-px fit thumbnail, JPEG q85
#   F2  6000×4000 JPEG → 1920 wide, WebP q80
#   F3  6000×4000 JPEG → 1920 wide, AVIF q60, the same AV1 speed for both (vips effort 4 = CropKit --effort 4 = speed 5)
# Prints median wall time and peak RSS of each and the ratios CropKit ÷ vips (below 1 is better). The two commands of
# a task run alternately, so that the shared machine's drift falls on both alike.
#
#   Benchmarks/formats.sh [runs]
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-5}"
testdata=../shared/testdata
heic="$testdata/heif/pug.heic" jpeg="$testdata/photos/unsplash-rachel-hisko-6000x4000.jpg"
for f in "$heic" "$jpeg"; do [ -f "$f" ] || { echo "no such image: $f" >&2; exit 1; }; done
source "$(dirname "$0")/measure.sh"
bench_setup

echo "$runs runs each, medians; $(nproc) cores"
compare F1 "$cropkit" resize "$heic" --size 256x256 --mode fit --quality 85 -o "$work/f1.jpg" --force --quiet \
  -- vipsthumbnail "$heic" -s 256 -o "$work/f1-vips.jpg[Q=85]"
compare F2 "$cropkit" resize "$jpeg" --width 1920 --quality 80 -o "$work/f2.webp" --force --quiet \
  -- vips resize "$jpeg" "$work/f2-vips.webp[Q=80]" 0.32 --kernel lanczos3
compare F3 "$cropkit" resize "$jpeg" --width 1920 --quality 60 --effort 4 -o "$work/f3.avif" --force --quiet \
  -- vips resize "$jpeg" "$work/f3-vips.avif[Q=60,effort=4,compression=av1]" 0.32 --kernel lanczos3
"$cropkit" info "$work"/f1.jpg "$work"/f1-vips.jpg "$work"/f2.webp "$work"/f2-vips.webp "$work"/f3.avif "$work"/f3-vips.avif \
  | sed "s|$work/||"
