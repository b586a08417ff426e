#!/usr/bin/env bash
# Builds the fuzz driver once (CropKitFuzz: every target's body, release, -sanitize=fuzzer,address) and runs one target
# for a number of seconds on its seed corpus (Fuzz/Corpus/TARGET, committed, small) plus a working corpus under
# .build-fuzz/corpus/TARGET that grows from run to run. Exits non-zero when the fuzzer finds a crash, a leak, a timeout,
# an allocation past the target's malloc limit or a process past its RSS limit; the input is written to
# .build-fuzz/artifacts/TARGET/.
#
#   Fuzz/run.sh TARGET SECONDS [more libFuzzer flags …]
#   Fuzz/run.sh all SECONDS          every target in turn, SECONDS each
#
# Memory caps: each target runs with -rss_limit_mb and -malloc_limit_mb sized to what its inputs may justify (the
# decoders' pixel limit, 4 MP; 1 MP for HEIF; 0.25 MP for the pipeline), so any allocation past the budget is a finding,
# and ASan's quarantine is held to 32 MB so that RSS measures the target, not freed memory.
#
# Targets: FuzzJPEG FuzzPNG FuzzWebP FuzzHEIF FuzzGIF FuzzTIFF FuzzEXIF FuzzICC FuzzFormat FuzzRecipe FuzzEditorEvents FuzzMultipart FuzzPipeline FuzzServiceRequest FuzzStraighten FuzzFaces FuzzBMP FuzzNumericEvents FuzzJXL FuzzJP2 FuzzFont
set -euo pipefail
cd "$(dirname "$0")/.."
targets=(FuzzJPEG FuzzPNG FuzzWebP FuzzHEIF FuzzGIF FuzzTIFF FuzzEXIF FuzzICC FuzzFormat FuzzRecipe FuzzEditorEvents FuzzMultipart FuzzPipeline FuzzServiceRequest FuzzStraighten FuzzFaces FuzzBMP FuzzNumericEvents FuzzJXL FuzzJP2 FuzzFont)
# RSS limit and largest single allocation, in MB. A 4-megapixel picture is 32 MB at 16-bit RGBA; the decoders hold at
# most a few such planes (libheif: YUV planes, reference frames and the interleaved picture of 1 MP). The one binary
# with every target, Foundation and ASan's shadow starts at 130-160 MB resident, so a target that allocates no
# pictures gets that and 32 MB; its malloc limit is what catches a block sized by a hostile length.
declare -A rss_mb=([FuzzJPEG]=256 [FuzzPNG]=256 [FuzzWebP]=256 [FuzzHEIF]=320 [FuzzGIF]=256 [FuzzTIFF]=256
  [FuzzEXIF]=192 [FuzzICC]=192 [FuzzFormat]=256 [FuzzRecipe]=192 [FuzzEditorEvents]=192 [FuzzNumericEvents]=192 [FuzzMultipart]=192
  [FuzzPipeline]=384 [FuzzServiceRequest]=192 [FuzzStraighten]=256 [FuzzFaces]=256 [FuzzBMP]=256 [FuzzJXL]=256 [FuzzJP2]=256 [FuzzFont]=256)
declare -A malloc_mb=([FuzzJPEG]=64 [FuzzPNG]=64 [FuzzWebP]=64 [FuzzHEIF]=64 [FuzzGIF]=64 [FuzzTIFF]=64
  [FuzzEXIF]=16 [FuzzICC]=16 [FuzzFormat]=32 [FuzzRecipe]=16 [FuzzEditorEvents]=16 [FuzzNumericEvents]=16 [FuzzMultipart]=16
  [FuzzPipeline]=64 [FuzzServiceRequest]=16 [FuzzStraighten]=16 [FuzzFaces]=16 [FuzzBMP]=64 [FuzzJXL]=64 [FuzzJP2]=64 [FuzzFont]=64)
target="${1:?usage: Fuzz/run.sh TARGET|all SECONDS [libFuzzer flags]}"
seconds="${2:?usage: Fuzz/run.sh TARGET|all SECONDS [libFuzzer flags]}"
shift 2
if [ "$target" = all ]; then
  failed=()
  for t in "${targets[@]}"; do "$0" "$t" "$seconds" "$@" || failed+=("$t"); done
  [ ${#failed[@]} -eq 0 ] || { echo "fuzz: failed: ${failed[*]}" >&2; exit 1; }
  exit 0
fi
[ -n "${rss_mb[$target]:-}" ] || { echo "fuzz: unknown target $target" >&2; exit 2; }
scratch=.build-fuzz
# SwiftPM links with gold by default, which fails on the sanitizer runtimes; the toolchain's lld does not.
lld="$(dirname "$(command -v swift)")/ld.lld"
mkdir -p "$scratch"
printf '{"schemaVersion": "1.0", "linker": {"path": "%s"}}\n' "$lld" > "$scratch/toolset.json"
CROPKIT_FUZZ=1 swift build -c release --scratch-path "$scratch" --toolset "$scratch/toolset.json" \
  -Xswiftc -sanitize=fuzzer,address --product CropKitFuzz 2>&1 | grep -E "error:|Build of" || true
binary="$scratch/release/CropKitFuzz"
[ -x "$binary" ] || { echo "fuzz: CropKitFuzz did not build" >&2; exit 1; }
corpus="$scratch/corpus/$target" artifacts="$scratch/artifacts/$target/"
mkdir -p "$corpus" "$artifacts"
# The Swift backtracer and ASan's own reports must not fight over a crash.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1:quarantine_size_mb=32}"
# Leaks inside third-party libraries (each explained in the file) are not CropKit's findings.
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$PWD/Fuzz/lsan.supp:print_suppressions=0}"
export CROPKIT_FUZZ_TARGET="$target"
log="$scratch/$target.log"
set +e
started=$(date +%s.%N)
"$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb="${rss_mb[$target]}" \
  -malloc_limit_mb="${malloc_mb[$target]}" -max_len=1048576 -print_final_stats=1 \
  -artifact_prefix="$artifacts" "$@" "$corpus" "Fuzz/Corpus/$target" >"$log" 2>&1
status=$?
elapsed=$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", b - a }')
set -e
runs="$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' || echo 0)"
peak="$(grep -Eo 'stat::peak_rss_mb: *[0-9]+' "$log" | grep -Eo '[0-9]+$' || echo '?')"
echo "fuzz: $target: $runs executions in ${elapsed} s (budget ${seconds} s), peak RSS ${peak} MB (limits ${rss_mb[$target]} MB, malloc ${malloc_mb[$target]} MB), exit $status"
if [ "$status" -ne 0 ]; then
  grep -E "ERROR|SUMMARY|Fatal error|Test unit written|malloc\(|out-of-memory" "$log" | head -20 >&2
  exit 1
fi
