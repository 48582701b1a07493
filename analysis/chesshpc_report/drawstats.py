"""The numbers of a drawstats result file (jobs/rules/drawstats.cpp): the corpus, and per rule
(rule_stats) the games in which its condition held, the games it ended, and at which ply."""
import numpy as np

from . import checks, rule_stats
from chesshpc.h5read import attr_int, attr_text, column, provenance


def summarise(f):
    games = f["games"]
    return {
        "pgn_file": attr_text(f, "pgn_file"),
        "ruleset": attr_text(f, "ruleset"),
        "claim_policy": attr_text(f, "claim_policy"),
        "games": attr_int(f, "games", len(column(games, "plies"))),
        "skipped": attr_int(f, "skipped", 0),
        "plies": int(column(games, "plies").sum()),
        "perpetual_checks": int(column(games, "perpetual_check").astype(bool).sum()),
        "rules": rule_stats.summarise_rules(f["rules"], games),
        "terminations": rule_stats.terminations(games),
        "checks": checks.summarise(games),
        "provenance": provenance(f),
    }


def game_lengths(f):
    """Ply at which each game ends under the ruleset, or its last recorded ply."""
    games = f["games"]
    end = column(games, "termination_ply")
    return np.where(end != rule_stats.NEVER, end, column(games, "plies"))


def compare(summaries):
    """Per rule, fired and ended in each file, in the files' order: the same corpus under
    two rulesets shows, e.g., FIDE's 50-move rule against the site's 30-move rule."""
    corpora = {(s["pgn_file"], s["games"], s["plies"]) for s in summaries}
    return {
        "files": [s["path"] for s in summaries],
        "rulesets": [s["ruleset"] for s in summaries],
        "same_corpus": len(corpora) == 1,
        "games": [s["games"] for s in summaries],
        "rules": rule_stats.compare_rules([s["rules"] for s in summaries]),
    }
