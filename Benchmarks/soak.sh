#!/usr/bin/env bash
# Soak test of `cropkit serve` (the deployment build of docs/deploy.md): wrk with 16 connections for MINUTES
# (default 10) after a 1-minute warm-up, over 60 different signed URLs (the 1800×1200, 12 MP and 24 MP JPEGs at 20
# widths each, fit, JPEG q85).
# Samples the server's resident memory every 30 s and reports its growth after the warm-up (goal ≤ 10%), the request
# count and rate, and every answer that is not 200 (503s are configured back-pressure and counted apart).
#
#   Benchmarks/soak.sh [MINUTES]
set -euo pipefail
cd "$(dirname "$0")/.."
minutes="${1:-10}"
testdata=../shared/testdata
images=("$testdata/exif-orientation/Landscape_0.jpg" "$testdata/photos/samsung-s7edge-4032x3024.jpg"
  "$testdata/photos/unsplash-rachel-hisko-6000x4000.jpg")
for f in "${images[@]}"; do [ -f "$f" ] || { echo "no such image: $f" >&2; exit 1; }; done
.ci/install-deps serve
source Benchmarks/deploy-build.sh
work="$(mktemp -d)"
pid=""
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$work"' EXIT
mkdir -p "$work/photos"
for i in 0 1 2; do cp "${images[$i]}" "$work/photos/s$i.jpg"; done
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
export CROPKIT_SIGNING_KEY="$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')"
"$cropkit" serve --root "$work/photos" --port "$port" >"$work/serve.log" 2>&1 &
pid=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.1; done

# The wrk script: 60 signed paths in turn; counts answers by status.
{
  echo "paths = {"
  for i in 0 1 2; do
    for width in $(seq 300 20 680); do
      printf '  "%s",\n' "$("$cropkit" sign "/img/s$i.jpg?size=${width}x${width}&mode=fit&quality=85&format=jpeg")"
    done
  done
  cat <<'LUA'
}
counter = 0
statuses = {}
threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) statuses = {} end
function request()
  counter = counter + 1
  return wrk.format("GET", paths[(counter % #paths) + 1])
end
function response(status, headers, body) statuses[status] = (statuses[status] or 0) + 1 end
function done(summary, latency, requests)
  local total = {}
  for _, thread in ipairs(threads) do
    local s = thread:get("statuses")
    for status, n in pairs(s) do total[status] = (total[status] or 0) + n end
  end
  for status, n in pairs(total) do io.write(string.format("status %d %d\n", status, n)) end
end
LUA
} >"$work/soak.lua"

rss() { awk '/VmRSS/ { print $2 }' "/proc/$pid/status"; }
echo "warm-up: 60 s at 16 connections"
wrk -t2 -c16 -d60s -s "$work/soak.lua" "http://127.0.0.1:$port" >"$work/warmup.txt"
base=$(rss)
echo "after warm-up: $((base / 1024)) MB resident; soak: $minutes min at 16 connections"
wrk -t2 -c16 -d"$((minutes * 60))s" --latency -s "$work/soak.lua" "http://127.0.0.1:$port" >"$work/soak.txt" &
wrk_pid=$!
peak=$base
while kill -0 "$wrk_pid" 2>/dev/null; do
  sleep 30
  now=$(rss); [ "$now" -gt "$peak" ] && peak=$now
  echo "  $(date +%H:%M:%S) resident $((now / 1024)) MB"
done
wait "$wrk_pid"
final=$(rss)
grep -E 'Requests/sec|requests in|Socket errors|50%|99%' "$work/soak.txt"
grep '^status' "$work/soak.txt" | sort
other=$(awk '/^status/ && $2 != 200 && $2 != 503 { n += $3 } END { print n + 0 }' "$work/soak.txt")
socket=$(awk '/Socket errors/ { gsub(",", ""); print $4 + $6 + $8 + $10 }' "$work/soak.txt")
awk -v b="$base" -v f="$final" -v p="$peak" -v o="$other" -v s="${socket:-0}" 'BEGIN {
  printf "resident memory: %.1f MB after warm-up, %.1f MB at the end (%+.1f%%), %.1f MB at most (%+.1f%%)\n",
    b / 1024, f / 1024, (f - b) * 100 / b, p / 1024, (p - b) * 100 / b
  printf "errors other than 503: %d answers, %d socket errors\n", o, s
  exit (p - b) * 100 / b > 10 || o > 0 || s > 0 }' && echo "soak: passed" || { echo "soak: FAILED"; exit 1; }
