"""Per-rule draw statistics as a table and plots, for any job that records them."""
import numpy as np

from . import figures, formatting as fmt, rule_stats
from .blocks import Paragraph, Table


def rules_table(rules):
    rows = [[name, fmt.count(r["fired"]), fmt.count(r["ended"]), fmt.decimal(r["q1"]), fmt.decimal(r["median"]),
             fmt.decimal(r["q3"]), fmt.decimal(r["ended_median_ply"])] for name, r in rules.items()]
    return Table(["rule", "fired", "ended", "first fire q1", "median", "q3", "median end ply"], rows,
                 {1, 2, 3, 4, 5, 6})


def first_fire_plot(title, rules, games):
    """One box per rule (whiskers at min and max) of the ply at which it first held."""
    names = rule_stats.rule_names(rules)
    data = [rule_stats.first_fires(games, n) for n in names]
    fig, ax = figures.figure(8, 1.2 + 0.45 * len(names))
    y = np.arange(len(names))
    fired = [i for i, d in enumerate(data) if len(d)]
    if fired:
        ax.boxplot([data[i] for i in fired], positions=y[fired], vert=False, widths=0.6, whis=(0, 100))
    figures.label_y(ax, y, [f"{n} ({len(d)})" for n, d in zip(names, data)])
    ax.set_ylim(len(names) - 0.5, -0.5)
    ax.set_xlabel("ply at which the rule first held (games where it did in brackets)")
    ax.set_title(title, fontsize=10)
    return figures.plot(title, fig)


def endings_plot(title, terminations):
    names = list(terminations)
    fig, ax = figures.figure(8, 1.2 + 0.4 * len(names))
    y = np.arange(len(names))
    ax.barh(y, [terminations[n] for n in names], color=figures.COLORS[2])
    figures.label_y(ax, y, names)
    ax.invert_yaxis()
    ax.set_xlabel("games")
    figures.counts_axis(ax, "x")
    ax.set_title(title, fontsize=10)
    return figures.plot(title, fig)


def compare_table(labels, compared):
    """Fired / ended per rule (rows) and file (columns), compared by rule_stats.compare_rules."""
    headers = ["rule"] + [f"{label}: fired / ended" for label in labels]
    rows = [[name] + [f"{fmt.count(fi)} / {fmt.count(en)}" for fi, en in zip(r["fired"], r["ended"])]
            for name, r in compared.items()]
    return Table(headers, rows, set(range(1, len(headers))))


def fifty_against_thirty(labels, compared):
    """FIDE's 50-move claim against the site's 30-move rule, the comparison users ask for."""
    pairs = [("fifty_moves", "FIDE 50-move"), ("site_thirty_moves", "site 30-move")]
    if not all(n in compared for n, _ in pairs):
        return []
    rows = [[f"{label} (`{n}`)"] + [f"{fmt.count(e)} (median ply {fmt.decimal(m)})" if e else fmt.count(e) for e, m in
                                    zip(compared[n]["ended"], compared[n]["ended_median_ply"])]
            for n, label in pairs]
    return [Paragraph("Games ended by the move-count rules (median ply of the ending):"),
            Table(["rule"] + list(labels), rows)]


def ended_side_by_side(labels, compared):
    names = [n for n, r in compared.items() if any(r["ended"])]
    series = [(label, [compared[n]["ended"][i] or 0 for n in names]) for i, label in enumerate(labels)]
    return figures.grouped_bars("Games ended by each rule, file by file", names, series, "games ended")


def move_count_endings(labels, games_per_file):
    """Where FIDE's 50-move (or 75-move) rule and the site's 30-move rule end the games of each file."""
    ends = [(f"{label}: {rule}", rule_stats.ended_plies(games, rule))
            for label, games in zip(labels, games_per_file) for rule in rule_stats.MOVE_COUNT_RULES]
    series = [(f"{label} ({len(plies)})", plies) for label, plies in ends if len(plies)]
    return figures.overlaid_histograms("Games ended by the move-count rules, file by file",
                                       "ply at which the rule ends the game", series, 30)


def move_count_first_fires(title, games):
    """Where each move-count rule's condition first held on the same games: where FIDE's
    50-move rule (claimed at once) and the site's 30-move rule would end them."""
    series = [(f"{rule} ({len(plies)})", plies) for rule in rule_stats.MOVE_COUNT_RULES
              for plies in [rule_stats.first_fires(games, rule)] if len(plies)]
    return figures.overlaid_histograms(title, "ply at which the rule first held", series, 30)
