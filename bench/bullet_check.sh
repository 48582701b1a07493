#!/usr/bin/env bash
# chesshpc's bullet and bullet-text exports checked with bullet's own code (bulletformat,
# through bench/bullet_driver.rs; bench/README.md, "bullet's own reader" says how to build
# it). For each variant a seeded selfplay dataset is exported in both formats, then:
#  1. bulletformat's text converter turns the bullet-text file into a .bullet file that must
#     equal chesshpc's .bullet byte for byte;
#  2. each record must equal, field by field, what bulletformat's ChessBoard::from_str and
#     ChessBoard::from_raw make of its text line;
#  3. each record as bulletformat's reader sees it (board, score, result, both king squares)
#     must be its text line seen from the mover: for Black to move, ranks reversed, colours
#     swapped, score and result negated.
# Exit 0 when every check passes, 1 at the first that does not, 2 on bad usage.
set -euo pipefail

usage() {
  cat <<USAGE
usage: bench/bullet_check.sh CHESSHPC BULLET_DRIVER [--games N] [--nodes N] [--seed S]
                             [--threads T] [--dir DIR]
  CHESSHPC       the chesshpc binary (e.g. build/cluster/chesshpc)
  BULLET_DRIVER  bench/bullet_driver.rs built against bulletformat
  --games N      games a variant (default: 200)
  --nodes N      nodes a move (default: 300)
  --seed S       selfplay's seed (default: 1)
  --threads T    selfplay's threads (default: 2)
  --dir DIR      where the datasets and exports go (default: bullet-check)
USAGE
}

(($# >= 2)) || {
  usage >&2
  exit 2
}
chesshpc=$1 driver=$2
shift 2
games=200 nodes=300 seed=1 threads=2 dir=bullet-check
while (($#)); do
  (($# >= 2)) || {
    usage >&2
    exit 2
  }
  case $1 in
    --games) games=$2 ;;
    --nodes) nodes=$2 ;;
    --seed) seed=$2 ;;
    --threads) threads=$2 ;;
    --dir) dir=$2 ;;
    *)
      usage >&2
      exit 2
      ;;
  esac
  shift 2
done
for exe in "$chesshpc" "$driver"; do
  [[ -x $exe ]] || {
    echo "bullet_check: '$exe' is not an executable" >&2
    exit 2
  }
done
mkdir -p "$dir"

# A bullet-text line as the mover sees it, as the driver's dump prints a record:
# "PLACEMENT | SCORE | RESULT" with the mover's pieces in upper case.
mover_view() {
  awk -F' [|] ' '{
    split($1, fen, " ")
    placement = fen[1]; score = $2 + 0; result = $3
    if (fen[2] == "b") {
      n = split(placement, rank, "/")
      placement = ""
      for (i = n; i >= 1; --i) placement = placement rank[i] (i > 1 ? "/" : "")
      swapped = ""
      for (i = 1; i <= length(placement); ++i) {
        c = substr(placement, i, 1)
        swapped = swapped (c ~ /[a-z]/ ? toupper(c) : tolower(c))
      }
      placement = swapped; score = 0 - score
      result = result == "1.0" ? "0.0" : result == "0.0" ? "1.0" : result
    }
    printf "%s | %d | %s\n", placement, score, result
  }' "$1"
}

for variant in standard chess960 dfrc; do
  base=$dir/$variant
  "$chesshpc" selfplay --games "$games" --nodes "$nodes" --random-plies 4 --seed "$seed" --threads "$threads" \
    --variant "$variant" --quiet --force --out "$base.h5"
  "$chesshpc" export --format bullet "$base.h5" --out "$base.bullet" --force
  "$chesshpc" export --format bullet-text "$base.h5" --out "$base.txt" --force
  records=$(($(stat -c %s "$base.bullet") / 32))

  "$driver" convert "$base.txt" "$base.from-text.bullet" >/dev/null
  cmp "$base.bullet" "$base.from-text.bullet" || {
    echo "bullet_check: $variant: bulletformat's converter wrote other bytes than chesshpc's .bullet" >&2
    exit 1
  }
  "$driver" check "$base.txt" "$base.bullet" >/dev/null
  "$driver" dump "$base.bullet" >"$base.dump"
  mover_view "$base.txt" >"$base.expected"
  cmp "$base.expected" "$base.dump" || {
    echo "bullet_check: $variant: bulletformat reads a record other than its text line (diff $base.expected $base.dump)" >&2
    exit 1
  }
  echo "$variant: $records records; bulletformat's converter wrote the same bytes, from_str and from_raw" \
    "the same fields, its reader the same boards, scores, results and king squares"
done
