# Shared by the shell benchmarks (source it from the repository root): `bench_setup` checks for GNU time, installs
# libvips (.ci/install-deps bench), builds the release `cropkit` and sets `$cropkit` and a scratch `$work` removed on
# exit; `measure CMD…` runs a command `$runs` times after one warm-up and prints
# "median_seconds median_kilobytes" (wall time and peak RSS from GNU time, into `$work`); `report NAME SECONDS KB`
# prints one aligned line; `compare NAME CROPKIT… -- VIPS…` measures a pair and prints both and their ratios.
# Runs a command once under GNU time and prints "seconds kilobytes": the wall time to the microsecond (GNU time's own
# %e has 10-ms steps, too coarse for the 50-ms commands some benchmarks compare) and the peak RSS.
timed() {
  local start end
  start=$(date +%s%N)
  /usr/bin/time -o "$work/time" -f '%M' "$@" >/dev/null 2>&1
  end=$(date +%s%N)
  printf '%s %s\n' "$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.4f", (e - s) / 1e9 }')" "$(tail -n 1 "$work/time")"
}

# Runs a command `runs` times (after one warm-up) and prints "median_seconds median_kilobytes".
measure() {
  local times=() rss=() line
  "$@" >/dev/null 2>&1
  for _ in $(seq "$runs"); do
    line="$(timed "$@")"
    times+=("${line% *}")
    rss+=("${line#* }")
  done
  printf '%s %s\n' \
    "$(printf '%s\n' "${times[@]}" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')" \
    "$(printf '%s\n' "${rss[@]}" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')"
}

# `measure_pair A… -- B…`: the same for two commands run alternately (A, B, A, B …), so that drift in the machine's
# speed during the run (a shared VM's neighbours) falls on both alike; prints "a_seconds a_kb b_seconds b_kb".
measure_pair() {
  local a=() b=() at=() ar=() bt=() br=() line
  while [ "$1" != "--" ]; do a+=("$1"); shift; done
  shift
  b=("$@")
  "${a[@]}" >/dev/null 2>&1
  "${b[@]}" >/dev/null 2>&1
  for _ in $(seq "$runs"); do
    line="$(timed "${a[@]}")"; at+=("${line% *}"); ar+=("${line#* }")
    line="$(timed "${b[@]}")"; bt+=("${line% *}"); br+=("${line#* }")
  done
  median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
  printf '%s %s %s %s\n' "$(median "${at[@]}")" "$(median "${ar[@]}")" "$(median "${bt[@]}")" "$(median "${br[@]}")"
}

report() {  # name seconds kilobytes
  printf '%-44s %7.3f s %7.1f MB\n' "$1" "$2" "$(awk -v k="$3" 'BEGIN { print k / 1024 }')"
}

# `compare_as NAME LABEL_A LABEL_B A… -- B…`: the pair measured alternately (`measure_pair`), both reported under
# their labels, and A ÷ B for time and memory. `compare NAME A… -- B…` is it for CropKit against vips.
compare_as() {
  local name="$1" la="$2" lb="$3"; shift 3
  read -r ct cr vt vr < <(measure_pair "$@")
  report "$name $la" "$ct" "$cr"
  report "$name $lb" "$vt" "$vr"
  awk -v a="$ct" -v b="$vt" -v c="$cr" -v d="$vr" -v n="$name" -v l="$la/$lb" \
    'BEGIN { printf "%s ratio %s: time %.2f×, peak memory %.2f×\n\n", n, l, a / b, c / d }'
}
compare() { local name="$1"; shift; compare_as "$name" cropkit vips "$@"; }

bench_setup() {
  [ -x /usr/bin/time ] || { echo "GNU time (/usr/bin/time) is needed" >&2; exit 1; }
  .ci/install-deps bench
  swift build -c release --product cropkit >/dev/null
  cropkit="$(swift build -c release --show-bin-path)/cropkit"
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
}
