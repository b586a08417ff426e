#!/usr/bin/env bash
# A fuzz campaign: every target, one after the other, until it has run RUNS executions or SECONDS have passed, with
# the memory caps of run.sh. Prints one line per target (executions, time, peak RSS, exit) and exits non-zero if any
# target found something (its input is in .build-fuzz/artifacts/TARGET/).
#
#   Fuzz/campaign.sh [RUNS] [SECONDS] [TARGET…]      # defaults: 1000000 executions, 3600 s per target, all targets
set -uo pipefail
cd "$(dirname "$0")/.."
runs="${1:-1000000}" seconds="${2:-3600}"
targets=(FuzzJPEG FuzzPNG FuzzWebP FuzzHEIF FuzzGIF FuzzTIFF FuzzEXIF FuzzICC FuzzFormat FuzzRecipe FuzzEditorEvents FuzzMultipart FuzzPipeline FuzzServiceRequest FuzzStraighten FuzzFaces FuzzBMP FuzzNumericEvents FuzzJXL FuzzJP2 FuzzFont)
[ $# -gt 2 ] && targets=("${@:3}")
failed=()
for target in "${targets[@]}"; do
  Fuzz/run.sh "$target" "$seconds" -runs="$runs" || failed+=("$target")
done
[ ${#failed[@]} -eq 0 ] || { echo "campaign: findings in ${failed[*]}" >&2; exit 1; }
echo "campaign: ${#targets[@]} targets clean"
