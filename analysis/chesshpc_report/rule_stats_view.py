"""Per-rule draw statistics as a table and plots, for any job that records them."""
import numpy as np

from . import figures, formatting as fmt, rule_stats
from .blocks import Table


def rules_table(rules):
    rows = [[name, fmt.count(r["fired"]), fmt.count(r["ended"]), fmt.decimal(r["q1"]), fmt.decimal(r["median"]),
             fmt.decimal(r["q3"]), fmt.decimal(r["ended_median_ply"])] for name, r in rules.items()]
    return Table(["rule", "fired in", "ended", "first fire q1", "median", "q3", "median end ply"], rows,
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
    ax.set_title(title, fontsize=10)
    return figures.plot(title, fig)
