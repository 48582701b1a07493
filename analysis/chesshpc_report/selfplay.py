"""The numbers of a selfplay result file (jobs/selfplay/file.cpp, jobs/selfplay/tables.cpp):
the batch's settings, results by colour and by player with White's score and its 95%
interval, game pairs (pentanomial counts, the first player's score and Elo with intervals
from pairs, the SPRT's outcome), terminations, game lengths, the search score by ply, checks per game, and per
rule (rule_stats, group /drawstats) the games in which its condition held, the games it
ended and at which ply."""
import numpy as np

from . import checks, rule_stats
from chesshpc.h5read import attr_int, attr_text, column, provenance

RESULTS = {"1-0": "white_wins", "1/2-1/2": "draws", "0-1": "black_wins", "*": "void"}
WHITE_POINTS = {"1-0": 1.0, "1/2-1/2": 0.5, "0-1": 0.0}
Z95 = 1.959963984540054  # two-sided 95% of the normal distribution
PSEUDO_COUNT = 1e-3  # an empty outcome's count in the score interval, as chesshpc's (fishtest's)
PLY_BUCKETS = 30  # at most, of at least 10 plies each


def summarise(f):
    games, positions = f["games"], f["positions"]
    result = column(games, "result").astype(str)
    return {
        "settings": settings(f),
        "games": attr_int(f, "games", len(result)),
        "positions": attr_int(f, "positions", len(column(positions, "ply"))),
        "results": {key: int((result == r).sum()) for r, key in RESULTS.items()},
        "white_score": score([WHITE_POINTS[r] for r in result if r in WHITE_POINTS]),
        "players": players(games, named(f)),
        "pairs": pairs(games),
        "sprt": sprt(f),
        "terminations": rule_stats.terminations(games),
        "lengths": quartiles(column(games, "plies")),
        "book_plies": quartiles(column(games, "book_plies")),
        "score_by_ply": score_by_ply(games, positions),
        "perpetual_checks": int(column(games, "perpetual_check").astype(bool).sum()),
        "checks": {**checks.summarise(games), "checks_both": checks.stats(checks_per_game(games))},
        "rules": rule_stats.summarise_rules(f["drawstats"], games),
        "provenance": provenance(f),
    }


def limits_text(nodes, depth, movetime, clock):
    """A side's limits per move as text ("nodes 1000", "clock 10000+100 ms"); "" for none."""
    limits = [f"{k} {v}" for k, v in (("nodes", nodes), ("depth", depth), ("movetime", movetime)) if v not in ("0", "")]
    if clock not in ("0+0", ""):
        limits.append(f"clock {clock} ms")
    return ", ".join(limits)


def player(field, batch_limits):
    """One player of the identity ("uci:/usr/games/stockfish,Hash=16,name=A,limits=1000/0/0/0+0"):
    its name (name=, else the player), the player and its limits (its own, else the batch's)."""
    parts = field.split(",")
    keys = dict(p.split("=", 1) for p in parts[1:] if "=" in p)
    limits = batch_limits
    if "limits" in keys:
        nodes, depth, movetime, clock = (keys["limits"].split("/", 3) + ["", "", "", ""])[:4]  # clock: "/moves=40"...
        limits = limits_text(nodes, depth, movetime, clock)
    return {"name": keys.get("name", parts[0]), "player": parts[0], "limits": limits}


def settings(f):
    """The batch's settings, from the root attribute 'identity' (key=value;key=value...)."""
    fields = dict(item.split("=", 1) for item in attr_text(f, "identity").split(";") if "=" in item)
    batch = limits_text(fields.get("nodes", "0"), fields.get("depth", "0"), fields.get("movetime", "0"),
                        fields.get("clock", "0+0"))
    first, second = player(fields.get("first", ""), batch), player(fields.get("second", ""), batch)
    # One text when both sides have the same limits, else each side's.
    limits = first["limits"] if first["limits"] == second["limits"] else \
        f"{first['name']}: {first['limits'] or 'no limit'}; {second['name']}: {second['limits'] or 'no limit'}"
    return {"ruleset": fields.get("ruleset", ""), "claims": fields.get("claims", ""),
            "limits": limits, "first": first["name"], "second": second["name"],
            "seed": attr_int(f, "seed"), "identity": fields}


def label(s):
    """A file's name in side-by-side tables and legends: path, ruleset and limits."""
    extra = ", ".join(x for x in (s["settings"]["ruleset"], s["settings"]["limits"]) if x)
    return f"{s['path']} ({extra})" if extra else s["path"]


def score(points):
    """Mean points and its 95% score interval over the per-game points (1, 0.5, 0);
    None without games."""
    if not points:
        return {"games": 0, "score": None, "low": None, "high": None}
    p = np.asarray(points, dtype=float)
    mean, low, high = score_interval((0.0, 0.5, 1.0), [int((p == v).sum()) for v in (0.0, 0.5, 1.0)])
    return {"games": len(p), "score": mean, "low": low, "high": high}


def score_interval(values, counts):
    """The mean of `values` (0 to 1) seen `counts` times, and its 95% score interval as
    chesshpc computes the pairs' (jobs/selfplay/sprt.h): every p with n (m - p)^2 <= Z95^2 V(p),
    V(p) the variance of the distribution on `values` of greatest likelihood given the
    counts (an empty one counted as PSEUDO_COUNT) among those with mean p. Wilson's interval
    when only 0 and 1 occur; never a point, and it reaches 0 or 1 only at a mean of 0 or 1."""
    n = sum(counts)
    m = sum(c * v for c, v in zip(counts, values)) / n
    regularised = [c if c else PSEUDO_COUNT for c in counts]
    f = [c / sum(regularised) for c in regularised]

    def variance(p):
        q = most_likely(f, [v - p for v in values])
        mean = sum(qi * v for qi, v in zip(q, values)) / sum(q)
        return sum(qi * (v - mean) ** 2 for qi, v in zip(q, values)) / sum(q)

    def end(bound):
        if m == bound:
            return bound
        inside, outside = m, bound
        for _ in range(60):
            p = (inside + outside) / 2
            if n * (m - p) ** 2 <= Z95 * Z95 * variance(p):
                inside = p
            else:
                outside = p
        return inside

    return float(m), float(end(0.0)), float(end(1.0))


def most_likely(f, g):
    """The distribution of greatest likelihood given frequencies f among those with
    sum q_i g_i = 0 (fishtest's MLE under a constraint, after Van den Bergh; g straddling 0):
    q_i = f_i / (1 + x g_i), x the root of sum f_i g_i / (1 + x g_i) = 0, bisected between
    the poles -1 / max g and -1 / min g."""
    lo, hi = -1 / max(g), -1 / min(g)
    for _ in range(200):
        x = (lo + hi) / 2
        if sum(fi * gi / (1 + x * gi) for fi, gi in zip(f, g)) > 0:
            lo = x
        else:
            hi = x
    return [fi / (1 + x * gi) for fi, gi in zip(f, g)]


def players(games, names=frozenset()):
    """Per player's settings (as /games records them), games, wins, draws, losses and score:
    two engines or two settings in one batch, colours alternating."""
    tally = {}
    rows = zip(column(games, "result").astype(str), column(games, "white").astype(str),
               column(games, "white_settings").astype(str), column(games, "black").astype(str),
               column(games, "black_settings").astype(str))
    for r, white, w, black, b in rows:
        if r in WHITE_POINTS:
            tally.setdefault(player_key(white, w, names), []).append(WHITE_POINTS[r])
            tally.setdefault(player_key(black, b, names), []).append(1.0 - WHITE_POINTS[r])
    return {name: {"wins": points.count(1.0), "draws": points.count(0.5), "losses": points.count(0.0), **score(points)}
            for name, points in tally.items()}


def named(f):
    """The names the batch gave its players (--engine name=)."""
    fields = dict(item.split("=", 1) for item in attr_text(f, "identity").split(";") if "=" in item)
    return {k.split("=", 1)[1] for side in ("first", "second") for k in fields.get(side, "").split(",")[1:]
            if k.startswith("name=")}


def player_key(name, settings, names):
    """A player's row: what it was asked, after its name when the batch named it."""
    return f"{name} ({settings})" if name in names else settings


PAIR_KINDS = ("LL", "LD", "DD+WL", "WD", "WW")  # the first player's points over the pair: 0, 0.5, 1, 1.5, 2


def pairs(games):
    """Games 2k and 2k + 1 (one opening, colours swapped; the first player White in the even
    game) as a pair: counts by the first player's points over the pair, and its per-game
    score with its 95% score interval over pairs (pairs are the independent draws), with the
    logistic Elo of each (None at a score of 0 or 1). Pairs with a game without a result are
    left out."""
    points = {}
    for g, r in zip(column(games, "game"), column(games, "result").astype(str)):
        if r in WHITE_POINTS:
            points[int(g)] = WHITE_POINTS[r] if g % 2 == 0 else 1.0 - WHITE_POINTS[r]
    per_pair = [points[g] + points[g + 1] for g in sorted(points) if g % 2 == 0 and g + 1 in points]
    counts = {kind: sum(1 for p in per_pair if p == i / 2) for i, kind in enumerate(PAIR_KINDS)}
    out = {"pairs": len(per_pair), "counts": counts, "score": None, "low": None, "high": None,
           "elo": None, "elo_low": None, "elo_high": None}
    if per_pair:
        mean, low, high = score_interval([i / 4 for i in range(5)], list(counts.values()))
        out.update(score=mean, low=low, high=high)
        out.update(elo=elo(out["score"]), elo_low=elo(out["low"]), elo_high=elo(out["high"]))
    return out


def elo(score):
    """The logistic Elo difference of a score; None at 0 or 1."""
    return float(-400 * np.log10(1 / score - 1)) if 0 < score < 1 else None


def sprt(f):
    """--sprt's outcome as the file records it (root attributes), or None without one."""
    if "sprt" not in f.attrs:
        return None
    return {"test": attr_text(f, "sprt"), "llr": float(f.attrs["llr"]), "lower": float(f.attrs["lower"]),
            "upper": float(f.attrs["upper"]), "decision": attr_text(f, "decision"), "pairs": attr_int(f, "sprt_pairs")}


def quartiles(values):
    if len(values) == 0:
        return {"games": 0}
    q1, median, q3 = np.quantile(values, [0.25, 0.5, 0.75])
    return {"games": int(len(values)), "min": int(values.min()), "q1": float(q1), "median": float(median),
            "q3": float(q3), "max": int(values.max()), "mean": float(values.mean())}


def checks_per_game(games):
    return column(games, "checks_white").astype(np.int64) + column(games, "checks_black")


def white_scores(games, positions):
    """(ply, score in centipawns from White's view) of every searched position with a
    centipawn score: book moves and mate scores (NaN in score_cp) are left out."""
    ply, cp = column(positions, "ply").astype(np.int64), column(positions, "score_cp").astype(float)
    if len(ply) and not len(column(games, "game")):  # positions without their games (chesshpc convert's)
        white_moves = np.array([fen.split()[1] == "w" for fen in column(positions, "fen")], dtype=bool)
        keep = ~np.isnan(cp)
        return ply[keep], np.where(white_moves, cp, -cp)[keep]
    order = np.argsort(column(games, "game"), kind="stable")
    row = order[np.searchsorted(column(games, "game")[order], column(positions, "game"))]
    white_starts = np.array([fen.split()[1] == "w" for fen in column(games, "start_fen")], dtype=bool)
    white_moves = white_starts[row] ^ (ply % 2 == 1) if len(ply) else np.zeros(0, dtype=bool)
    keep = ~np.isnan(cp)
    return ply[keep], np.where(white_moves, cp, -cp)[keep]


def bucket_width(max_ply):
    return max(10, int(np.ceil(max_ply / PLY_BUCKETS / 10.0)) * 10)


def score_by_ply(games, positions):
    """Quartiles of White's score per bucket of plies: how far games drift from balance."""
    ply, cp = white_scores(games, positions)
    if len(ply) == 0:
        return {"bucket_plies": None, "buckets": []}
    width = bucket_width(int(ply.max()))
    buckets = []
    for start in range(0, int(ply.max()) + 1, width):
        mine = cp[(ply >= start) & (ply < start + width)]
        if len(mine):
            q1, median, q3 = np.quantile(mine, [0.25, 0.5, 0.75])
            buckets.append({"from_ply": start, "to_ply": start + width - 1, "positions": int(len(mine)),
                            "q1": float(q1), "median": float(median), "q3": float(q3)})
    return {"bucket_plies": width, "buckets": buckets}


def compare(summaries):
    """Results, White's score and terminations per file, and per rule fired and ended in
    each file: the same seed and openings under two rulesets or two engine settings."""
    batches = {(s["games"], s["settings"]["seed"], s["settings"]["identity"].get("book"),
                s["settings"]["identity"].get("random_plies")) for s in summaries}
    kinds = list(dict.fromkeys(k for s in summaries for k in s["terminations"]))
    return {
        "files": [s["path"] for s in summaries],
        "labels": [label(s) for s in summaries],
        "same_openings": len(batches) == 1,
        "games": [s["games"] for s in summaries],
        "results": [s["results"] for s in summaries],
        "white_score": [s["white_score"] for s in summaries],
        "median_length": [s["lengths"].get("median") for s in summaries],
        "checks_per_game": [s["checks"]["checks_both"].get("mean") for s in summaries],
        "terminations": {k: [s["terminations"].get(k, 0) for s in summaries] for k in kinds},
        "rules": rule_stats.compare_rules([s["rules"] for s in summaries]),
    }
