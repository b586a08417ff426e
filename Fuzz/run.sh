#!/usr/bin/env bash
# Builds one libFuzzer target (release, -sanitize=fuzzer,address) and runs it for a number of seconds on its seed
# corpus (Fuzz/Corpus/TARGET, committed, small) plus a working corpus under .build-fuzz/corpus/TARGET that grows
# from run to run. Exits non-zero when the fuzzer finds a crash, a leak or a timeout; the input is written to
# .build-fuzz/artifacts/TARGET/.
#
#   Fuzz/run.sh TARGET SECONDS [more libFuzzer flags …]
#   Fuzz/run.sh all SECONDS          every target in turn, SECONDS each
#
# Targets: FuzzJPEG FuzzPNG FuzzWebP FuzzHEIF FuzzGIF FuzzTIFF FuzzEXIF FuzzICC FuzzFormat FuzzRecipe FuzzEditorEvents FuzzMultipart FuzzPipeline FuzzServiceRequest
set -euo pipefail
cd "$(dirname "$0")/.."
targets=(FuzzJPEG FuzzPNG FuzzWebP FuzzHEIF FuzzGIF FuzzTIFF FuzzEXIF FuzzICC FuzzFormat FuzzRecipe FuzzEditorEvents FuzzMultipart FuzzPipeline FuzzServiceRequest)
target="${1:?usage: Fuzz/run.sh TARGET|all SECONDS [libFuzzer flags]}"
seconds="${2:?usage: Fuzz/run.sh TARGET|all SECONDS [libFuzzer flags]}"
shift 2
if [ "$target" = all ]; then
  failed=()
  for t in "${targets[@]}"; do "$0" "$t" "$seconds" "$@" || failed+=("$t"); done
  [ ${#failed[@]} -eq 0 ] || { echo "fuzz: failed: ${failed[*]}" >&2; exit 1; }
  exit 0
fi
scratch=.build-fuzz
# SwiftPM links with gold by default, which fails on the sanitizer runtimes; the toolchain's lld does not.
lld="$(dirname "$(command -v swift)")/ld.lld"
mkdir -p "$scratch"
printf '{"schemaVersion": "1.0", "linker": {"path": "%s"}}\n' "$lld" > "$scratch/toolset.json"
CROPKIT_FUZZ=1 swift build -c release --scratch-path "$scratch" --toolset "$scratch/toolset.json" \
  -Xswiftc -sanitize=fuzzer,address --product "$target" 2>&1 | grep -E "error:|Build of" || true
binary="$scratch/release/$target"
[ -x "$binary" ] || { echo "fuzz: $target did not build" >&2; exit 1; }
corpus="$scratch/corpus/$target" artifacts="$scratch/artifacts/$target/"
mkdir -p "$corpus" "$artifacts"
# The Swift backtracer and ASan's own reports must not fight over a crash.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}"
log="$scratch/$target.log"
set +e
started=$(date +%s.%N)
"$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=3072 -max_len=1048576 -print_final_stats=1 \
  -artifact_prefix="$artifacts" "$@" "$corpus" "Fuzz/Corpus/$target" >"$log" 2>&1
status=$?
elapsed=$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", b - a }')
set -e
runs="$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' || echo 0)"
echo "fuzz: $target: $runs executions in ${elapsed} s (budget ${seconds} s), exit $status"
if [ "$status" -ne 0 ]; then
  grep -E "ERROR|SUMMARY|Fatal error|Test unit written" "$log" | head -20 >&2
  exit 1
fi
