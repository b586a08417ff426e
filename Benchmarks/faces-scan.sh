#!/usr/bin/env bash
# The face scan's own cost, beside dlib's: CropKit's HOGFaceDetector (PixelsBench, release) and dlib 19.24's
# frontal face detector (built here twice: -O2 with SSE2, as Debian builds it, and -O3 with AVX2 and FMA) on a
# 2,000 × 1,333 picture, the copy the detector scans of a 3:2 photo for faces of 6% of its short side. Medians, one
# thread for dlib (its scan is single-threaded), one and two threads for CropKit.
#
#   apt-get install libdlib-dev      # a maintainer's machine: dlib is neither built nor shipped with CropKit
#   Benchmarks/faces-scan.sh
set -euo pipefail
cd "$(dirname "$0")/.."
lib=/usr/lib/x86_64-linux-gnu
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
CROPKIT_BENCHMARKS=1 swift build -c release --product PixelsBench > "$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; exit 1; }
for flags in "-O2" "-O3 -mavx2 -mfma"; do
  # shellcheck disable=SC2086 # the flags are words
  g++ $flags -std=c++17 -o "$tmp/dlib-time" scripts/faces/dlib-time.cpp -ldlib "$lib/liblapack.so.3" "$lib/libblas.so.3"
  echo "dlib 19.24 ($flags), 1 thread: $("$tmp/dlib-time" 2000 1333 7) ms"
done
.build/release/PixelsBench "face scan" | tail -1
