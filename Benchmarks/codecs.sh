#!/usr/bin/env bash
# Side-by-side codec benchmark (issue 2): decode + re-encode a 24-megapixel progressive JPEG at q90 with
# `cropkit convert` and, when libvips is installed, `vips copy`, several times each. Prints the median wall time and
# peak RSS of each and the ratio cropkit/vips. Then times the 1/8 shrink-on-load of the same file with the
# progressive early stop off, exact and DC-only.
#
#   Benchmarks/codecs.sh [image.jpg] [runs]
#
# Needs: a release build (done here), GNU time at /usr/bin/time; vips is optional (.ci/install-deps bench).
set -euo pipefail
cd "$(dirname "$0")/.."

input="${1:-../shared/testdata/photos/unsplash-rachel-hisko-6000x4000.jpg}"
runs="${2:-7}"
[ -f "$input" ] || { echo "no such image: $input" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "GNU time (/usr/bin/time) is needed" >&2; exit 1; }

swift build -c release --product cropkit >/dev/null
cropkit="$(swift build -c release --show-bin-path)/cropkit"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

source "$(dirname "$0")/measure.sh"

echo "input: $input ($(stat -c %s "$input") bytes), $runs runs each, medians"
"$cropkit" info "$input"
echo

read -r ck_time ck_rss < <(measure "$cropkit" convert "$input" -o "$work/cropkit.jpg" --quality 90 --force)
report "cropkit convert --quality 90" "$ck_time" "$ck_rss"
if command -v vips >/dev/null; then
  read -r vips_time vips_rss < <(measure vips copy "$input" "$work/vips.jpg[Q=90]")
  report "vips copy [Q=90]" "$vips_time" "$vips_rss"
  awk -v a="$ck_time" -v b="$vips_time" -v c="$ck_rss" -v d="$vips_rss" \
    'BEGIN { printf "ratio cropkit/vips: time %.2f, peak memory %.2f\n", a / b, c / d }'
  "$cropkit" info "$work/cropkit.jpg" "$work/vips.jpg" | sed 's/^.*\//  /'
else
  echo "vips not installed: no side-by-side ratio (.ci/install-deps bench installs it)"
fi

echo
echo "shrink-on-load to 1/8 (JPEG output):"
for mode in off exact dc; do
  read -r t r < <(measure "$cropkit" convert "$input" -o "$work/eighth-$mode.jpg" --scale 8 --early-stop "$mode" --force)
  report "cropkit convert --scale 8 --early-stop $mode" "$t" "$r"
done
if cmp -s "$work/eighth-off.jpg" "$work/eighth-exact.jpg"; then
  echo "exact early stop: output identical to the full 1/8 decode"
else
  echo "exact early stop: OUTPUT DIFFERS from the full 1/8 decode" >&2
  exit 1
fi
