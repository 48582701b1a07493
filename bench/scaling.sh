#!/usr/bin/env bash
# Scaling sweep of `chesshpc bench`: threads 1, 2, 4, ... and T on one rank, then ranks
# 1, 2, 4, ... and R under mpirun with one thread each, one result file per point:
# DIR/bench-r{ranks}-t{threads}.h5. Prints the command that draws the report.
set -euo pipefail

usage() {
  cat <<USAGE
usage: bench/scaling.sh [--suite standard|quick] [--threads T] [--ranks R] [--dir DIR]
                        [--repeats N] [--stockfish PATH|none] [--binary PATH]
  --suite      the bench suite (default: standard)
  --threads T  the largest thread count of the thread sweep (default: nproc, $(nproc) here)
  --ranks R    the largest rank count of the rank sweep (default: nproc); ranks beyond
               the cores are oversubscribed
  --dir DIR    where the result files go (default: bench-scaling)
  --repeats N  repeats of each measurement (default: 3)
  --stockfish  passed to chesshpc bench (default: /usr/games/stockfish when it exists)
  --binary     the chesshpc to run (default: build/cluster/chesshpc)
  MPIRUN (environment) is the launcher (default: mpirun).
USAGE
}

suite=standard threads=$(nproc) ranks=$(nproc) dir=bench-scaling repeats=3 stockfish=() binary=build/cluster/chesshpc
while (($#)); do
  case $1 in
    --suite) suite=$2 ;;
    --threads) threads=$2 ;;
    --ranks) ranks=$2 ;;
    --dir) dir=$2 ;;
    --repeats) repeats=$2 ;;
    --stockfish) stockfish=(--stockfish "$2") ;;
    --binary) binary=$2 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "bench/scaling.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
  esac
  (($# >= 2)) || { echo "bench/scaling.sh: $1 needs a value" >&2; exit 2; }
  shift 2
done
for n in "$threads" "$ranks" "$repeats"; do
  [[ $n =~ ^[1-9][0-9]*$ ]] || { echo "bench/scaling.sh: '$n' is not a whole number >= 1" >&2; exit 2; }
done
[[ -x $binary ]] || { echo "bench/scaling.sh: no chesshpc at '$binary' (build it, or give --binary)" >&2; exit 2; }

# 1, 2, 4, ... below n, then n itself.
points() {
  local v=1
  while ((v < $1)); do echo "$v"; v=$((v * 2)); done
  echo "$1"
}

mkdir -p "$dir"
common=(bench --suite "$suite" --repeats "$repeats" "${stockfish[@]}")
for t in $(points "$threads"); do
  echo "== 1 rank, $t thread(s)" >&2
  "$binary" "${common[@]}" --threads "$t" --out "$dir/bench-r1-t$t.h5"
done
cores=$(nproc)
for r in $(points "$ranks"); do
  ((r > 1)) || continue  # 1 rank, 1 thread is the thread sweep's first point
  echo "== $r ranks, 1 thread each" >&2
  over=()
  ((r <= cores)) || over=(--oversubscribe)
  # Not bound: rank 0 serves the others from a second thread beside its own counting.
  "${MPIRUN:-mpirun}" -np "$r" "${over[@]}" --bind-to none "$binary" "${common[@]}" --threads 1 \
    --out "$dir/bench-r$r-t1.h5"
done
echo "draw the report with:"
echo "  analysis/chesshpc-report $dir/*.h5"
