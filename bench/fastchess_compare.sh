#!/usr/bin/env bash
# fastchess's command line run unchanged by fastchess and by chesshpc selfplay (binary name
# aside), on the same deterministic games: two Stockfish processes at fixed nodes
# (Threads=1), fixed EPD openings in order, -concurrency 1, -srand fixed, fishtest's
# adjudication and an SPRT. Prints what differs: the commands each engine was sent, each
# game's PGN tags, moves, scores and depths, and the per-engine summary (W/D/L, points,
# pentanomial, Elo, nElo, LOS, LLR). What cannot agree is named and left out: the times
# (each move's, the game's), fastchess's own tags (Event, Site, EngineWhiteName..., ECO,
# Opening) and chesshpc's (TerminationDetail, Opening as the FEN), Round
# (fastchess's counts game pairs, chesshpc's games), the nodes in a move's comment
# (fastchess's: of the info line with the score; chesshpc's: the search's, counted apart), the
# layout of the movetext and comments; of the commands, the isready pings and the stop before
# quit that fastchess sends, its setoption lines again before every game, and the times left
# on the clocks (each program measures the moves' times itself).
# Exit 0 when nothing else differs, 1 when something does, 2 on bad usage.
set -euo pipefail

usage() {
  cat <<USAGE
usage: bench/fastchess_compare.sh CHESSHPC [FASTCHESS] [options]
  CHESSHPC     the chesshpc binary
  FASTCHESS    the fastchess binary; left out: fastchess is cloned (FASTCHESS_SRC, default
               its GitHub repository) and built with make in a temporary folder
  --stockfish S  the engine of both sides (default: stockfish on PATH, else /usr/games/stockfish)
  --rounds N   openings, each a game pair (default: 8, at most the book's 8)
  --nodes N    nodes per move of Engine1, half of it Engine2's (default: 5000)
  --dir DIR    where the book, games and logs go (default: a temporary folder, removed)
USAGE
}

fail() {
  echo "bench/fastchess_compare.sh: $1" >&2
  exit "${2:-2}"
}

[[ ${1-} == -h || ${1-} == --help ]] && { usage; exit 0; }
(($# >= 1)) || { usage >&2; exit 2; }
chesshpc=$1
shift
fastchess=""
if (($#)) && [[ $1 != --* ]]; then fastchess=$1 && shift; fi
stockfish=$(command -v stockfish || echo /usr/games/stockfish) rounds=8 nodes=5000 dir=""
while (($#)); do
  case $1 in
    --stockfish) stockfish=${2-} ;;
    --rounds) rounds=${2-} ;;
    --nodes) nodes=${2-} ;;
    --dir) dir=${2-} ;;
    *) fail "unknown option '$1' (see --help)" ;;
  esac
  (($# >= 2)) || fail "$1 needs a value"
  shift 2
done
[[ $rounds =~ ^[1-8]$ ]] || fail "--rounds: '$rounds' is not a whole number from 1 to 8"
[[ $nodes =~ ^[1-9][0-9]*$ && $nodes -ge 2 ]] || fail "--nodes: '$nodes' is not a whole number >= 2"
[[ -x $chesshpc ]] || fail "no chesshpc at '$chesshpc'"
[[ -x $stockfish ]] || fail "no engine at '$stockfish'"
chesshpc=$(cd "$(dirname "$chesshpc")" && pwd)/$(basename "$chesshpc")

if [[ -z $dir ]]; then
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' EXIT
fi
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

if [[ -z $fastchess ]]; then
  src=${FASTCHESS_SRC:-https://github.com/Disservin/fastchess.git}
  echo "building fastchess from $src in $dir/fastchess-src" >&2
  git clone -q --depth 1 "$src" "$dir/fastchess-src" || fail "cannot clone fastchess from '$src'" 1
  make -C "$dir/fastchess-src" -j2 >"$dir/fastchess-build.log" 2>&1 || fail "fastchess did not build (see $dir/fastchess-build.log)" 1
  fastchess=$dir/fastchess-src/fastchess
fi
[[ -x $fastchess ]] || fail "no fastchess at '$fastchess'"

# Eight balanced openings, each a game pair, colours swapped.
cat >"$dir/book.epd" <<'EPD'
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1
rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1
rnbqkb1r/pppppppp/5n2/8/2P5/8/PP1PPPPP/RNBQKBNR w KQkq - 1 2
r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3
rnbqkb1r/pp1ppppp/5n2/2p5/2P5/5N2/PP1PPPPP/RNBQKB1R w KQkq - 2 3
rnbqkbnr/pp2pppp/2p5/3p4/3PP3/8/PPP2PPP/RNBQKBNR w KQkq - 0 3
rnbqkb1r/pppp1ppp/4pn2/8/2PP4/8/PP2PPPP/RNBQKBNR w KQkq - 0 3
rnbqkbnr/ppp2ppp/4p3/3p4/3PP3/8/PPP2PPP/RNBQKBNR w KQkq - 0 3
EPD

# Each side's engine: Stockfish behind a logger of every command it is sent, a file per
# process, its input ended at quit.
for tool in fastchess chesshpc; do
  mkdir -p "$dir/$tool"
  for side in 1 2; do
    cat >"$dir/$tool/engine$side.sh" <<ENGINE
#!/bin/sh
while IFS= read -r line; do
  printf '%s\n' "\$line" >>"$dir/$tool/sent$side.\$\$"
  printf '%s\n' "\$line"
  [ "\$line" = quit ] && break
done | exec "$stockfish"
ENGINE
    chmod +x "$dir/$tool/engine$side.sh"
  done
done

# The command line, as fastchess's man page writes its second example (one engine per
# side, nodes per move beside a clock of 300+5, the second engine half the first's, fishtest's adjudication, an SPRT, the PGN with nodes).
args=(-engine cmd=./engine1.sh name=Engine1 option.Threads=1 nodes="$nodes"
  -engine cmd=./engine2.sh name=Engine2 option.Threads=1 nodes="$((nodes / 2))"
  -openings file=../book.epd format=epd order=sequential -srand 7
  -each tc=300+5 option.Hash=16 -resign movecount=3 score=600 -draw movenumber=34 movecount=8 score=20
  -sprt elo0=0 elo1=2 alpha=0.05 beta=0.05
  -rounds "$rounds" -concurrency 1 -pgnout notation=san nodes=true file=games.pgn)
echo "both run: ${args[*]}" >&2
(cd "$dir/fastchess" && "$fastchess" "${args[@]}" >out.txt 2>&1) || fail "fastchess failed (see $dir/fastchess/out.txt)" 1
(cd "$dir/chesshpc" && "$chesshpc" selfplay "${args[@]}" --quiet >out.txt 2>&1) ||
  fail "chesshpc failed (see $dir/chesshpc/out.txt)" 1

differences=0
# The commands each side's engine was sent, by the process that played (one that never got
# a go was a probe), without isready (fastchess pings between moves) or the stop fastchess
# sends before quit, and the setoption lines once each, in name order (fastchess sends them
# again before every game, in an order of its own); the clocks' times left (wtime, btime)
# as T: they are each program's own measure of the moves' times (and fastchess's clock
# starts at base + increment, chesshpc's at base).
for side in 1 2; do
  for tool in fastchess chesshpc; do
    for f in "$dir/$tool"/sent$side.*; do
      grep -q '^go ' "$f" || continue
      { grep '^setoption' "$f" | sort -u; grep -v '^setoption\|^isready$\|^stop$' "$f" |
        sed -E 's/ (wtime|btime) [0-9]+/ \1 T/g'; } >"$dir/$tool.sent$side"
    done
  done
  if ! diff -q "$dir/fastchess.sent$side" "$dir/chesshpc.sent$side" >/dev/null; then
    echo "Engine$side's commands differ:"
    diff "$dir/fastchess.sent$side" "$dir/chesshpc.sent$side" | sed -n 1,20p || true
    differences=1
  else
    echo "Engine$side's commands: the same ($(grep -c '^go ' "$dir/chesshpc.sent$side") go, $(grep -c '^ucinewgame' "$dir/chesshpc.sent$side") ucinewgame)"
  fi
done

# The summary: fastchess's last block between its dashed lines, against chesshpc's.
summary() {
  awk -v dashes="$(printf -- '-%.0s' {1..50})" '$0 == dashes { if (on) { last = block; on = 0 } else { on = 1; block = "" }; next }
    on { block = block $0 "\n" } END { printf "%s", last }' "$1"
}
summary "$dir/fastchess/out.txt" >"$dir/fastchess.summary"
summary "$dir/chesshpc/out.txt" >"$dir/chesshpc.summary"
if diff -q "$dir/fastchess.summary" "$dir/chesshpc.summary" >/dev/null; then
  echo "summary: the same:"
  sed 's/^/  /' "$dir/chesshpc.summary"
else
  echo "summary differs (fastchess <, chesshpc >):"
  diff "$dir/fastchess.summary" "$dir/chesshpc.summary" || true
  differences=1
fi

# The games, tag by tag and move by move.
python3 - "$dir/fastchess/games.pgn" "$dir/chesshpc/games.pgn" <<'PY' || differences=1
import re, sys

# Tags one of the two writes alone, or with a value of its own: times, the tool's names,
# an opening classification, Round (fastchess numbers the game pair, chesshpc the game).
IGNORED = {"Round", "Event", "Site", "GameDuration", "GameStartTime", "GameEndTime", "EngineWhiteName", "EngineWhiteAuthor",
           "EngineBlackName", "EngineBlackAuthor", "ECO", "Opening", "TerminationDetail"}

def games(path):
    text = open(path).read()
    out = []
    for head, body in re.findall(r"((?:\[[^\n]*\]\n)+)\n(.*?)(?=\n\n\[|\Z)", text, re.S):
        tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', head))
        moves = []
        for san, comment in re.findall(r"(?:\d+\.(?:\.\.)?\s*)?([A-Za-z][^\s{}]*)\s*(?:\{([^}]*)\})?", body):
            if re.fullmatch(r"1-0|0-1|1/2-1/2|\*", san):
                continue
            # score/depth, and the nodes as each writes them (fastchess n=N, chesshpc Nn)
            m = re.match(r"\s*([+-]?(?:M?\d+(?:\.\d+)?)|book)(?:/(\d+))?", comment or "")
            nodes = re.search(r"(?:n=(\d+)|\b(\d+)n\b)", comment or "")
            moves.append((san, m.group(1) if m else "", m.group(2) if m else "",
                          (nodes.group(1) or nodes.group(2)) if nodes else ""))
        out.append((tags, moves))
    return out

fc, ch = games(sys.argv[1]), games(sys.argv[2])
bad = 0
if len(fc) != len(ch):
    print(f"games: fastchess {len(fc)}, chesshpc {len(ch)}")
    bad = 1
ignored_seen, node_diffs = set(), 0
for i, ((ft, fm), (ct, cm)) in enumerate(zip(fc, ch), 1):
    for k in sorted(set(ft) | set(ct)):
        if k in IGNORED:
            ignored_seen.add(k)
            continue
        if ft.get(k) != ct.get(k):
            print(f"game {i}: tag {k}: fastchess {ft.get(k)!r}, chesshpc {ct.get(k)!r}")
            bad = 1
    for ply, (f, c) in enumerate(zip(fm, cm)):
        if f[:3] != c[:3]:
            print(f"game {i} ply {ply}: fastchess {f[0]} {{{f[1]}/{f[2]}}}, chesshpc {c[0]} {{{c[1]}/{c[2]}}}")
            bad = 1
            break
        node_diffs += f[3] != c[3]
    if len(fm) != len(cm):
        print(f"game {i}: fastchess {len(fm)} moves, chesshpc {len(cm)}")
        bad = 1
moves = sum(len(m) for _, m in ch)
print(f"games: {len(ch)} of {len(fc)}, {moves} moves: " + ("tags, moves, scores and depths the same" if not bad else "differences above"))
print(f"  left out: the tags {', '.join(sorted(ignored_seen))}; each move's time; the layout")
print(f"  nodes in the comments: {node_diffs} of {moves} moves differ (fastchess: the nodes of the line with the score, chesshpc: the search's last)")
sys.exit(bad)
PY
exit $differences
