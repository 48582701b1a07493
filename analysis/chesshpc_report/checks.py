"""Checks given per game: selfplay files always record them (checks_white, checks_black),
drawstats files when their games have checks_* columns."""
import numpy as np

from . import figures, formatting as fmt
from .blocks import Table
from chesshpc.h5read import column

PREFIX = "checks"


def columns(games):
    return [name for name in games if name.startswith(PREFIX)]


def summarise(games):
    """Per check column: games, total, mean, median, max."""
    return {name: stats(column(games, name)) for name in columns(games)}


def stats(values):
    if len(values) == 0:
        return {"games": 0}
    return {"games": int(len(values)), "total": int(values.sum()), "mean": float(values.mean()),
            "median": float(np.median(values)), "max": int(values.max())}


def table(checks):
    rows = [[name, fmt.count(c["games"]), fmt.count(c.get("total")), fmt.decimal(c.get("mean")),
             fmt.decimal(c.get("median")), fmt.count(c.get("max"))] for name, c in checks.items()]
    return Table(["column", "games", "total", "mean", "median", "max"], rows, {1, 2, 3, 4, 5})


def histogram(title, values, name):
    fig, ax = figures.figure()
    ax.hist(values, bins=min(50, max(1, int(values.max()) + 1)) if len(values) else 1, color=figures.COLORS[3])
    ax.set_xlabel(name)
    ax.set_ylabel("games")
    figures.counts_axis(ax, "x")  # checks given: a count too
    figures.counts_axis(ax)
    ax.set_title(title)
    return figures.plot(title, fig)
