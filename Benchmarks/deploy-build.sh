# Sourced by the service benchmarks: builds `cropkit` the way docs/deploy.md installs it (release, with the Swift
# runtime and Foundation linked statically, in its own build folder .build-static/) and sets $cropkit to it.
# CROPKIT_BUILD=dynamic measures the default release build instead.
if [ "${CROPKIT_BUILD:-static}" = dynamic ]; then
  deploy_build=(swift build -c release)
else
  deploy_build=(swift build -c release --static-swift-stdlib --scratch-path .build-static)
fi
"${deploy_build[@]}" --product cropkit >/dev/null
cropkit="$("${deploy_build[@]}" --show-bin-path)/cropkit"
