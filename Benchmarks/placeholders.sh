#!/usr/bin/env bash
# Placeholders (issue 41's goals), in one run:
#   P1  BlurHash of the 24 MP photo's 4:3 crop against a 256 px thumbnail of the same crop (cropkit crop --aspect 4:3
#       --max-size 256), both CropKit: goal ≤ 1.2× the time, ≤ 1.0× the peak memory
#   P2  ThumbHash and P3 the preview, the same way
#   W1, W2  an image watermark; W3, W4 a text watermark (see below)
# then Benchmarks/placeholders.py: each placeholder decoded by the reference decoders (PyPI `blurhash`,
# `thumbhash-python`, in a virtualenv this script makes under ~/.cache) against the finished picture, on three photos
# and three chains of steps.
#
#   Benchmarks/placeholders.sh [runs]
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-7}"
photo=../shared/testdata/photos/unsplash-rachel-hisko-6000x4000.jpg
[ -f "$photo" ] || { echo "no such image: $photo" >&2; exit 1; }
source "$(dirname "$0")/measure.sh"
bench_setup
venv="${XDG_CACHE_HOME:-$HOME/.cache}/cropkit-bench-placeholders"
[ -x "$venv/bin/python" ] || { python3 -m venv "$venv" && "$venv/bin/pip" install -q pillow numpy blurhash thumbhash-python; }

echo "$runs runs each, medians; $(nproc) cores; $(basename "$photo")"
thumb=("$cropkit" crop "$photo" --aspect 4:3 --max-size 256 -o "$work/t.jpg" --force --quiet)
compare_as "P1 BlurHash" placeholder thumbnail "$cropkit" placeholder "$photo" --kind blurhash --aspect 4:3 -- "${thumb[@]}"
compare_as "P2 ThumbHash" placeholder thumbnail "$cropkit" placeholder "$photo" --kind thumbhash --aspect 4:3 -- "${thumb[@]}"
compare_as "P3 preview" placeholder thumbnail "$cropkit" placeholder "$photo" --kind preview --aspect 4:3 -- "${thumb[@]}"

"$venv/bin/python" Benchmarks/placeholders.py "$cropkit" "$photo" \
  ../shared/testdata/photos/unsplash-prachi-palwe-4000x6000.jpg ../shared/testdata/photos/leica-t-4928x3264-orient8.jpg

# Watermarks: a 1920 px rendition with an image mark (30% of the width, bottom-right, opacity 0.5) against the same
# rendition without it (goal ≤ 1.1×) and against vips resize + composite2 (goal ≤ 0.8×). vips has no opacity for
# composite2: its mark gets its alpha halved first (outside the timing), which is what opacity 0.5 composites.
echo
mark=Sources/CropSamples/Samples/watercolor-rgba.png
"$cropkit" resize "$mark" -o "$work/mark576.png" --width 576 --quiet --force
vips linear "$work/mark576.png" "$work/mark-half.png" "1 1 1 0.5" "0 0 0 0" --uchar
mh=$(vipsheader -f height "$work/mark-half.png")
marked=("$cropkit" resize "$photo" --width 1920 -o "$work/w.jpg" --force --quiet --watermark "$mark" --watermark-scale 0.3 --watermark-opacity 0.5)
plain=("$cropkit" resize "$photo" --width 1920 -o "$work/p.jpg" --force --quiet)
compare_as W1 with-mark without "${marked[@]}" -- "${plain[@]}"
vips_marked() {
  vips resize "$photo" "$work/v.v" 0.32 --kernel lanczos3 &&
    vips composite2 "$work/v.v" "$work/mark-half.png" "$work/v.jpg[Q=80]" over \
      --x $((1920 - 576 - 26)) --y $((1280 - mh - 26))
}
compare W2 "${marked[@]}" -- bash -c "$(declare -p photo work mh); $(declare -f vips_marked); vips_marked"

# Text watermarks: the same rendition with a line of text (30% of the width, DejaVu Sans Bold) with an outline and a
# shadow against it without a mark (W3), and the line alone against vips text + composite2 of the same line, white,
# about as large (W4: vips shapes with Pango; its mark is made of the text's mask as alpha under white).
font=/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf
[ -f "$font" ] || font=Tests/CropKitTests/Fixtures/text/test-sans-bold.ttf
text=("$cropkit" resize "$photo" --width 1920 -o "$work/tx.jpg" --force --quiet --watermark-text "© Ada Photo" --font "$font"
  --watermark-scale 0.3 --watermark-outline black --watermark-shadow "#00000099")
compare_as W3 with-text without "${text[@]}" -- "${plain[@]}"
line=("$cropkit" resize "$photo" --width 1920 -o "$work/tl.jpg" --force --quiet --watermark-text "© Ada Photo" --font "$font"
  --watermark-scale 0.3)
vips_text() {
  vips resize "$photo" "$work/vt.v" 0.32 --kernel lanczos3 &&
    vips text "$work/t.v" "© Ada Photo" --fontfile "$font" --font "DejaVu Sans Bold 82" --dpi 72 &&
    vips linear "$work/t.v" "$work/w.v" 0 255 --uchar &&
    vips bandjoin "$work/w.v $work/w.v $work/w.v $work/t.v" "$work/j.v" &&
    vips copy "$work/j.v" "$work/m.v" --interpretation srgb &&
    vips composite2 "$work/vt.v" "$work/m.v" "$work/vt.jpg[Q=80]" over --x 1300 --y 1180
}
compare W4 "${line[@]}" -- bash -c "$(declare -p photo work font); $(declare -f vips_text); vips_text"
