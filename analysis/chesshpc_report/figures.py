"""matplotlib on the Agg backend (no display needed), each figure turned into a PNG Plot.
pyplot is imported on first use: Markdown and JSON reports do without its start-up time."""
import io

from .blocks import Plot

COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"]


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def figure(width=8, height=4):
    fig, ax = _pyplot().subplots(figsize=(width, height), dpi=100)
    ax.grid(True, alpha=0.3)
    return fig, ax


def plot(title, fig):
    """The figure as a Plot, and the figure closed."""
    buf = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buf, format="png")
    _pyplot().close(fig)
    return Plot(title, buf.getvalue())


# Ticks and their labels in two calls, as matplotlib before 3.5 (still on some clusters) requires.
def label_y(ax, positions, labels, fontsize=8):
    ax.set_yticks(positions)
    ax.set_yticklabels(labels, fontsize=fontsize)


def label_x(ax, positions, labels, fontsize=8, **kw):
    ax.set_xticks(positions)
    ax.set_xticklabels(labels, fontsize=fontsize, **kw)
