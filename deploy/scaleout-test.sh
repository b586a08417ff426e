#!/usr/bin/env bash
# Two `cropkit serve` instances behind Debian's nginx (deploy/nginx.conf), all on loopback. Checks that:
#   1. requests reach both instances;
#   2. a repeated request is served from nginx's cache without reaching an instance;
#   3. hosted editors (--editor --instance NAME) open on both instances, and each editor's page and WebSocket reach
#      the instance that holds it;
#   4. stopping one instance (SIGTERM) while requests are running loses none of them.
# Exits non-zero on the first failed check. Uses the debug build unless CONFIG=release.
#
#   deploy/scaleout-test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
.ci/install-deps serve
config="${CONFIG:-debug}"
swift build -c "$config" --product cropkit 2>&1 | grep -E "error:" || true
swift build -c "$config" --product cropkit-server 2>&1 | grep -E "error:" || true  # serve and edit
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
cp Sources/CropSamples/Samples/waterfall-orientation6.jpg "$work/photos/fall.jpg"
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
  # Each instance is named by its port, as deploy/cropkit-serve@.service does with --instance %i.
  "$cropkit" serve --root "$work/photos" --port "$1" --concurrency 2 --drain-seconds 2 --editor --instance "$1" \
    >"$work/serve-$1.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$1/health" >/dev/null && return 0; sleep 0.1; done
  fail "instance on port $1 did not start: $(cat "$work/serve-$1.log")"
}
start "$port_a"; pid_a="${pids[0]}"
start "$port_b"
user_line=""; [ "$(id -u)" -eq 0 ] && user_line="user root;"
sed -e "s|@PREFIX@|$work|g" -e "s|@LISTEN@|$port_nginx|g" -e "s|@USER@|$user_line|" \
  -e "s|@UPSTREAMS@|server 127.0.0.1:$port_a max_fails=1 fail_timeout=2s; server 127.0.0.1:$port_b max_fails=1 fail_timeout=2s;|" \
  -e "s|@EDITOR_UPSTREAMS@|upstream cropkit_editor_$port_a { server 127.0.0.1:$port_a; } upstream cropkit_editor_$port_b { server 127.0.0.1:$port_b; }|" \
  -e "s|@EDITOR_ROUTES@|~^/editor/$port_a- cropkit_editor_$port_a; ~^/editor/$port_b- cropkit_editor_$port_b;|" \
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

# 3. Hosted editors: 8 signed /edit/ URLs open editors on both instances; each editor's page and WebSocket (through
#    nginx, with the browser's Origin) reach the instance named in its address. An unknown name is a 404.
# ws_hello PATH: opens the editor's WebSocket at PATH through nginx and prints its first message (the hello).
ws_hello() {
  python3 - "$port_nginx" "$1" <<'PY'
import base64, os, socket, sys
port, path = int(sys.argv[1]), sys.argv[2]
s = socket.create_connection(("127.0.0.1", port), timeout=10)
key = base64.b64encode(os.urandom(16)).decode()
s.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\n"
           f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
           "Sec-WebSocket-Version: 13\r\n\r\n").encode())
data = b""
while b"\r\n\r\n" not in data:
    chunk = s.recv(65536)
    if not chunk: sys.exit("closed before the handshake's end")
    data += chunk
head, data = data.split(b"\r\n\r\n", 1)
if not head.startswith(b"HTTP/1.1 101"): sys.exit(head.split(b"\r\n")[0].decode())
def need(n):
    global data
    while len(data) < n:
        chunk = s.recv(65536)
        if not chunk: sys.exit("closed inside a frame")
        data += chunk
need(2)
length, start = data[1] & 127, 2
if length == 126: need(4); length, start = int.from_bytes(data[2:4], "big"), 4
elif length == 127: need(10); length, start = int.from_bytes(data[2:10], "big"), 10
need(start + length)
print(data[start:start + length].decode())
PY
}
: >"$work/editors"
for n in $(seq 1 8); do
  location="$(curl -s -o /dev/null -D - "$base$(sign "/edit/fall.jpg?aspect=1:1&min-size=$(( 100 + n ))")" | tr -d '\r' \
    | awk -F': ' 'tolower($1) == "location" { print $2 }')"
  case "$location" in /editor/*-*/) ;; *) fail "/edit/ answered Location '$location'" ;; esac
  named="${location#/editor/}"; named="${named%%-*}"
  served="$(curl -sf -o /dev/null -D - "$base$location" | tr -d '\r' | awk -F': ' 'tolower($1) == "x-upstream" { print $2 }')"
  [ "$served" = "127.0.0.1:$named" ] || fail "the page of $location came from '$served'"
  hello="$(ws_hello "${location}api/session")" || fail "the WebSocket of $location: $hello"
  case "$hello" in *'"type":"hello"'*) ;; *) fail "the WebSocket of $location answered '$hello'" ;; esac
  echo "$named" >>"$work/editors"
done
ea=$(grep -c "^$port_a\$" "$work/editors" || true); eb=$(grep -c "^$port_b\$" "$work/editors" || true)
[ "$ea" -gt 0 ] && [ "$eb" -gt 0 ] || fail "8 editors opened $ea on A and $eb on B"
unknown="$(curl -s -o /dev/null -w '%{http_code}' "$base/editor/1-0123abcd/")"
[ "$unknown" = 404 ] || fail "an editor of an unknown instance answered $unknown"
echo "scaleout: 3. 8 editors opened $ea on A and $eb on B; each page and WebSocket hello came from its own instance"

# 4. Stopping one instance while requests run loses none: 4 clients, 60 uncached requests each; A gets SIGTERM early.
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
echo "scaleout: 4. $ok of $total requests succeeded while instance A was stopped ($(( $(date +%s) - started )) s, slowest ${slowest} s)"
echo "scaleout: all checks passed"
