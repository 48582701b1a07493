"""Per-rule draw statistics as jobs/rules/rule_stats.cpp writes them, shared by drawstats files
(group /rules) and selfplay files (group /drawstats): a group of rules (name, fired, ended,
first_fire_q1/median/q3) and in /games one first_fire_RULE column per rule (-1 = never),
beside termination and, in drawstats files, termination_ply."""
import numpy as np

from chesshpc.h5read import column, number

FIRE_PREFIX = "first_fire_"
NEVER = -1
MOVE_COUNT_RULES = ("fifty_moves", "seventy_five_moves", "site_thirty_moves")


def summarise_rules(rules, games):
    """Per rule name: fired, ended, first-fire quartiles and the median ply of its endings."""
    termination, end_ply = column(games, "termination"), end_plies(games)
    out = {}
    for i, name in enumerate(column(rules, "name")):
        ended = end_ply[termination == name]
        out[str(name)] = {
            "fired": int(column(rules, "fired")[i]),
            "ended": int(column(rules, "ended")[i]),
            "q1": number(column(rules, "first_fire_q1")[i]),
            "median": number(column(rules, "first_fire_median")[i]),
            "q3": number(column(rules, "first_fire_q3")[i]),
            "ended_median_ply": float(np.median(ended)) if len(ended) else None,
        }
    return out


def rule_names(rules):
    return [str(n) for n in column(rules, "name")]


def first_fires(games, rule):
    """Plies at which the rule first held, over the games where it did."""
    plies = column(games, FIRE_PREFIX + rule)
    return plies[plies != NEVER]


def ended_plies(games, rule):
    """Plies at which the ruleset ended games by the rule."""
    return end_plies(games)[column(games, "termination") == rule]


def end_plies(games):
    """The ply each game ended at: termination_ply (drawstats: a corpus game may go on past
    the rule's ending), else plies (selfplay: a game stops where its termination is)."""
    return column(games, "termination_ply") if "termination_ply" in games else column(games, "plies")


def terminations(games):
    """Games per ending rule; 'none' for games that ran to their recorded result."""
    names, counts = np.unique(column(games, "termination").astype(str), return_counts=True)
    return {(n or "none"): int(c) for n, c in zip(names, counts)}


def compare_rules(rules_per_file):
    """Per rule, fired, ended and the median ending ply in each file, in the files' order:
    the same games under two rulesets show, e.g., FIDE's 50-move rule against the site's 30-move rule."""
    names = list(dict.fromkeys(n for rules in rules_per_file for n in rules))
    keys = ("fired", "ended", "ended_median_ply")
    return {n: {k: [rules.get(n, {}).get(k) for rules in rules_per_file] for k in keys} for n in names}


def any_move_count_endings(compared):
    return any(any(compared.get(n, {}).get("ended") or []) for n in MOVE_COUNT_RULES)
