#!/usr/bin/env bash
# `chesshpc convert` against nnue-pytorch's converters (bench/nnue_pytorch_driver.cpp,
# built by hand as bench/README.md, "export", says), in the same run, for every pair the
# anchor has (plain, bin and binpack, each way), with and without validation; then a
# shuffle of a bin file four times --memory, with its bytes read and written a record.
# Makes a selfplay dataset and exports it as plain, bin and binpack first; nothing is
# built here.
set -euo pipefail

usage() {
  cat <<USAGE
usage: bench/convert_anchor.sh CHESSHPC DRIVER [--runs N] [--dir DIR] [--games G] [--memory MB]
  --runs N     timed runs of each command after a warm-up (default 5), A and B in turn
  --dir DIR    where the files go (default convert-anchor)
  --games G    selfplay games of the dataset (default 1000, 200 nodes a move)
  --memory MB  the shuffle's --memory; the shuffled file is 4 times it (default 16)
Prints, per pair, the median CPU (user + system) of A (chesshpc convert) and B (the
anchor), the median of the runs' A/B ratios and their spread, then the shuffle's line.
USAGE
}
[[ ${1-} == -h || ${1-} == --help ]] && { usage; exit 0; }
(($# >= 2)) || { usage >&2; exit 2; }
chesshpc=$1 driver=$2
shift 2
runs=5 dir=convert-anchor games=1000 memory=16
while (($#)); do
  (($# >= 2)) || { echo "bench/convert_anchor.sh: $1 needs a value" >&2; exit 2; }
  case $1 in
    --runs) runs=$2 ;; --dir) dir=$2 ;; --games) games=$2 ;; --memory) memory=$2 ;;
    *) echo "bench/convert_anchor.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
  shift 2
done
mkdir -p "$dir"
[[ -f $dir/d.h5 ]] || "$chesshpc" selfplay --games "$games" --nodes 200 --random-plies 4 --threads 2 --quiet --out "$dir/d.h5"
for f in plain bin binpack; do "$chesshpc" export --format "$f" "$dir/d.h5" --out "$dir/d.$f" --force 2>/dev/null; done

# CPU seconds (user + system) of one command.
cpu() {
  /usr/bin/time -f "%U %S" -o "$dir/time" "$@" > /dev/null 2>&1
  awk '{ printf "%.3f\n", $1 + $2 }' "$dir/time"
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

printf "%-16s %-9s %9s %9s %8s %13s\n" pair validate "A cpu s" "B cpu s" "A/B" "A/B min-max"
for pair in plain:bin bin:plain bin:binpack binpack:bin plain:binpack binpack:plain; do
  from=${pair%:*} to=${pair#*:}
  for validate in no yes; do
    a_flag=() b_flag=()
    [[ $validate == yes ]] && a_flag=(--validate) b_flag=(validate)
    a=(cpu "$chesshpc" convert "$dir/d.$from" "$dir/a.$to" --force --quiet "${a_flag[@]}")
    b=(cpu "$driver" "${from}2${to}" "$dir/d.$from" "$dir/b.$to" "${b_flag[@]}")
    "${a[@]}" > /dev/null && "${b[@]}" > /dev/null  # warm-up
    : > "$dir/a" && : > "$dir/b" && : > "$dir/r"
    for ((i = 0; i < runs; i++)); do
      if ((i % 2)); then tb=$("${b[@]}") ta=$("${a[@]}"); else ta=$("${a[@]}") tb=$("${b[@]}"); fi
      echo "$ta" >> "$dir/a" && echo "$tb" >> "$dir/b"
      awk -v a="$ta" -v b="$tb" 'BEGIN { printf "%.3f\n", (b > 0 ? a / b : 0) }' >> "$dir/r"
    done
    printf "%-16s %-9s %9s %9s %8s %6s-%-6s\n" "$from -> $to" "$validate" "$(median < "$dir/a")" \
      "$(median < "$dir/b")" "$(median < "$dir/r")" "$(sort -g "$dir/r" | head -1)" "$(sort -g "$dir/r" | tail -1)"
  done
done
echo "positions: $(( $(stat -c %s "$dir/d.bin") / 40 ))"

# The shuffle: a bin file of 4 x --memory (copies of the dataset's), shuffled in runs.
bytes=$((4 * memory * 1048576))
: > "$dir/big.bin"
while (($(stat -c %s "$dir/big.bin") < bytes)); do cat "$dir/d.bin" >> "$dir/big.bin"; done
truncate -s $((bytes / 40 * 40)) "$dir/big.bin"  # whole 40-byte records
/usr/bin/time -f "shuffle: %U s user, %S s system, %e s wall, %M KB peak" \
  "$chesshpc" shuffle "$dir/big.bin" "$dir/shuffled.bin" --memory "$memory" --seed 1 --force --quiet
