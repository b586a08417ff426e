#!/usr/bin/env bash
# Makes a clean Debian 12 root in ROOT (debootstrap --variant=minbase: no Swift, no compiler, no -dev package) and
# installs DEB into it with apt, which pulls in exactly the libraries the package depends on. Needs root and Debian's
# mirror (CROPKIT_DEBIAN_MIRROR, default http://deb.debian.org/debian). About a minute.
#
#   deploy/clean-root.sh ROOT DEB
set -euo pipefail
root="${1:?usage: deploy/clean-root.sh ROOT DEB}" deb="${2:?usage: deploy/clean-root.sh ROOT DEB}"
mirror="${CROPKIT_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
command -v debootstrap >/dev/null || { echo "clean-root: debootstrap is missing (.ci/install-deps release)" >&2; exit 1; }
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$root.debootstrap.log" 2>&1 \
  || { tail -20 "$root.debootstrap.log" >&2; exit 1; }
rm -f "$root.debootstrap.log"
cp /etc/resolv.conf "$root/etc/resolv.conf"
cp "$deb" "$root/tmp/cropkit.deb"
chroot "$root" apt-get update -qq
DEBIAN_FRONTEND=noninteractive chroot "$root" apt-get install -y -qq --no-install-recommends /tmp/cropkit.deb >/dev/null
rm -f "$root/tmp/cropkit.deb"
chroot "$root" apt-get clean
echo "clean-root: $root: Debian 12 minbase with $(chroot "$root" dpkg-query -W -f '${Package} ${Version}' cropkit)"
