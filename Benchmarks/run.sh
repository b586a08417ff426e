#!/usr/bin/env bash
# Builds CropKit in release mode and runs the side-by-side benchmark (see compare.py for the tasks).
#   Benchmarks/run.sh [compare.py options, e.g. --runs 9 --tasks T1,T2]
# Run it on a quiet machine: the figures are wall times.
set -euo pipefail
cd "$(dirname "$0")/.."
.ci/install-deps bench
swift build -c release --product cropkit
# The same commands timed inside one process ("cropkit in", beside libvips 8.18's in-process figure).
CROPKIT_BENCHMARKS=1 swift build -c release --product CropKitTasks
exec python3 Benchmarks/compare.py "$@"
