#!/usr/bin/env bash
# Side-by-side benchmark of the image service (issue 13): `cropkit serve` (the deployment build of docs/deploy.md,
# signed URLs) against thumbor 7.8.0 from PyPI (in a virtualenv this script makes under .build-bench/; file loader,
# one process, no
# result storage), both on loopback. The same three JPEGs, the same job: fit in 500×500, JPEG q85.
#   S1  1800×1200 (exif-orientation/Landscape_0.jpg)
#   S2  4032×3024, 12 MP (photos/samsung-s7edge-4032x3024.jpg)
#   S3  6000×4000, 24 MP (photos/unsplash-rachel-hisko-6000x4000.jpg)
# wrk with 4 and then 16 connections, SECONDS each (default 20). Reports req/s, p50/p99 latency, errors, the CPU time
# each server spent per request (user + system over the run, its worker processes included), each server's peak RSS
# (VmHWM, summed over its processes), and the ratios CropKit ÷ thumbor: of the rates, and of the CPU per request
# (thumbor's ÷ CropKit's, so above 1 favours CropKit too). The rate counts what each server gets out of the two cores
# it shares with wrk; the CPU per request is what one request costs, whatever the number of processes.
#
# THUMBOR_PROCESSES=N runs thumbor with --processes N (default 1, as issue 13 measures it; 0 is one per core, the way
# thumbor is deployed on a multi-core host), so its rate can use both cores too.
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
# A server's process and its workers (thumbor --processes N forks N, and forks another when one ends while it runs).
tree() { echo "$1"; pgrep -P "$1" || true; }
# Both servers and their workers, at once (killed one after the other, thumbor's parent would replace its workers).
trap 'for p in "${pids[@]}"; do kill $(tree "$p") 2>/dev/null || true; done; rm -rf "$work"' EXIT
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
"$venv/bin/thumbor" --port "$port_t" --conf "$work/thumbor.conf" --processes "${THUMBOR_PROCESSES:-1}" -l error \
  >"$work/thumbor.log" 2>&1 &
pid_t=$!; pids+=($pid_t)
for port in "$port_c" "$port_t"; do
  for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/healthcheck" && break; sleep 0.2; done
done

# total PID FILE PROGRAM: the sum over a server's processes of what the awk PROGRAM reads from /proc/*/FILE
total() {
  for p in $(tree "$1"); do awk "$3" "/proc/$p/$2"; done | awk '{ s += $1 } END { print s }'
}
hwm() { total "$1" status '/VmHWM/ { print $2 }'; }  # peak RSS in kB, each process's summed
cpu() { total "$1" stat '{ print $14 + $15 }'; }    # user + system time in clock ticks
ticks_per_second="$(getconf CLK_TCK)"
# run NAME URL CONNECTIONS PID → "req/s p50_ms p99_ms errors cpu_ms_per_request"
run() {
  curl -sf -o /dev/null "$2" || { echo "$1: $2 fails" >&2; exit 1; }
  local before after
  before="$(cpu "$4")"
  wrk -t2 -c"$3" -d"${seconds}s" --latency "$2" >"$work/wrk.txt" 2>&1
  after="$(cpu "$4")"
  awk -v ticks="$((after - before))" -v hz="$ticks_per_second" '
    /Requests\/sec/ { rps = $2 } / requests in / { requests = $1 }
    /^ +50%/ { p50 = $2 } /^ +99%/ { p99 = $2 }
    /Non-2xx/ { errors += $NF } /Socket errors/ { errors += 1 }
    function ms(v) { if (v ~ /ms$/) return v + 0; if (v ~ /us$/) return v / 1000; if (v ~ /s$/) return v * 1000; return v }
    END { cpu_ms = requests ? ticks * 1000 / hz / requests : 0
          printf "%s %.1f %.1f %d %.1f\n", rps, ms(p50), ms(p99), errors + 0, cpu_ms }' "$work/wrk.txt"
}

# median TASK CONNECTIONS LABEL RATIO… → the line that gives the rounds' median ratio and their range
median() {
  local task="$1" connections="$2" label="$3"
  shift 3
  printf '%s\n' "$@" | sort -g | awk -v t="$task" -v c="$connections" -v label="$label" '
    { r[NR] = $1 }
    END { m = NR % 2 ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2
          printf "%-4s %-3s median of %d rounds, %s: %.2f× (%.2f×–%.2f×)\n", t, c, NR, label, m, r[1], r[NR] }'
}

echo "wrk ${seconds}s per run, loopback, $(nproc) cores; fit in 500×500, JPEG q85;" \
  "thumbor --processes ${THUMBOR_PROCESSES:-1}"
printf '%-4s %-3s %10s %8s %8s %6s %8s   %10s %8s %8s %6s %8s   %6s %6s\n' \
  task c "cropkit/s" p50ms p99ms errors cpu_ms "thumbor/s" p50ms p99ms errors cpu_ms ratio "cpu"
for i in 0 1 2; do
  signed="$("$cropkit" sign "/img/${names[$i]}?size=500x500&mode=fit&quality=85&format=jpeg")"
  for c in 4 16; do
    ratios=()
    cpu_ratios=()
    for round in $(seq 1 "$rounds"); do
      read -r cr cp50 cp99 ce cc < <(run cropkit "http://127.0.0.1:$port_c$signed" "$c" "$pid_c")
      read -r tr tp50 tp99 te tc < <(
        run thumbor "http://127.0.0.1:$port_t/unsafe/fit-in/500x500/${names[$i]}" "$c" "$pid_t")
      ratios+=("$(awk -v a="$cr" -v b="$tr" 'BEGIN { print a / b }')")
      cpu_ratios+=("$(awk -v a="$cc" -v b="$tc" 'BEGIN { print (a > 0 ? b / a : 0) }')")
      printf '%-4s %-3s %10s %8s %8s %6s %8s   %10s %8s %8s %6s %8s   %5.1f× %5.1f×\n' \
        "S$((i + 1))" "$c" "$cr" "$cp50" "$cp99" "$ce" "$cc" "$tr" "$tp50" "$tp99" "$te" "$tc" \
        "${ratios[-1]}" "${cpu_ratios[-1]}"
    done
    if [ "$rounds" -gt 1 ]; then
      median "S$((i + 1))" "$c" "rate" "${ratios[@]}"
      median "S$((i + 1))" "$c" "CPU per request" "${cpu_ratios[@]}"
    fi
  done
  # VmHWM only grows: after S1 it is S1's peak, after S2 the peak of S1 and S2, and so on.
  awk -v a="$(hwm "$pid_c")" -v b="$(hwm "$pid_t")" -v t="S$((i + 1))" \
    'BEGIN { printf "%s peak RSS so far: cropkit %.1f MB, thumbor %.1f MB, ratio %.2f×\n", t, a / 1024, b / 1024, a / b }'
done
