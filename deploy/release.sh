#!/usr/bin/env bash
# Makes the release artifacts of `cropkit`, for people who do not build Swift, in dist/:
#   cropkit-VERSION-linux-x86_64.tar.gz   bin/cropkit and bin/cropkit-server (serve, edit, sign; Swift runtime linked
#                                         into both), share/cropkit/ (resources; web/: <cropkit-cropper> and the
#                                         crop engine's WebAssembly module, to serve as static files),
#                                         share/doc/cropkit/ (licences, changelog, README), share/man/man1/cropkit.1
#   cropkit_VERSION_amd64.deb             the same as a Debian package: Depends name every library it links or opens
#   cropkit-serve-VERSION.oci.tar         (with --image) an OCI image of `cropkit serve`: a Debian 12 minbase root
#                                         made by debootstrap with the .deb installed by apt (no base image pulled),
#                                         running as the user cropkit, with /health and /ready for the probes of
#                                         deploy/kubernetes/cropkit.yaml (OCI images carry no health check)
#
#   deploy/release.sh [--binary PATH] [--image] [--out DIR]
#
# --binary takes a cropkit already built with the Swift runtime linked in (--static-swift-stdlib; its resource bundles
# beside it); by default deploy/build-static.sh builds the release binary. CROPKIT_DEB_COMPRESSION=gzip packs the .deb
# faster than xz (CI). With --image, CROPKIT_IMAGE_ROOT names a clean root (deploy/clean-root.sh) to build the image
# from instead of making one, and CROPKIT_KEEP_CLEAN_ROOT names a folder to copy the clean root it makes into, before
# the image's user is added (deploy/clean-root-test.sh tests the .deb there). Prints each artifact with its size.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"
binary="" image=0 out="$repo/dist"
while [ $# -gt 0 ]; do
  case "$1" in
    --binary) binary="$2"; shift 2 ;;
    --image) image=1; shift ;;
    --out) out="$2"; shift 2 ;;
    *) echo "release: unknown argument $1" >&2; exit 64 ;;
  esac
done
version="$(sed -n 's/.*static let version = "\(.*\)".*/\1/p' Sources/CropKit/CropKitRelease.swift)"
[ -n "$version" ] || { echo "release: no version in Sources/CropKit/CropKitRelease.swift" >&2; exit 1; }
deb_version="${version/-/\~}"  # Debian orders 0.10.0~dev before 0.10.0, as semantic versioning orders -dev
# The page's engine ships as committed; a release never carries a module its sources no longer build. CI's own wasm
# step checks the same (.ci/run), so its clean-root step sets CROPKIT_WASM_CHECKED=1 to skip a second 30 s build.
[ "${CROPKIT_WASM_CHECKED:-}" = 1 ] || scripts/build-wasm --check >&2
[ -n "$binary" ] || binary="$(deploy/build-static.sh)"
binary="$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")"
[ -x "$binary" ] || { echo "release: $binary is not an executable" >&2; exit 1; }
server="$(dirname "$binary")/cropkit-server"
[ -x "$server" ] || { echo "release: cropkit-server is not beside $binary" >&2; exit 1; }
"$binary" --version | grep -qx "cropkit $version" || { echo "release: $binary is not cropkit $version" >&2; exit 1; }
mkdir -p "$out"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The tree both artifacts hold, under a prefix: bin/, share/cropkit/, share/doc/cropkit/, share/man/man1/.
stage() {  # stage PREFIX
  local prefix="$1"
  mkdir -p "$prefix/bin" "$prefix/share/cropkit" "$prefix/share/doc/cropkit" "$prefix/share/man/man1"
  install -m 755 "$binary" "$prefix/bin/cropkit"
  install -m 755 "$server" "$prefix/bin/cropkit-server"
  strip --strip-debug "$prefix/bin/cropkit" "$prefix/bin/cropkit-server"  # symbols stay (backtraces name functions)
  for bundle in CropKit_CropSamples.resources CropKit_CropEditor.resources; do
    [ -d "$(dirname "$binary")/$bundle" ] || { echo "release: $bundle is not beside $binary" >&2; exit 1; }
    cp -R "$(dirname "$binary")/$bundle" "$prefix/share/cropkit/"
  done
  # The drop-in web component and the crop engine, for a site to serve as static files (docs/web-component.md).
  mkdir -p "$prefix/share/cropkit/web"
  install -m 644 Sources/CropEditor/Resources/web/cropkit-cropper.js Sources/CropEditor/Resources/web/cropkit-draw.js \
    Sources/CropEditor/Resources/web/cropkit-engine.js Sources/CropEditor/Resources/web/cropkit-engine.wasm \
    "$prefix/share/cropkit/web/"
  chmod -R u=rwX,go=rX "$prefix/share/cropkit"
  install -m 644 LICENSE NOTICE THIRD_PARTY_NOTICES.md CHANGELOG.md README.md "$prefix/share/doc/cropkit/"
  python3 deploy/manpage.py "$prefix/bin/cropkit" "$version" >"$prefix/share/man/man1/cropkit.1"
}

# 1. The tarball.
name="cropkit-$version-linux-x86_64"
stage "$work/$name"
tarball="$out/$name.tar.gz"
tar -C "$work" --owner=0 --group=0 -czf "$tarball" "$name"

# 2. The Debian package. The libraries: linked (glibc, libstdc++, libjpeg-turbo, libpng, zlib), and opened at run time
# (libwebp, libheif with its HEVC and AV1 codecs, libavif, giflib, libtiff, Little CMS); Ghostscript's default CMYK
# profile is recommended (CMYK files that embed no profile).
deb="$work/deb"
stage "$deb/usr"
mv "$deb/usr/share/doc/cropkit/LICENSE" "$deb/usr/share/doc/cropkit/copyright"
gzip -9n "$deb/usr/share/doc/cropkit/CHANGELOG.md" "$deb/usr/share/man/man1/cropkit.1"
mkdir -p "$deb/DEBIAN"
size_kb=$(du -sk "$deb/usr" | cut -f1)
cat >"$deb/DEBIAN/control" <<EOF
Package: cropkit
Version: $deb_version
Architecture: amd64
Maintainer: CropKit <cropkit@users.noreply.github.com>
Installed-Size: $size_kb
Depends: libc6 (>= 2.36), libstdc++6 (>= 12), libgcc-s1, libjpeg62-turbo (>= 1:2.1), libpng16-16 (>= 1.6.39), zlib1g, libwebp7, libheif1 (>= 1.15), libavif15, libgif7, libtiff6, liblcms2-2, libjxl0.7, libopenjp2-7, libfreetype6, libharfbuzz0b
Recommends: libgs-common
Section: graphics
Priority: optional
Homepage: https://github.com/cropkit/cropkit
Description: crop, straighten, rotate and resize photos; image service and crop editor
 cropkit crops, straightens, rotates and resizes photos with the right EXIF
 orientation at full resolution, reads JPEG, PNG, WebP, HEIF/HEIC, AVIF, GIF and
 TIFF and writes JPEG, PNG, WebP, AVIF and HEIC. "cropkit serve" is an image
 service with signed URLs; "cropkit edit" a crop editor in the browser.
EOF
debfile="$out/cropkit_${deb_version}_amd64.deb"
dpkg-deb --root-owner-group -Z"${CROPKIT_DEB_COMPRESSION:-xz}" --build "$deb" "$debfile" >/dev/null

# 3. The OCI image of `cropkit serve`.
if [ "$image" = 1 ]; then
  root="$work/root"
  if [ -n "${CROPKIT_IMAGE_ROOT:-}" ]; then
    cp -a "$CROPKIT_IMAGE_ROOT" "$root"
  else
    deploy/clean-root.sh "$root" "$debfile" >&2
    [ -z "${CROPKIT_KEEP_CLEAN_ROOT:-}" ] || cp -a "$root" "$CROPKIT_KEEP_CLEAN_ROOT"
  fi
  # A fixed, numeric user and group (10001), so Kubernetes can check runAsNonRoot without resolving a name.
  chroot "$root" groupadd --system --gid 10001 cropkit
  chroot "$root" useradd --system --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent \
    --shell /usr/sbin/nologin cropkit
  mkdir -p "$root/srv/images"
  rm -rf "$root/var/lib/apt/lists/"* "$root/var/cache/apt/"*.bin
  imagefile="$out/cropkit-serve-$version.oci.tar"
  rm -f "$imagefile"
  container=$(buildah --storage-driver vfs from scratch)
  buildah --storage-driver vfs copy "$container" "$root" / >/dev/null
  buildah --storage-driver vfs config --user 10001:10001 --workingdir /srv --port 8080 \
    --env CROPKIT_SIGNING_KEY= --label org.opencontainers.image.version="$version" \
    --label org.opencontainers.image.licenses=Apache-2.0 \
    --entrypoint '["/usr/bin/cropkit", "serve", "--host", "0.0.0.0", "--port", "8080", "--root", "/srv/images"]' \
    "$container"
  buildah --storage-driver vfs commit --format oci "$container" "cropkit-serve:$version" >/dev/null
  buildah --storage-driver vfs push "cropkit-serve:$version" "oci-archive:$imagefile:cropkit-serve:$version" >/dev/null
  buildah --storage-driver vfs rm "$container" >/dev/null
fi

for artifact in "$tarball" "$debfile" ${imagefile:+"$imagefile"}; do
  echo "release: $(basename "$artifact") $(du -h "$artifact" | cut -f1)"
done
