"""A drawstats summary as report blocks: tables for Markdown and HTML, plots for HTML."""
from . import checks, drawstats, figures, formatting as fmt, rule_stats, rule_stats_view
from .blocks import Heading, Paragraph
from chesshpc.h5read import column


def sections(s):
    out = [
        Heading(f"drawstats: {s['path']}"),
        Paragraph(f"{fmt.count(s['games'])} games from `{s['pgn_file']}` ({fmt.count(s['skipped'])} skipped as "
                  f"malformed, {fmt.count(s['plies'])} plies), ruleset {s['ruleset']}, claims {s['claim_policy']}; "
                  f"{fmt.count(s['perpetual_checks'])} perpetual checks."),
        rule_stats_view.rules_table(s["rules"]),
    ]
    if s["checks"]:
        out += [Paragraph("Checks per game:"), checks.table(s["checks"])]
    return out


def plots(s, f):
    out = [rule_stats_view.first_fire_plot(f"First-fire ply per rule: {s['path']}", f["rules"], f["games"]),
           rule_stats_view.endings_plot(f"Games ended by each rule under {s['ruleset']}: {s['path']} "
                                        "('none': ended by its recorded result)", s["terminations"])]
    out += [checks.histogram(f"{name} per game: {s['path']}", column(f["games"], name), name) for name in s["checks"]]
    return out


def _labels(c):
    return [f"{p} ({r})" for p, r in zip(c["files"], c["rulesets"])]


def compare_sections(c):
    corpus = "the same corpus" if c["same_corpus"] else "different corpora (compare with care)"
    return [Heading("drawstats files side by side"),
            Paragraph(f"{len(c['files'])} files of {corpus}; rulesets {', '.join(c['rulesets'])}."),
            rule_stats_view.compare_table(_labels(c), c["rules"]),
            *rule_stats_view.fifty_against_thirty(_labels(c), c["rules"])]


def compare_plots(c, files):
    out = [rule_stats_view.ended_side_by_side(_labels(c), c["rules"]), _lengths_side_by_side(c, files)]
    if rule_stats.any_move_count_endings(c["rules"]):
        out.append(rule_stats_view.move_count_endings(_labels(c), [f["games"] for f in files]))
    return out


def _lengths_side_by_side(c, files):
    series = list(zip(_labels(c), (drawstats.game_lengths(f) for f in files)))
    return figures.overlaid_histograms("Game lengths, file by file", "ply at which the game ends under the ruleset",
                                       series, 40)
