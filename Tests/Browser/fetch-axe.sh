#!/usr/bin/env bash
# Puts axe-core's axe.min.js (3.1.1, shipped in the axe-selenium-python 2.1.6 wheel on PyPI; the wheel's SHA-256 is
# checked) at $1, default .build/axe/axe.min.js, for the browser test's accessibility audit. Does nothing when the
# file is already there. Needs python3 with pip, and PyPI.
set -euo pipefail
out=${1:-.build/axe/axe.min.js}
[ -s "$out" ] && exit 0
wheel=axe_selenium_python-2.1.6-py2.py3-none-any.whl
sha=21d10014c0bc3c999c1bfab54b9ef6a5d67f200ffca3db3629e0b315b3f1f136
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: -d "$tmp" \
  axe-selenium-python==2.1.6
echo "$sha  $tmp/$wheel" | sha256sum --check --quiet
mkdir -p "$(dirname "$out")"
python3 - "$tmp/$wheel" "$out" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    data = z.read("axe_selenium_python/node_modules/axe-core/axe.min.js")
with open(sys.argv[2] + ".tmp", "wb") as f:
    f.write(data)
PY
mv "$out.tmp" "$out"
echo "fetch-axe: axe-core at $out"
