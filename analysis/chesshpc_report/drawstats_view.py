"""A drawstats summary as report blocks: tables for Markdown and HTML, plots for HTML."""
import numpy as np

from . import drawstats, figures, formatting as fmt, rule_stats, rule_stats_view
from .blocks import Heading, Paragraph, Table
from .resultfile import column


def sections(s):
    out = [
        Heading(f"drawstats: {s['path']}"),
        Paragraph(f"{fmt.count(s['games'])} games from `{s['pgn_file']}` ({fmt.count(s['skipped'])} skipped as "
                  f"malformed, {fmt.count(s['plies'])} plies), ruleset {s['ruleset']}, claims {s['claim_policy']}; "
                  f"{fmt.count(s['perpetual_checks'])} perpetual checks."),
        rule_stats_view.rules_table(s["rules"]),
    ]
    if s["checks"]:
        out += [Paragraph("Checks per game:"), _checks(s)]
    return out


def _checks(s):
    rows = [[name, fmt.count(c["games"]), fmt.count(c.get("total")), fmt.decimal(c.get("mean")),
             fmt.decimal(c.get("median")), fmt.count(c.get("max"))] for name, c in s["checks"].items()]
    return Table(["column", "games", "total", "mean", "median", "max"], rows, {1, 2, 3, 4, 5})


def plots(s, f):
    out = [rule_stats_view.first_fire_plot(f"First-fire ply per rule: {s['path']}", f["rules"], f["games"]),
           rule_stats_view.endings_plot(f"Games ended by each rule under {s['ruleset']}: {s['path']} "
                                        "('none': ended by its recorded result)", s["terminations"])]
    out += [_checks_histogram(s, f, name) for name in s["checks"]]
    return out


def _checks_histogram(s, f, name):
    values = column(f["games"], name)
    fig, ax = figures.figure()
    ax.hist(values, bins=min(50, max(1, int(values.max()) + 1)) if len(values) else 1, color=figures.COLORS[3])
    ax.set_xlabel(name)
    ax.set_ylabel("games")
    title = f"{name} per game: {s['path']}"
    ax.set_title(title)
    return figures.plot(title, fig)


def compare_sections(c):
    files = c["files"]
    headers = ["rule"] + [f"{p} ({r}): fired / ended" for p, r in zip(files, c["rulesets"])]
    rows = [[name] + [f"{fmt.count(fi)} / {fmt.count(en)}" for fi, en in zip(r["fired"], r["ended"])]
            for name, r in c["rules"].items()]
    corpus = "the same corpus" if c["same_corpus"] else "different corpora (compare with care)"
    return [Heading("drawstats files side by side"),
            Paragraph(f"{len(files)} files of {corpus}; rulesets {', '.join(c['rulesets'])}."),
            Table(headers, rows, set(range(1, len(headers)))),
            *_fifty_against_thirty(c)]


def _fifty_against_thirty(c):
    """FIDE's 50-move claim against the site's 30-move rule, the comparison users ask for."""
    pairs = [("fifty_moves", "FIDE 50-move"), ("site_thirty_moves", "site 30-move")]
    if not all(n in c["rules"] for n, _ in pairs):
        return []
    rows = [[f"{label} (`{n}`)"] + [f"{fmt.count(e)} (median ply {fmt.decimal(m)})" if e else fmt.count(e) for e, m in
                                    zip(c["rules"][n]["ended"], c["rules"][n]["ended_median_ply"])]
            for n, label in pairs]
    return [Paragraph("Games ended by the move-count rules (median ply of the ending):"),
            Table(["rule"] + [f"{p} ({r})" for p, r in zip(c["files"], c["rulesets"])], rows)]


MOVE_COUNT_RULES = ("fifty_moves", "seventy_five_moves", "site_thirty_moves")


def compare_plots(c, files):
    out = [_ended_side_by_side(c), _lengths_side_by_side(c, files)]
    if any(any(c["rules"].get(n, {}).get("ended") or []) for n in MOVE_COUNT_RULES):
        out.append(_move_count_endings(c, files))
    return out


def _move_count_endings(c, files):
    """Where FIDE's 50-move (or 75-move) rule and the site's 30-move rule end the same games."""
    fig, ax = figures.figure()
    ends = [(f"{path} ({ruleset}): {rule}", rule_stats.ended_plies(f["games"], rule))
            for path, ruleset, f in zip(c["files"], c["rulesets"], files) for rule in MOVE_COUNT_RULES]
    ends = [(label, plies) for label, plies in ends if len(plies)]
    bins = _common_bins([plies for _, plies in ends], 30)
    for label, plies in ends:
        ax.hist(plies, bins=bins, histtype="step", linewidth=1.5, label=f"{label} ({len(plies)})")
    ax.set_xlabel("ply at which the rule ends the game")
    ax.set_ylabel("games")
    ax.legend(fontsize=8)
    title = "Games ended by the move-count rules, file by file"
    ax.set_title(title)
    return figures.plot(title, fig)


def _common_bins(arrays, n):
    """Bins shared by every file, so that their histograms line up."""
    hi = max((int(a.max()) for a in arrays if len(a)), default=1)
    return np.linspace(0, hi + 1, n + 1)


def _ended_side_by_side(c):
    names = [n for n, r in c["rules"].items() if any(r["ended"])]
    fig, ax = figures.figure(9, 4.5)
    x = np.arange(len(names))
    width = 0.8 / len(c["files"])
    for i, (path, ruleset) in enumerate(zip(c["files"], c["rulesets"])):
        counts = [c["rules"][n]["ended"][i] or 0 for n in names]
        ax.bar(x + i * width - 0.4 + width / 2, counts, width, label=f"{path} ({ruleset})")
    figures.label_x(ax, x, names, rotation=30, ha="right")
    ax.set_ylabel("games ended")
    ax.legend(fontsize=8)
    title = "Games ended by each rule, file by file"
    ax.set_title(title)
    return figures.plot(title, fig)


def _lengths_side_by_side(c, files):
    fig, ax = figures.figure()
    lengths = [drawstats.game_lengths(f) for f in files]
    bins = _common_bins(lengths, 40)
    for path, ruleset, length in zip(c["files"], c["rulesets"], lengths):
        ax.hist(length, bins=bins, histtype="step", linewidth=1.5, label=f"{path} ({ruleset})")
    ax.set_xlabel("ply at which the game ends under the ruleset")
    ax.set_ylabel("games")
    ax.legend(fontsize=8)
    title = "Game lengths, file by file"
    ax.set_title(title)
    return figures.plot(title, fig)
