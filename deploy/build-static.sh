#!/usr/bin/env bash
# Builds `cropkit` and `cropkit-server` (its serve, edit and sign) the way docs/deploy.md installs them, and prints
# cropkit's path, cropkit-server beside it (build output goes to stderr):
# release, with the Swift runtime and Foundation linked in (--static-swift-stdlib: the host needs no Swift
# toolchain, only glibc, libstdc++ and the image libraries), in its own build folder .build-static/. It is linked by
# the toolchain's lld with packed relative relocations (-z pack-relative-relocs, glibc 2.36 or later) and without
# exporting its symbols (--no-export-dynamic): the 3.2 MB of relocations and 1 MB of dynamic symbols that every
# start used to read are gone, and an idle instance is 24.7 MB resident instead of 29.5 MB. Without lld (a toolchain
# that lacks it) it links as SwiftPM does by default.
#
#   deploy/build-static.sh
set -euo pipefail
cd "$(dirname "$0")/.."
build=(swift build -c release --static-swift-stdlib --scratch-path .build-static)
lld="$(dirname "$(command -v swift)")/ld.lld"
if [ -x "$lld" ]; then
  mkdir -p .build-static
  printf '{"schemaVersion": "1.0", "linker": {"path": "%s"}}\n' "$lld" >.build-static/lld-toolset.json
  build+=(--toolset .build-static/lld-toolset.json -Xlinker -z -Xlinker pack-relative-relocs
    -Xlinker --no-export-dynamic)
fi
"${build[@]}" --product cropkit >&2
"${build[@]}" --product cropkit-server >&2
echo "$("${build[@]}" --show-bin-path)/cropkit"
