# Shared by the shell benchmarks: `measure CMD…` runs a command `$runs` times after one warm-up and prints
# "median_seconds median_kilobytes" (wall time and peak RSS from GNU time, into `$work`); `report NAME SECONDS KB`
# prints one aligned line.
# Runs a command `runs` times (after one warm-up) and prints "median_seconds median_kilobytes".
measure() {
  local times=() rss=() line
  "$@" >/dev/null 2>&1
  for _ in $(seq "$runs"); do
    /usr/bin/time -o "$work/time" -f '%e %M' "$@" >/dev/null 2>&1
    line="$(tail -n 1 "$work/time")"
    times+=("${line% *}")
    rss+=("${line#* }")
  done
  printf '%s %s\n' \
    "$(printf '%s\n' "${times[@]}" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')" \
    "$(printf '%s\n' "${rss[@]}" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')"
}

report() {  # name seconds kilobytes
  printf '%-44s %7.3f s %7.1f MB\n' "$1" "$2" "$(awk -v k="$3" 'BEGIN { print k / 1024 }')"
}

