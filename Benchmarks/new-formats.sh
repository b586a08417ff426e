#!/usr/bin/env bash
# JPEG XL and JPEG 2000, CropKit against libvips 8.14 (Debian's: jxlload and jxlsave over the same libjxl 0.7,
# jp2kload over the same OpenJPEG 2.5) in one run:
#   J1  a 24 MP JPEG XL (the 6000×4000 photo by cjxl -e 3 -q 85) → 256-px fit thumbnail, JPEG q85
#   J2  the 6000×4000 JPEG → 1920 wide JPEG XL at the default quality and effort (CropKit q75 e7; vips Q75 effort 7)
#   J3  the same JPEG recompressed losslessly (cropkit convert to .jxl; cjxl does the same): time and the saving
#   K1  a 24 MP JPEG 2000 (the photo by opj_compress at 20:1, 6 resolution levels) → 256-px fit thumbnail, JPEG q85
# then, for the 1920-px outputs at each format's default quality (JPEG and WebP 80, AVIF 50, JPEG XL 75), the bytes
# and the SSIM against a lossless 1920-px reference (Benchmarks/ssim.py), with JPEG XL at the qualities that match
# WebP's and AVIF's SSIM. Median wall time and peak RSS; ratios CropKit ÷ vips (below 1 is better).
#
#   Benchmarks/new-formats.sh [runs]
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-5}"
jpeg=../shared/testdata/photos/unsplash-rachel-hisko-6000x4000.jpg
[ -f "$jpeg" ] || { echo "no such image: $jpeg" >&2; exit 1; }
command -v cjxl >/dev/null && command -v opj_compress >/dev/null || .ci/install-deps tools
source "$(dirname "$0")/measure.sh"
bench_setup

cjxl "$jpeg" "$work/photo.jxl" -e 3 -q 85 --lossless_jpeg=0 --quiet
echo "$runs runs each, medians; $(nproc) cores; the 24 MP JPEG XL is $(( $(stat -c %s "$work/photo.jxl") / 1024 )) KB"
compare J1 "$cropkit" resize "$work/photo.jxl" --size 256x256 --mode fit --quality 85 -o "$work/j1.jpg" --force --quiet \
  -- vipsthumbnail "$work/photo.jxl" -s 256 -o "$work/j1-vips.jpg[Q=85]"
compare J2 "$cropkit" resize "$jpeg" --width 1920 -o "$work/j2.jxl" --force --quiet \
  -- vips resize "$jpeg" "$work/j2-vips.jxl[Q=75,effort=7]" 0.32 --kernel lanczos3
read -r rt rr < <(measure "$cropkit" convert "$jpeg" -o "$work/j3.jxl" --force --quiet)
report "J3 cropkit convert JPEG → JPEG XL (lossless)" "$rt" "$rr"
read -r ct cr < <(measure cjxl "$jpeg" "$work/j3-cjxl.jxl" --quiet)
report "J3 cjxl (the same recompression)" "$ct" "$cr"
echo "J3 $(stat -c %s "$jpeg") → $(stat -c %s "$work/j3.jxl") bytes (cjxl: $(stat -c %s "$work/j3-cjxl.jxl"))"
echo

vips copy "$jpeg" "$work/photo.png"
opj_compress -i "$work/photo.png" -o "$work/photo.jp2" -r 20 > /dev/null
echo "the 24 MP JPEG 2000 is $(( $(stat -c %s "$work/photo.jp2") / 1024 )) KB"
compare K1 "$cropkit" resize "$work/photo.jp2" --size 256x256 --mode fit --quality 85 -o "$work/k1.jpg" --force --quiet \
  -- vipsthumbnail "$work/photo.jp2" -s 256 -o "$work/k1-vips.jpg[Q=85]"

# Bytes at equal SSIM, 1920 px wide.
vips resize "$jpeg" "$work/ref.v" 0.32 --kernel lanczos3
vips rawsave "$work/ref.v" "$work/ref.raw"
width=$(vipsheader -f width "$work/ref.v") height=$(vipsheader -f height "$work/ref.v")
vips copy "$work/ref.v" "$work/ref.png"
score() {  # label file (decoded by CropKit, so every file is read by the same reader)
  "$cropkit" convert "$2" -o "$work/t.png" --force --quiet
  vips rawsave "$work/t.png" "$work/t.raw"
  printf '%-34s %7d bytes  SSIM %s\n' "$1" "$(stat -c %s "$2")" \
    "$(python3 Benchmarks/ssim.py "$work/ref.raw" "$work/t.raw" "$width" "$height")"
}
for spec in "jpg 80" "webp 80" "avif 50" "jxl 75" "jxl 60" "jxl 50"; do
  set -- $spec
  "$cropkit" convert "$work/ref.png" -o "$work/q.$1" --quality "$2" --force --quiet
  score "cropkit $1 q$2" "$work/q.$1"
done
score "vips jxlsave Q75 effort 7 (J2)" "$work/j2-vips.jxl"
score "cropkit jxl default (J2)" "$work/j2.jxl"
