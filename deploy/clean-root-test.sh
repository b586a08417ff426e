#!/usr/bin/env bash
# The release artifacts as someone without Swift installs them. Makes the .deb and the OCI image (deploy/release.sh),
# then:
#   1. a clean Debian 12 root (debootstrap --variant=minbase) with the .deb installed by apt: no Swift, no compiler and
#      no -dev package in it, only what the package pulls in; inside it (chroot): `cropkit --version`, `cropkit demo`,
#      and a `cropkit serve` that answers a signed URL on loopback with the picture (and 403 without the signature);
#   2. the image's own root filesystem (its layer unpacked from the OCI archive): the same serve check, as the image's
#      user `cropkit`, on its entrypoint's folder.
# Needs root, debootstrap and buildah (.ci/install-deps release) and Debian's mirror. Prints a transcript.
#
#   deploy/clean-root-test.sh [--binary PATH]     # default: deploy/build-static.sh builds the release binary
set -euo pipefail
cd "$(dirname "$0")/.."
binary=()
[ "${1:-}" = --binary ] && binary=(--binary "$2")
work="$(mktemp -d /tmp/cropkit-clean-root.XXXXXX)"
mounts=()
cleanup() {
  for m in "${mounts[@]}"; do umount -l "$m" 2>/dev/null || true; done
  pkill -f "$work/.*cropkit serve" 2>/dev/null || true
  pkill -f "cropkit-server serve --root /srv/photos --host 127.0.0.1 --port 808[12]" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "clean-root-test: FAIL $*" >&2; exit 1; }
say() { echo "clean-root-test: $*"; }

# The clean root is the one the image is made from (debootstrap, then the .deb by apt), copied before the image's user
# is added: one debootstrap instead of two. Made here when release.sh builds on a root it was given (CROPKIT_IMAGE_ROOT).
root="$work/root"
CROPKIT_KEEP_CLEAN_ROOT="$root" deploy/release.sh "${binary[@]}" --image --out "$work/dist" | sed 's/^/  /'
deb="$(ls "$work"/dist/cropkit_*_amd64.deb)" oci="$(ls "$work"/dist/cropkit-serve-*.oci.tar)"
[ -d "$root" ] || deploy/clean-root.sh "$root" "$deb" | sed 's/^/  /'
mount -t proc proc "$root/proc" && mounts+=("$root/proc")
for tool in swift swiftc gcc cc clang; do
  chroot "$root" sh -c "command -v $tool" >/dev/null && fail "$tool is in the clean root"
done
dev="$(chroot "$root" dpkg-query -W -f '${Package}\n' | grep -- '-dev$' || true)"
[ -z "$dev" ] || fail "development packages in the clean root: $dev"
say "clean root: $(chroot "$root" dpkg-query -W -f '${Package}\n' | wc -l) packages, no swift, no compiler, no -dev package"

# `serve_check ROOT USER FOLDER PICTURE`: a signed URL answered with a JPEG, an unsigned one with 403.
serve_check() {
  local root="$1" user="$2" folder="$3" picture="$4" key log port url status
  key="$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')"
  log="$work/serve-$(basename "$root").log"
  chroot --userspec="$user" "$root" env CROPKIT_SIGNING_KEY="$key" /usr/bin/cropkit serve --root "$folder" --port 0 \
    >"$log" 2>&1 &
  local pid=$!
  for _ in $(seq 1 100); do
    port="$(grep -o '127.0.0.1:[0-9]*' "$log" | head -1 | cut -d: -f2 || true)"
    [ -n "$port" ] && break
    sleep 0.1
  done
  [ -n "$port" ] || { cat "$log" >&2; fail "cropkit serve did not start in $root"; }
  url="$(chroot "$root" env CROPKIT_SIGNING_KEY="$key" /usr/bin/cropkit sign "/img/$picture?width=200&format=jpeg")"
  status="$(curl -s -o "$work/answer.jpg" -w '%{http_code}' "http://127.0.0.1:$port$url")"
  [ "$status" = 200 ] || fail "the signed URL answered $status in $root"
  [ "$(head -c 2 "$work/answer.jpg" | od -An -tx1 | tr -d ' ')" = ffd8 ] || fail "the answer is not a JPEG"
  status="$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/img/$picture?width=200")"
  [ "$status" = 403 ] || fail "the unsigned URL answered $status"
  [ "$(curl -s "http://127.0.0.1:$port/health")" = '{"status":"ok"}' ] || fail "/health"
  kill -TERM "$pid"; wait "$pid" || true
  say "$(basename "$root"): cropkit serve as $user answered a signed URL with a $(stat -c %s "$work/answer.jpg")-byte JPEG, the unsigned one with 403, /health ok"
}

say "clean root: $(chroot "$root" /usr/bin/cropkit --version)"
chroot "$root" sh -c 'cd /tmp && /usr/bin/cropkit demo' >"$work/demo.log" 2>&1 || { cat "$work/demo.log" >&2; fail "cropkit demo"; }
written="$(ls "$root/tmp/cropkit-demo" | wc -l)"
[ "$written" -ge 8 ] || { cat "$work/demo.log" >&2; fail "cropkit demo wrote $written files"; }
say "clean root: cropkit demo wrote $written files ($(tail -1 "$work/demo.log"))"
serve_check "$root" root /usr/share/cropkit/CropKit_CropSamples.resources/Samples waterfall-orientation6.jpg
# The web component ships as static files beside the resources, the committed module byte for byte.
for file in cropkit-cropper.js cropkit-draw.js cropkit-engine.js cropkit-engine.wasm; do
  cmp -s "$root/usr/share/cropkit/web/$file" "Sources/CropEditor/Resources/web/$file" \
    || fail "/usr/share/cropkit/web/$file is missing or not the repository's"
done
say "clean root: /usr/share/cropkit/web/ holds <cropkit-cropper> and the engine ($(stat -c %s "$root/usr/share/cropkit/web/cropkit-engine.wasm")-byte module)"

# docs/deploy.md's systemd steps, as the page writes them (scripts/run-examples --print-clean-root), run as root in
# the clean root from a copy of deploy/. What the root lacks is stood in for: deploy/build-static.sh prints the
# static binary this test was given (its resources beside it); sudo runs the command; openssl's `rand -hex N` reads
# /dev/urandom; systemctl (no systemd runs in a chroot) starts each enabled unit's ExecStart as its User and Group
# (setpriv), with %i replaced. Then each instance must answer a URL signed with the key the steps wrote, run as the
# cropkit user, and stop on SIGTERM.
static="$(cd "$(dirname "${binary[1]:-$(deploy/build-static.sh)}")" && pwd -P)"
src="$root/opt/cropkit-src" stubs="$root/opt/stubs"
mkdir -p "$src/deploy" "$root/opt/cropkit-build" "$stubs"
cp deploy/cropkit-serve@.service "$src/deploy/"
cp -R "$static/cropkit" "$static/cropkit-server" "$static"/*.resources "$root/opt/cropkit-build/"
printf '#!/bin/sh\necho /opt/cropkit-build/cropkit\n' >"$src/deploy/build-static.sh"
printf '#!/bin/sh\nexec "$@"\n' >"$stubs/sudo"
printf '#!/bin/sh\n[ "$1 $2" = "rand -hex" ] || exit 1\nod -An -tx1 -N"$3" /dev/urandom | tr -d " \\n"; echo\n' \
  >"$stubs/openssl"
cat >"$stubs/systemctl" <<'EOF'
#!/bin/bash
# systemctl daemon-reload | enable --now UNIT@INSTANCE…: starts each unit's ExecStart as its User and Group.
set -euo pipefail
[ "$1" = daemon-reload ] && exit 0
[ "$1 $2" = "enable --now" ] || { echo "systemctl stub: $*" >&2; exit 1; }
shift 2
for unit in "$@"; do
  file="/etc/systemd/system/${unit%@*}@.service" instance="${unit#*@}"
  user="$(sed -n 's/^User=//p' "$file")" group="$(sed -n 's/^Group=//p' "$file")"
  exec_start="$(sed -n 's/^ExecStart=//p' "$file" | sed "s/%i/$instance/g")"
  setpriv --reuid="$user" --regid="$group" --init-groups -- sh -c "exec $exec_start" >"/var/log/$unit.log" 2>&1 &
  echo $! >"/run/$unit.pid"
done
EOF
chmod 755 "$src/deploy/build-static.sh" "$stubs"/*
scripts/run-examples --print-clean-root >"$src/steps.sh"
chroot "$root" env PATH=/opt/stubs:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  bash -euo pipefail -c 'cd /opt/cropkit-src && . ./steps.sh' || fail "docs/deploy.md's systemd steps"
keys="$(chroot "$root" stat -c '%a %U:%G' /etc/cropkit/keys)"  # names from the root's own /etc/group
[ "$keys" = "640 root:cropkit" ] || fail "/etc/cropkit/keys is $keys, not 640 root:cropkit"
cp "$root/usr/share/cropkit/CropKit_CropSamples.resources/Samples/waterfall-orientation6.jpg" "$root/srv/photos/"
key="$(head -1 "$root/etc/cropkit/keys")"
running() { [ -r "/proc/$1/stat" ] && ! grep -q '^[0-9]* ([^)]*) Z' "/proc/$1/stat"; }  # a zombie has stopped
for port in 8081 8082; do
  pid="$(cat "$root/run/cropkit-serve@$port.pid")"
  for _ in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$port/health" && break; sleep 0.1; done
  url="$(chroot "$root" env CROPKIT_SIGNING_KEY="$key" /usr/local/bin/cropkit sign "/img/waterfall-orientation6.jpg?width=200")"
  status="$(curl -s -o "$work/unit.jpg" -w '%{http_code}' "http://127.0.0.1:$port$url")"
  [ "$status" = 200 ] || { cat "$root/var/log/cropkit-serve@$port.log" >&2; fail "cropkit-serve@$port answered $status"; }
  [ "$(stat -c %u "/proc/$pid")" = "$(chroot "$root" id -u cropkit)" ] || fail "cropkit-serve@$port runs as uid $(stat -c %u "/proc/$pid")"
  kill -TERM "$pid"
  for _ in $(seq 1 100); do running "$pid" || break; sleep 0.1; done
  ! running "$pid" || fail "cropkit-serve@$port did not stop on SIGTERM"
  grep -q "cropkit serve" "$root/var/log/cropkit-serve@$port.log" || fail "cropkit-serve@$port logged nothing"
done
say "clean root: docs/deploy.md's systemd steps ran as written; cropkit-serve@8081 and @8082 ran as cropkit, answered a URL signed with /etc/cropkit/keys (640 root:cropkit) and stopped on SIGTERM"

# The image's root filesystem, unpacked from the OCI archive.
image="$work/image"
mkdir -p "$work/oci" "$image"
tar -xf "$oci" -C "$work/oci"
manifest="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["manifests"][0]["digest"].split(":")[1])' "$work/oci/index.json")"
config="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["config"]["digest"].split(":")[1])' "$work/oci/blobs/sha256/$manifest")"
for layer in $(python3 -c 'import json,sys; [print(l["digest"].split(":")[1]) for l in json.load(open(sys.argv[1]))["layers"]]' "$work/oci/blobs/sha256/$manifest"); do
  tar -xf "$work/oci/blobs/sha256/$layer" -C "$image"
done
user="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["config"]["User"])' "$work/oci/blobs/sha256/$config")"
entry="$(python3 -c 'import json,sys; print(" ".join(json.load(open(sys.argv[1]))["config"]["Entrypoint"]))' "$work/oci/blobs/sha256/$config")"
[ "$user" = 10001:10001 ] || fail "the image runs as '$user', not 10001:10001 (cropkit)"
say "image: $(du -sh "$oci" | cut -f1) archive, user $user, entrypoint: $entry"
mount -t proc proc "$image/proc" && mounts+=("$image/proc")
cp "$root/usr/share/cropkit/CropKit_CropSamples.resources/Samples/waterfall-orientation6.jpg" "$image/srv/images/"
serve_check "$image" "$user" /srv/images waterfall-orientation6.jpg
say "passed"
