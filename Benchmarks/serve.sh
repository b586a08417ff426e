#!/usr/bin/env bash
# Side-by-side benchmark of the image service (issue 13): `cropkit serve` (the deployment build of docs/deploy.md,
# signed URLs) against thumbor 7.8.0 from PyPI (in a virtualenv this script makes under .build-bench/; file loader,
# one process, no
# result storage), both on loopback. The same three JPEGs, the same job: fit in 500×500, JPEG q85.
#   S1  1800×1200 (exif-orientation/Landscape_0.jpg)
#   S2  4032×3024, 12 MP (photos/samsung-s7edge-4032x3024.jpg)
#   S3  6000×4000, 24 MP (photos/unsplash-rachel-hisko-6000x4000.jpg)
# wrk with 4 and then 16 connections, SECONDS each (default 20). Reports req/s, p50/p99 latency, errors and each
# server's peak RSS (VmHWM), and the ratios CropKit ÷ thumbor.
#
# With ROUNDS > 1 (default 1), each image and connection count runs that many times, the two servers alternating,
# and a last line gives the median of the rounds' ratios: thumbor's own rate moves by up to 15% between runs on this
# machine, which a single pair of runs takes into its ratio whole. The peaks then cover every round's runs.
#
#   Benchmarks/serve.sh [SECONDS] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-20}"
rounds="${2:-1}"
testdata=../shared/testdata
images=("$testdata/exif-orientation/Landscape_0.jpg" "$testdata/photos/samsung-s7edge-4032x3024.jpg"
  "$testdata/photos/unsplash-rachel-hisko-6000x4000.jpg")
for f in "${images[@]}"; do [ -f "$f" ] || { echo "no such image: $f" >&2; exit 1; }; done
.ci/install-deps serve
venv="${THUMBOR_VENV:-.build-bench/thumbor-venv}"  # made here unless THUMBOR_VENV names one
if [ ! -x "$venv/bin/thumbor" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q "thumbor==7.8.0"
fi
source Benchmarks/deploy-build.sh
work="$(mktemp -d)"
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"' EXIT
mkdir -p "$work/photos"
names=(s1.jpg s2.jpg s3.jpg)
for i in 0 1 2; do cp "${images[$i]}" "$work/photos/${names[$i]}"; done
read -r port_c port_t < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')

export CROPKIT_SIGNING_KEY="$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')"
"$cropkit" serve --root "$work/photos" --port "$port_c" >"$work/cropkit.log" 2>&1 &
pid_c=$!; pids+=($pid_c)
cat >"$work/thumbor.conf" <<CONF
LOADER = 'thumbor.loaders.file_loader'
FILE_LOADER_ROOT_PATH = '$work/photos'
STORAGE = 'thumbor.storages.no_storage'
RESULT_STORAGE = None
QUALITY = 85
ALLOW_UNSAFE_URL = True
AUTO_WEBP = False
CONF
"$venv/bin/thumbor" --port "$port_t" --conf "$work/thumbor.conf" -l error >"$work/thumbor.log" 2>&1 &
pid_t=$!; pids+=($pid_t)
for port in "$port_c" "$port_t"; do
  for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/healthcheck" && break; sleep 0.2; done
done

hwm() { awk '/VmHWM/ { print $2 }' "/proc/$1/status"; }  # peak RSS in kB
# run NAME URL CONNECTIONS → "req/s p50_ms p99_ms errors"
run() {
  curl -sf -o /dev/null "$2" || { echo "$1: $2 fails" >&2; exit 1; }
  wrk -t2 -c"$3" -d"${seconds}s" --latency "$2" >"$work/wrk.txt" 2>&1
  awk '
    /Requests\/sec/ { rps = $2 }
    /^ +50%/ { p50 = $2 } /^ +99%/ { p99 = $2 }
    /Non-2xx/ { errors += $NF } /Socket errors/ { errors += 1 }
    function ms(v) { if (v ~ /ms$/) return v + 0; if (v ~ /us$/) return v / 1000; if (v ~ /s$/) return v * 1000; return v }
    END { printf "%s %.1f %.1f %d\n", rps, ms(p50), ms(p99), errors + 0 }' "$work/wrk.txt"
}

echo "wrk ${seconds}s per run, loopback, $(nproc) cores; fit in 500×500, JPEG q85"
printf '%-4s %-3s %10s %10s %10s %8s   %10s %10s %10s %8s   %s\n' task c "cropkit/s" p50ms p99ms errors "thumbor/s" p50ms p99ms errors "ratio"
for i in 0 1 2; do
  signed="$("$cropkit" sign "/img/${names[$i]}?size=500x500&mode=fit&quality=85&format=jpeg")"
  for c in 4 16; do
    ratios=()
    for round in $(seq 1 "$rounds"); do
      read -r cr cp50 cp99 ce < <(run cropkit "http://127.0.0.1:$port_c$signed" "$c")
      read -r tr tp50 tp99 te < <(run thumbor "http://127.0.0.1:$port_t/unsafe/fit-in/500x500/${names[$i]}" "$c")
      ratios+=("$(awk -v a="$cr" -v b="$tr" 'BEGIN { print a / b }')")
      printf '%-4s %-3s %10s %10s %10s %8s   %10s %10s %10s %8s   %.1f×\n' "S$((i + 1))" "$c" "$cr" "$cp50" "$cp99" \
        "$ce" "$tr" "$tp50" "$tp99" "$te" "${ratios[-1]}"
    done
    if [ "$rounds" -gt 1 ]; then
      printf '%s\n' "${ratios[@]}" | sort -g | awk -v t="S$((i + 1))" -v c="$c" '
        { r[NR] = $1 }
        END { m = NR % 2 ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2
              printf "%-4s %-3s median of %d rounds: %.2f× (%.2f×–%.2f×)\n", t, c, NR, m, r[1], r[NR] }'
    fi
  done
  # VmHWM only grows: after S1 it is S1's peak, after S2 the peak of S1 and S2, and so on.
  awk -v a="$(hwm "$pid_c")" -v b="$(hwm "$pid_t")" -v t="S$((i + 1))" \
    'BEGIN { printf "%s peak RSS so far: cropkit %.1f MB, thumbor %.1f MB, ratio %.2f×\n", t, a / 1024, b / 1024, a / b }'
done
