#!/usr/bin/env bash
# Side-by-side memory and time of straightening a huge picture: a 15000×10000 JPEG (the Canon 5D Mk III photo of
# ../shared/testdata scaled up with vips, q90, made once under $TMPDIR) straightened 7.5° with the largest crop of the
# picture's aspect and no fill, at full resolution, JPEG q90:
#   cropkit crop huge.jpg --straighten 7.5      (one pass, streams through a window of source rows in column strips)
#   vips affine … --oarea <inner crop>           (one pass, inner crop only, bicubic)
#   libvips 8.18: vips_tasks.py T3 (the same affine through pyvips, PyPI's pyvips-binary, in the virtualenv
#   Benchmarks/compare.py makes; made here too when missing), as a whole process; skipped if it cannot be made
# Prints the median wall time and peak RSS of each (GNU time) and the ratios cropkit/vips. libvips 8.14 decodes a picture
# over its disc threshold (100 MB decoded) to a temporary file and reads that back, so its RSS leaves out the
# width × height × 3 bytes it wrote to disk; the third line runs it with the decoded picture in memory
# (VIPS_DISC_THRESHOLD above it), as CropKit keeps everything it holds.
#
#   Benchmarks/huge-straighten.sh [runs]            (CROPKIT=path/to/cropkit: measure that build)
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-3}"
.ci/install-deps bench >/dev/null
[ -x /usr/bin/time ] || { echo "GNU time (/usr/bin/time) is needed" >&2; exit 1; }
if [ -z "${CROPKIT:-}" ]; then  # CROPKIT names a release cropkit to measure instead (the static build, say)
  swift build -c release --product cropkit >/dev/null
  CROPKIT="$(swift build -c release --show-bin-path)/cropkit"
fi
cropkit="$CROPKIT"
work="${TMPDIR:-/tmp}/cropkit-huge"
mkdir -p "$work"
source_photo="../shared/testdata/photos/canon-eos5dmk3-5760x3840.jpg"
[ -f "$work/huge.jpg" ] || vips resize "$source_photo" "$work/huge.jpg[Q=90]" 2.6042
read -r w h < <(vipsheader -f width "$work/huge.jpg" | tr '\n' ' '; vipsheader -f height "$work/huge.jpg")
read -r matrix area < <(python3 - "$w" "$h" <<'PY'
import math, sys
w, h = int(sys.argv[1]), int(sys.argv[2])
t = math.radians(7.5); c, s = math.cos(t), math.sin(t)
k = min(w / (w * c + h * s), h / (w * s + h * c)); cw, ch = int(w * k), int(h * k)
cx, cy = w / 2 * c + h / 2 * s, -w / 2 * s + h / 2 * c
print(f"{c},{s},{-s},{c} {round(cx - cw / 2)},{round(cy - ch / 2)},{cw},{ch}")
PY
)
measure() {  # prints "median_seconds median_kb"
  local times=() rss=() line
  for _ in $(seq "$runs"); do
    /usr/bin/time -o "$work/time" -f '%e %M' "$@" >/dev/null 2>&1
    line="$(tail -n 1 "$work/time")"; times+=("${line% *}"); rss+=("${line#* }")
  done
  printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END {printf "%s ", a[int((NR+1)/2)]}'
  printf '%s\n' "${rss[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}
read -r ct cm < <(measure "$cropkit" crop "$work/huge.jpg" -o "$work/cropkit.jpg" --straighten 7.5 --quality 90 --force --quiet)
read -r vt vm < <(measure vips affine "$work/huge.jpg" "$work/vips.jpg[Q=90]" "${matrix//,/ }" --oarea "${area//,/ }" --interpolate bicubic)
read -r mt mm < <(VIPS_DISC_THRESHOLD=4g measure vips affine "$work/huge.jpg" "$work/vips-memory.jpg[Q=90]" "${matrix//,/ }" --oarea "${area//,/ }" --interpolate bicubic)
vips818="$(python3 -c 'import sys; sys.path.insert(0, "Benchmarks"); import compare; print(compare.vips_818_python() or "")')"
[ -z "$vips818" ] || read -r nt nm < <(measure "$vips818" Benchmarks/vips_tasks.py T3 "$work/huge.jpg" "$work/vips818.jpg" --runs 0)
echo "huge straighten, ${w}×${h}, 7.5°, median of $runs:"
echo "  cropkit   ${ct} s  $((cm / 1024)) MB  ($(vipsheader -f width "$work/cropkit.jpg")×$(vipsheader -f height "$work/cropkit.jpg"))"
echo "  vips 8.14 ${vt} s  $((vm / 1024)) MB  ($(vipsheader -f width "$work/vips.jpg")×$(vipsheader -f height "$work/vips.jpg"))"
echo "  vips 8.14, decoded in memory  ${mt} s  $((mm / 1024)) MB  (default: a $((w * h * 3 / 1048576)) MB temporary file instead)"
python3 -c "print(f'  cropkit/vips 8.14: time {$ct/$vt:.2f}x, peak RSS {$cm/$vm:.2f}x; RSS + temporary file {$cm/($vm + $w * $h * 3 / 1024):.2f}x')"
python3 -c "print(f'  cropkit/vips 8.14 decoded in memory: time {$ct/$mt:.2f}x, peak RSS {$cm/$mm:.2f}x')"
if [ -n "$vips818" ]; then
  echo "  vips 8.18 ${nt} s  $((nm / 1024)) MB  (pyvips, whole process)"
  python3 -c "print(f'  cropkit/vips 8.18: time {$ct/$nt:.2f}x, peak RSS {$cm/$nm:.2f}x')"
fi
