#!/bin/bash
# Regenerates the auto-straighten fixtures from ../shared/testdata (libvips 8.14).
# Each photo (orientation applied, full resolution) is turned CLOCKWISE by a known angle with `vips rotate`, cut to
# its inner 98% of the largest same-aspect rectangle (so no fill corner shows), and shrunk to 1024 px, the size
# auto-straighten analyses (gray JPEG q85: the analysis reads luma only).
# File names: NAME_ANGLE.jpg; the correction that levels it is +ANGLE degrees counter-clockwise.
set -euo pipefail
data=${1:-../../../../../shared/testdata}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
turn() { # NAME SOURCE ANGLE
    local name=$1 src=$2 a=$3
    [ -f "$tmp/$name.png" ] || vips autorot "$src" "$tmp/$name.png"
    local W H
    W=$(vipsheader -f width "$tmp/$name.png"); H=$(vipsheader -f height "$tmp/$name.png")
    vips rotate -- "$tmp/$name.png" "$tmp/r.v" "$a"
    read -r cw ch x y < <(python3 -c "
import math
W,H,a=$W,$H,abs($a)*math.pi/180
r=max(W,H)/min(W,H); k=0.98/(math.cos(a)+r*math.sin(a))
cw,ch=int(W*k),int(H*k)
print(cw,ch,($(vipsheader -f width "$tmp/r.v")-cw)//2,($(vipsheader -f height "$tmp/r.v")-ch)//2)")
    vips extract_area "$tmp/r.v" "$tmp/c.v" "$x" "$y" "$cw" "$ch"
    vipsthumbnail "$tmp/c.v" -s 1024 -o "$tmp/s.v"
    vips colourspace "$tmp/s.v" "$PWD/${name}_${a}.jpg[Q=85,strip]" b-w
}
for a in -12 -7.5 -3 0 1.5 4.5 9 12; do
    turn waterfall "$data/exif-orientation/Landscape_6.jpg" $a
    turn leica "$data/photos/leica-t-4928x3264-orient8.jpg" $a
    turn samsung "$data/photos/samsung-s7edge-4032x3024.jpg" $a
done
for a in -6 0 8; do
    turn prachi "$data/photos/unsplash-prachi-palwe-4000x6000.jpg" $a
    turn clownfish "$data/photos/unsplash-rachel-hisko-6000x4000.jpg" $a
    turn pug "$data/color/pug-display-p3-2016x1512.jpg" $a
done
