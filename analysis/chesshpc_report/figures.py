"""matplotlib on the Agg backend (no display needed), each figure turned into a PNG Plot.
pyplot is imported on first use: Markdown and JSON reports do without its start-up time."""
import io

import numpy as np

from .blocks import Plot

COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"]


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def figure(width=8, height=4, ncols=1, **kw):
    """A figure and its axes (a list of ncols axes when ncols > 1); kw as pyplot.subplots'
    (sharey=True)."""
    fig, axes = _pyplot().subplots(1, ncols, figsize=(width, height), dpi=100, **kw)
    for ax in np.ravel(axes):
        ax.grid(True, alpha=0.3)
    return fig, axes


def plot(title, fig):
    """The figure as a Plot, and the figure closed."""
    buf = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buf, format="png")
    _pyplot().close(fig)
    return Plot(title, buf.getvalue())


def counts_axis(ax, axis="y"):
    """Whole-number ticks on an axis of counts (games, units, ranks): never 0.5 games."""
    from matplotlib.ticker import MaxNLocator

    (ax.yaxis if axis == "y" else ax.xaxis).set_major_locator(MaxNLocator(integer=True))


# Ticks and their labels in two calls, as matplotlib before 3.5 (still on some clusters) requires.
def label_y(ax, positions, labels, fontsize=8):
    ax.set_yticks(positions)
    ax.set_yticklabels(labels, fontsize=fontsize)


def label_x(ax, positions, labels, fontsize=8, **kw):
    ax.set_xticks(positions)
    ax.set_xticklabels(labels, fontsize=fontsize, **kw)


def common_bins(arrays, n):
    """n bins from 0 shared by every array, so that their histograms line up."""
    hi = max((int(a.max()) for a in arrays if len(a)), default=1)
    return np.linspace(0, hi + 1, n + 1)


def overlaid_histograms(title, xlabel, series, nbins):
    """One step histogram per (label, values: whole numbers), on common bins."""
    fig, ax = figure()
    bins = common_bins([values for _, values in series], nbins)
    for label, values in series:
        ax.hist(values, bins=bins, histtype="step", linewidth=1.5, label=label)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("games")
    counts_axis(ax, "x")  # plies and checks: whole numbers too
    counts_axis(ax)
    ax.legend(fontsize=8)
    ax.set_title(title)
    return plot(title, fig)


def grouped_bars(title, categories, series, ylabel):
    """For each category a group of bars, one per (label, counts) of series."""
    fig, ax = figure(9, 4.5)
    x = np.arange(len(categories))
    width = 0.8 / max(1, len(series))
    for i, (label, counts) in enumerate(series):
        ax.bar(x + i * width - 0.4 + width / 2, counts, width, label=label)
    label_x(ax, x, categories, rotation=30, ha="right")
    ax.set_ylabel(ylabel)
    counts_axis(ax)
    ax.legend(fontsize=8)
    ax.set_title(title)
    return plot(title, fig)
