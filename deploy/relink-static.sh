#!/usr/bin/env bash
# Relinks the cropkit and cropkit-server that a plain `swift build` made with the Swift runtime and Foundation linked
# in, into OUT (with their resource bundles), without touching the build: the objects are the build's own (each
# product's Objects.LinkFileList), the static runtime's libraries are the ones the toolchain names for a
# `-static-stdlib` object that imports Foundation (swift-autolink-extract on a probe), and the toolchain's lld links.
# `swift build --static-swift-stdlib` in the same build folder instead recompiles some modules with other autolink
# entries, after which neither the static link (undefined ICU symbols) nor the next dynamic one (-lCoreFoundation)
# succeeds. Prints OUT/cropkit.
#
#   deploy/relink-static.sh OUT [BUILD_DIR]      BUILD_DIR: the build's bin folder, .build/debug by default
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:?usage: deploy/relink-static.sh OUT [BUILD_DIR]}"
build="$(cd "${2:-.build/debug}" && pwd -P)"
toolchain="$(dirname "$(command -v swift)")"
mkdir -p "$out"
probe="$(mktemp -d)"
trap 'rm -rf "$probe"' EXIT
printf 'import Foundation\nimport Dispatch\n' >"$probe/probe.swift"
swiftc -static-stdlib -parse-as-library -c "$probe/probe.swift" -o "$probe/probe.o"
mapfile -t runtime < <("$toolchain/swift-autolink-extract" "$probe/probe.o" -o -)
system=(-L/usr/lib/x86_64-linux-gnu $(pkg-config --libs libpng libjpeg) -lstdc++ -lz -lm -ldl)
for product in cropkit cropkit-server; do
  objects="$build/$product.product/Objects.LinkFileList"
  [ -f "$objects" ] || { echo "relink-static: no $objects (run swift build first)" >&2; exit 1; }
  swiftc -emit-executable -static-stdlib -use-ld=lld -o "$out/$product" -module-name "${product//-/_}" \
    -Xlinker --defsym -Xlinker "main=${product//-/_}_main" "@$objects" -L "$build" "${system[@]}" \
    -Xlinker --start-group "${runtime[@]}" -Xlinker --end-group -g
  if ldd "$out/$product" | grep -q libswiftCore; then
    echo "relink-static: $out/$product still links the Swift runtime" >&2; exit 1
  fi
done
for bundle in "$build"/CropKit_*.resources; do
  case "$bundle" in *Tests.resources) continue ;; esac
  rm -rf "$out/$(basename "$bundle")"
  cp -R "$bundle" "$out/"
done
echo "$out/cropkit"
