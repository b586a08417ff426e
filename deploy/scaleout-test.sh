#!/usr/bin/env bash
# Two `cropkit serve` instances behind Debian's nginx (deploy/nginx.conf), all on loopback. Checks that:
#   1. requests reach both instances;
#   2. a repeated request is served from nginx's cache without reaching an instance;
#   3. stopping one instance (SIGTERM) while requests are running loses none of them.
# Exits non-zero on the first failed check. Uses the debug build unless CONFIG=release.
#
#   deploy/scaleout-test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
.ci/install-deps serve
config="${CONFIG:-debug}"
swift build -c "$config" --product cropkit 2>&1 | grep -E "error:" || true
cropkit="$(swift build -c "$config" --show-bin-path)/cropkit"
[ -x "$cropkit" ] || { echo "scaleout: no cropkit binary" >&2; exit 1; }

work="$(mktemp -d)"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  [ -f "$work/nginx.pid" ] && nginx -p "$work" -c "$work/nginx.conf" -s stop 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
trap 'echo "scaleout: stopped at line $LINENO; nginx said: $(tail -3 "$work/error.log" 2>/dev/null)" >&2' ERR
fail() { echo "scaleout: FAILED: $*" >&2; exit 1; }

mkdir -p "$work/photos"
cp Sources/cropkit/Samples/waterfall-orientation6.jpg "$work/photos/fall.jpg"
key="$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')"
export CROPKIT_SIGNING_KEY="$key"
read -r port_a port_b port_nginx < <(python3 -c '
import socket
s = [socket.socket() for _ in range(3)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')

# sign TARGET: the same HMAC as `cropkit sign`, without starting a process per URL.
sign() {
  local mac
  mac="$(printf '%s' "$1" | openssl dgst -sha256 -mac HMAC -macopt "hexkey:$key" -binary | base64 | tr '+/' '-_' | tr -d '=\n')"
  case "$1" in *\?*) printf '%s&sig=%s' "$1" "$mac" ;; *) printf '%s?sig=%s' "$1" "$mac" ;; esac
}
[ "$(sign '/img/fall.jpg?width=64')" = "$("$cropkit" sign '/img/fall.jpg?width=64')" ] || fail "sign() differs from cropkit sign"

start() {  # port → starts an instance, waits for /health
  # --drain-seconds 2 as in deploy/cropkit-serve@.service: while draining, answers close their connections.
  "$cropkit" serve --root "$work/photos" --port "$1" --concurrency 2 --drain-seconds 2 >"$work/serve-$1.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$1/health" >/dev/null && return 0; sleep 0.1; done
  fail "instance on port $1 did not start: $(cat "$work/serve-$1.log")"
}
start "$port_a"; pid_a="${pids[0]}"
start "$port_b"
user_line=""; [ "$(id -u)" -eq 0 ] && user_line="user root;"
sed -e "s|@PREFIX@|$work|g" -e "s|@LISTEN@|$port_nginx|g" -e "s|@USER@|$user_line|" \
  -e "s|@UPSTREAMS@|server 127.0.0.1:$port_a max_fails=1 fail_timeout=2s; server 127.0.0.1:$port_b max_fails=1 fail_timeout=2s;|" \
  deploy/nginx.conf >"$work/nginx.conf"
nginx -p "$work" -c "$work/nginx.conf" -e "$work/error.log"
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port_nginx/health" >/dev/null && break; sleep 0.1; done
base="http://127.0.0.1:$port_nginx"

# img_requests PORT: image requests an instance has answered (from its /metrics).
img_requests() {
  curl -sf "http://127.0.0.1:$1/metrics" | awk '/^cropkit_http_requests_total\{route="\/img"/ { n += $2 } END { print n + 0 }'
}

# 1. Both instances get requests.
: >"$work/upstreams"
for width in $(seq 100 119); do
  curl -sf -o /dev/null -D - "$base$(sign "/img/fall.jpg?width=$width")" | tr -d '\r' \
    | awk -F': ' 'tolower($1) == "x-upstream" { print $2 }' >>"$work/upstreams"
done
a=$(grep -c ":$port_a\$" "$work/upstreams" || true); b=$(grep -c ":$port_b\$" "$work/upstreams" || true)
[ "$a" -gt 0 ] && [ "$b" -gt 0 ] || fail "20 requests went $a to A and $b to B"
echo "scaleout: 1. 20 requests reached both instances: $a on A, $b on B"

# 2. A repeated request comes from nginx's cache: no instance sees it.
url="$base$(sign "/img/fall.jpg?width=300&format=auto")"
curl -sf -o /dev/null -H "Accept: image/webp" "$url"
before=$(( $(img_requests "$port_a") + $(img_requests "$port_b") ))
status="$(curl -sf -o /dev/null -D - -H "Accept: image/webp" "$url" | tr -d '\r' | awk -F': ' 'tolower($1) == "x-cache-status" { print $2 }')"
after=$(( $(img_requests "$port_a") + $(img_requests "$port_b") ))
[ "$status" = "HIT" ] || fail "the repeated request was a cache $status"
[ "$before" -eq "$after" ] || fail "the repeated request reached an instance ($before → $after image requests)"
echo "scaleout: 2. the repeated request was a cache HIT; the instances answered $before image requests before and after it"

# 3. Stopping one instance while requests run loses none: 4 clients, 60 uncached requests each; A gets SIGTERM early.
client() {  # first width → one status code per line
  for width in $(seq "$1" $(( $1 + 59 ))); do
    curl -s --max-time 30 -o /dev/null -w '%{http_code} %{time_total}\n' "$base$(sign "/img/fall.jpg?width=$width&quality=70")"
  done
}
clients=(); started=$(date +%s)
for c in 0 1 2 3; do client $(( 120 + c * 60 )) >"$work/codes-$c" & clients+=($!); done
sleep 1
kill -TERM "$pid_a"
wait "$pid_a" && echo "scaleout: instance A exited 0 after SIGTERM" || fail "instance A exited $? after SIGTERM"
for client_pid in "${clients[@]}"; do wait "$client_pid"; done
total=$(cat "$work"/codes-* | wc -l); ok=$(cat "$work"/codes-* | grep -c '^200 ' || true)
slowest=$(cat "$work"/codes-* | sort -k2 -n | tail -1 | cut -d' ' -f2)
[ "$total" -eq 240 ] && [ "$ok" -eq 240 ] || fail "$ok of $total requests succeeded while A stopped: $(cut -d' ' -f1 "$work"/codes-* | sort | uniq -c | tr '\n' ' ')"
echo "scaleout: 3. $ok of $total requests succeeded while instance A was stopped ($(( $(date +%s) - started )) s, slowest ${slowest} s)"
echo "scaleout: all checks passed"
