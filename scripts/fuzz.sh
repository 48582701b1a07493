#!/usr/bin/env bash
# Runs every libFuzzer harness (tests/fuzz: fen, move, pgn, epd, uci), as many at once as
# there are cores, from the seed corpus and the regression inputs in tests/fuzz. Builds
# them first in build-fuzz with clang (CHESSHPC_FUZZ=ON). Inputs the fuzzer adds go to
# build-fuzz/corpus/HARNESS, never into the repository; an input that crashes is saved in
# build-fuzz/crashes/HARNESS and the script exits 1 naming it: fix the bug, then add the
# input to tests/fuzz/regressions/HARNESS, which test_fuzz_inputs replays in every build.
#
# Two modes:
# - SECONDS: each harness for that long from a random seed, to explore (run it for
#   minutes before a change to a parser lands).
# - --fixed: what CI runs. Each harness a fixed number of inputs (FIXED_RUNS, 15 to 35 s
#   each on CI's machine) from seed 1, so that a clean clone always tries the same inputs
#   and CI's verdict is the same on every run of one commit: a random find would turn CI
#   red on a commit that did not cause it.
# usage: scripts/fuzz.sh [SECONDS | --fixed]   (default 60)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
seconds=${1:-60}
build=$root/build-fuzz
harnesses=(fen move pgn epd uci)
declare -A FIXED_RUNS=([fen]=1000000 [move]=300000 [pgn]=300000 [epd]=150000 [uci]=2000)
[[ $seconds == --fixed || $seconds =~ ^[1-9][0-9]*$ ]] \
  || { echo "fuzz.sh: give SECONDS (a whole number above 0) or --fixed, not '$seconds'" >&2; exit 2; }
command -v clang++ >/dev/null || { echo "fuzz.sh: clang++ not found; run bash scripts/setup.sh" >&2; exit 2; }

cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DCHESSHPC_FUZZ=ON
cmake --build "$build" -j"$(nproc)" --target "${harnesses[@]/#/fuzz_}"

# One harness: its log in build-fuzz/logs; prints one line, returns 1 on a crash.
fuzz_one() {
  local h=$1 inputs=("$root/tests/fuzz/corpus/$1")
  [[ -d $root/tests/fuzz/regressions/$h ]] && inputs+=("$root/tests/fuzz/regressions/$h")
  mkdir -p "$build/corpus/$h" "$build/crashes/$h" "$build/logs"
  local log=$build/logs/$h.log
  local budget=(-max_total_time="$seconds")
  [[ $seconds == --fixed ]] && budget=(-runs="${FIXED_RUNS[$h]}" -seed=1)
  if "$build/tests/fuzz/fuzz_$h" "${budget[@]}" -timeout=20 -max_len=4096 \
      -artifact_prefix="$build/crashes/$h/" "$build/corpus/$h" "${inputs[@]}" >"$log" 2>&1; then
    echo "fuzz_$h: $(grep -o 'Done [0-9]* runs in [0-9]* second(s)' "$log" | tail -1), no crash"
  else
    echo "fuzz_$h: FAILED; input saved as $(ls -t "$build/crashes/$h" | head -1); last lines of $log:"
    tail -n 30 "$log"
    return 1
  fi
}

status=0
running=0
for h in "${harnesses[@]}"; do
  if ((running == $(nproc))); then
    wait -n || status=1
    ((running--))
  fi
  fuzz_one "$h" &
  ((++running))
done
for ((; running > 0; running--)); do wait -n || status=1; done
exit "$status"
