"""The numbers of a drawstats result file (jobs/drawstats.cpp): per rule, the games in
which its condition held (fired), the games the ruleset ended by it, and at which ply."""
import numpy as np

from .resultfile import attr_int, attr_text, column, number, provenance

FIRE_PREFIX = "first_fire_"
CHECKS_PREFIX = "checks"  # per-game check counts, in files that record them
NEVER = -1


def summarise(f):
    games = f["games"]
    termination = column(games, "termination")
    end_ply = column(games, "termination_ply")
    return {
        "pgn_file": attr_text(f, "pgn_file"),
        "ruleset": attr_text(f, "ruleset"),
        "claim_policy": attr_text(f, "claim_policy"),
        "games": attr_int(f, "games", len(termination)),
        "skipped": attr_int(f, "skipped", 0),
        "plies": int(column(games, "plies").sum()),
        "perpetual_checks": int(column(games, "perpetual_check").astype(bool).sum()),
        "rules": _rules(f["rules"], termination, end_ply),
        "terminations": _terminations(termination),
        "checks": {name: _stats(column(games, name)) for name in check_columns(f)},
        "provenance": provenance(f),
    }


def rule_names(f):
    return [str(n) for n in column(f["rules"], "name")]


def first_fires(f, rule):
    """Plies at which the rule first held, over the games where it did."""
    plies = column(f["games"], FIRE_PREFIX + rule)
    return plies[plies != NEVER]


def ended_plies(f, rule):
    """Plies at which the ruleset ended games by the rule."""
    games = f["games"]
    return column(games, "termination_ply")[column(games, "termination") == rule]


def game_lengths(f):
    """Ply at which each game ends under the ruleset, or its last recorded ply."""
    games = f["games"]
    end = column(games, "termination_ply")
    return np.where(end != NEVER, end, column(games, "plies"))


def check_columns(f):
    return [name for name in f["games"] if name.startswith(CHECKS_PREFIX)]


def _rules(g, termination, end_ply):
    rules = {}
    for i, name in enumerate(column(g, "name")):
        ended = end_ply[termination == name]
        rules[str(name)] = {
            "fired": int(column(g, "fired")[i]),
            "ended": int(column(g, "ended")[i]),
            "q1": number(column(g, "first_fire_q1")[i]),
            "median": number(column(g, "first_fire_median")[i]),
            "q3": number(column(g, "first_fire_q3")[i]),
            "ended_median_ply": float(np.median(ended)) if len(ended) else None,
        }
    return rules


def _terminations(termination):
    names, counts = np.unique(termination.astype(str), return_counts=True)
    return {(n or "none"): int(c) for n, c in zip(names, counts)}


def _stats(values):
    if len(values) == 0:
        return {"games": 0}
    return {"games": int(len(values)), "total": int(values.sum()), "mean": float(values.mean()),
            "median": float(np.median(values)), "max": int(values.max())}


def compare(summaries):
    """Per rule, fired and ended in each file, in the files' order: the same corpus under
    two rulesets shows, e.g., FIDE's 50-move rule against the site's 30-move rule."""
    names = list(dict.fromkeys(n for s in summaries for n in s["rules"]))
    corpora = {(s["pgn_file"], s["games"], s["plies"]) for s in summaries}
    return {
        "files": [s["path"] for s in summaries],
        "rulesets": [s["ruleset"] for s in summaries],
        "same_corpus": len(corpora) == 1,
        "games": [s["games"] for s in summaries],
        "rules": {n: {k: [s["rules"].get(n, {}).get(k) for s in summaries] for k in ("fired", "ended", "ended_median_ply")}
                  for n in names},
    }
