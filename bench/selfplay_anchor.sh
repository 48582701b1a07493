#!/usr/bin/env bash
# chesshpc selfplay's speed against an anchor in the same run: Stockfish against
# Stockfish at fixed nodes, the same games played by fastchess and by chesshpc selfplay,
# both from one EPD book (data/openings.txt's 100 lines as positions, each opening a game
# pair, colours swapped), at concurrency 1 and 2 (fastchess -concurrency, chesshpc
# --threads) and chesshpc on 2 MPI ranks; then chesshpc's built-in search against the same
# batch played by Stockfish on both sides at the same node budget. Every configuration
# runs --runs times, interleaved, timed from launch to exit; the summary gives medians,
# the spread and the ratio chesshpc/fastchess, and the load average before and after.
set -euo pipefail

usage() {
  cat <<USAGE
usage: bench/selfplay_anchor.sh CHESSHPC FASTCHESS|none STOCKFISH [options]
  CHESSHPC     the chesshpc binary
  FASTCHESS    the fastchess binary, or none (chesshpc's rows alone)
  STOCKFISH    the UCI engine both sides run (Threads=1, Hash=16)
  --games N    games of each anchor match (default: 100)
  --nodes "A B"  node limits of the anchor matches (default: "1000 10000")
  --builtin-games N  games of the built-in search against Stockfish-both-sides batch,
               at the first node limit, one thread; 0 leaves it out (default: 200)
  --runs N     runs of each configuration, interleaved (default: 3)
  --dir DIR    where the book, games and logs go (default: a temporary folder, removed)
  MPIRUN (environment) is the launcher (default: mpirun); MPIRUN=none leaves 2 ranks out.
USAGE
}

fail() {
  echo "bench/selfplay_anchor.sh: $1" >&2
  exit "${2:-2}"
}

[[ ${1-} == -h || ${1-} == --help ]] && { usage; exit 0; }
(($# >= 3)) || { usage >&2; exit 2; }
chesshpc=$1 fastchess=$2 stockfish=$3
shift 3
games=100 nodes_list="1000 10000" builtin_games=200 runs=3 dir=""
while (($#)); do
  case $1 in
    --games) games=${2-} ;;
    --nodes) nodes_list=${2-} ;;
    --builtin-games) builtin_games=${2-} ;;
    --runs) runs=${2-} ;;
    --dir) dir=${2-} ;;
    -h | --help) usage; exit 0 ;;
    *) fail "unknown option '$1' (see --help)" ;;
  esac
  (($# >= 2)) || fail "$1 needs a value"
  shift 2
done
for n in "$games" "$runs" $nodes_list; do
  [[ $n =~ ^[1-9][0-9]*$ ]] || fail "'$n' is not a whole number >= 1"
done
[[ -n $nodes_list ]] || fail "--nodes needs at least one node limit"
[[ $builtin_games =~ ^[0-9]+$ ]] || fail "--builtin-games: '$builtin_games' is not a whole number"
((games % 2 == 0)) || fail "--games $games: an even number (game pairs) is needed"
[[ -x $chesshpc ]] || fail "no chesshpc at '$chesshpc'"
[[ $fastchess == none || -x $fastchess ]] || fail "no fastchess at '$fastchess' (give its path, or none)"
[[ -x $stockfish ]] || fail "no engine at '$stockfish'"
mpirun=${MPIRUN:-mpirun}
if [[ $mpirun != none ]] && ! command -v "$mpirun" >/dev/null; then fail "no launcher '$mpirun' (set MPIRUN, or MPIRUN=none)"; fi

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [[ -z $dir ]]; then
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' EXIT
fi
mkdir -p "$dir"

# The shared book: each line of data/openings.txt played out, its position as an EPD line
# (the FEN chesshpc perft prints, clocks included), so that both tools send the engines
# the same `position fen ... moves ...` and play the same games.
book=$dir/openings.epd
: >"$book"
while IFS= read -r line; do
  [[ -z $line || $line == \#* ]] && continue
  fen=$("$chesshpc" perft --moves "$line" --depth 1 --threads 1 | sed -n 's/^perft 1 of //p')
  [[ -n $fen ]] || fail "chesshpc perft printed no FEN for the opening '$line'" 1
  echo "$fen" >>"$book"
done <"$root/data/openings.txt"
openings=$(wc -l <"$book")
((games / 2 <= openings)) || fail "--games $games needs $((games / 2)) openings; the book has $openings"

uci=(option.Threads=1 option.Hash=16)
# One timed run: "SECONDS CPU_SECONDS GAMES PLIES" on stdout, the tool's output in
# $dir/logs. CPU seconds are user + system of the tool and every process it waited for
# (engines, MPI ranks): on a shared machine they hold still while the wall time follows
# the others' load, and with the same games and node limits the engines' share is the
# same in both tools, so the difference is the harness.
mkdir -p "$dir/logs"
timed() {  # LOG COMMAND...: "WALL CPU"
  local log=$1 t TIMEFORMAT='%R %U %S'
  shift
  t=$({ time "$@" >"$log" 2>&1; } 2>&1) || return 1
  awk '{ printf "%s %.3f\n", $1, $2 + $3 }' <<<"$t"
}
run_chesshpc() {  # name launcher-words... -- selfplay arguments...
  local name=$1 launcher=() log=$dir/logs/$1.$run.log t
  shift
  while [[ $1 != -- ]]; do launcher+=("$1"); shift; done
  shift
  t=$(timed "$log" "${launcher[@]}" "$chesshpc" selfplay --book "$book" --book-order sequential --variation 0 \
    --seed 1 --out "$dir/$name.h5" --force --quiet --json "$@") || fail "chesshpc selfplay failed (see $log)" 1
  # The summary JSON is the last line; its games and positions (one per move played).
  local g p
  g=$(tail -n 1 "$log" | sed -n 's/.*"games": *\([0-9]*\).*/\1/p')
  p=$(tail -n 1 "$log" | sed -n 's/.*"positions": *\([0-9]*\).*/\1/p')
  [[ -n $g && -n $p ]] || fail "no games and positions in chesshpc's JSON (see $log)" 1
  echo "$t $g $p"
}
run_fastchess() {  # name nodes concurrency
  local name=$1 log=$dir/logs/$1.$run.log pgn=$dir/$1.pgn t
  rm -f "$pgn"
  t=$(timed "$log" "$fastchess" -engine name=A cmd="$stockfish" -engine name=B cmd="$stockfish" \
    -each nodes="$2" "${uci[@]}" -openings file="$book" format=epd order=sequential \
    -rounds $((games / 2)) -games 2 -concurrency "$3" -pgnout file="$pgn" notation=uci \
    -ratinginterval 0) || fail "fastchess failed (see $log)" 1
  local g p
  g=$(grep -c '^\[PlyCount ' "$pgn" || true)
  p=$(sed -n 's/^\[PlyCount "\([0-9]*\)"\]/\1/p' "$pgn" | awk '{s += $1} END {print s + 0}')
  ((g == games)) || fail "fastchess wrote $g games, not $games (see $log)" 1
  echo "$t $g $p"
}

# The configurations: NAME TOOL NODES WIDTH (threads, concurrency or ranks x 1 thread).
configs=()
first_nodes=${nodes_list%% *}
for n in $nodes_list; do
  for c in 1 2; do
    [[ $fastchess == none ]] || configs+=("fastchess-n$n-c$c fastchess $n $c")
    configs+=("chesshpc-n$n-t$c chesshpc $n $c")
  done
  [[ $mpirun == none ]] || configs+=("chesshpc-n$n-r2 ranks $n 2")
done
if ((builtin_games > 0)); then
  configs+=("builtin-n$first_nodes-t1 builtin $first_nodes 1" "stockfish-n$first_nodes-t1 stockfish $first_nodes 1")
fi

results=$dir/results.txt  # NAME RUN SECONDS CPU_SECONDS GAMES PLIES
: >"$results"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
for run in $(seq 1 "$runs"); do
  for c in "${configs[@]}"; do
    read -r name tool n w <<<"$c"
    sides=()
    for side in A B; do sides+=(--engine "name=$side" "cmd=uci:$stockfish" "nodes=$n" "${uci[@]}"); done
    case $tool in
      fastchess) r=$(run_fastchess "$name" "$n" "$w") ;;
      chesshpc) r=$(run_chesshpc "$name" -- --games "$games" --threads "$w" "${sides[@]}") ;;
      ranks) r=$(run_chesshpc "$name" "$mpirun" -np 2 --bind-to none -- --games "$games" --threads 1 "${sides[@]}") ;;
      builtin) r=$(run_chesshpc "$name" -- --games "$builtin_games" --threads 1 --nodes "$n") ;;
      stockfish) r=$(run_chesshpc "$name" -- --games "$builtin_games" --threads 1 "${sides[@]}") ;;
    esac
    echo "$name $run $r" >>"$results"
    echo "run $run $name: $r (seconds cpu-seconds games plies)" >&2
  done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

# The summary: per configuration the median wall seconds with the spread, games/s and
# plies/s of the median, CPU milliseconds per ply (median, spread), and beside chesshpc's
# rows (and the built-in search's) the ratios to the anchor's row: plies/s (above 1:
# chesshpc faster) and CPU per ply (below 1: chesshpc cheaper).
awk -v runs="$runs" -v before="$load_before" -v after="$load_after" '
  function sorted(name, key,   i, j, t, n) {  # s[1..n] = the runs'"'"' values of key, ascending
    n = count[name]
    for (i = 1; i <= n; ++i) s[i] = key == "wall" ? wall[name, i] : cpu[name, i] / plies[name] * 1000
    for (i = 2; i <= n; ++i) for (j = i; j > 1 && s[j - 1] > s[j]; --j) { t = s[j]; s[j] = s[j - 1]; s[j - 1] = t }
    return n
  }
  function median(n) { return n % 2 ? s[(n + 1) / 2] : (s[n / 2] + s[n / 2 + 1]) / 2 }
  function anchor_of(name,   a) {
    a = name
    if (a ~ /^chesshpc-/) { sub(/^chesshpc-/, "fastchess-", a); sub(/-t/, "-c", a); sub(/-r2$/, "-c2", a) }
    else if (a ~ /^builtin-/) sub(/^builtin-/, "stockfish-", a)
    else return ""
    return a
  }
  { if (!($1 in count)) order[++names] = $1
    ++count[$1]; wall[$1, count[$1]] = $3; cpu[$1, count[$1]] = $4; games[$1] = $5; plies[$1] = $6 }
  END {
    printf "load average before: %s, after: %s; %d runs each, interleaved\n\n", before, after, runs
    print "| run | games | plies | seconds (median; min-max) | games/s | plies/s | plies/s vs anchor | CPU ms/ply (median; min-max) | CPU/ply vs anchor |"
    print "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
    for (k = 1; k <= names; ++k) {
      name = order[k]
      n = sorted(name, "wall"); med[name] = median(n); wlo[name] = s[1]; whi[name] = s[n]
      n = sorted(name, "cpu"); cmed[name] = median(n); clo[name] = s[1]; chi[name] = s[n]
    }
    for (k = 1; k <= names; ++k) {
      name = order[k]; a = anchor_of(name); r1 = r2 = ""
      if (a in med) {
        r1 = sprintf("%.2f", plies[name] / med[name] / (plies[a] / med[a]))
        r2 = sprintf("%.2f", cmed[name] / cmed[a])
      }
      printf "| %s | %d | %d | %.1f (%.1f-%.1f) | %.2f | %.0f | %s | %.2f (%.2f-%.2f) | %s |\n", name, games[name],
             plies[name], med[name], wlo[name], whi[name], games[name] / med[name], plies[name] / med[name], r1,
             cmed[name], clo[name], chi[name], r2
    }
  }' "$results"
