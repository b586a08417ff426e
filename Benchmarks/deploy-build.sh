# Sourced by the service benchmarks: builds `cropkit` the way docs/deploy.md installs it (deploy/build-static.sh:
# release, the Swift runtime and Foundation linked statically, in its own build folder .build-static/) and sets
# $cropkit to it. CROPKIT_BUILD=dynamic measures the default release build instead.
if [ "${CROPKIT_BUILD:-static}" = dynamic ]; then
  swift build -c release --product cropkit >/dev/null
  cropkit="$(swift build -c release --show-bin-path)/cropkit"
else
  cropkit="$(deploy/build-static.sh 2>/dev/null)"
fi
