"""A perft summary as report blocks: tables for Markdown and HTML, plots for HTML."""
import numpy as np

from . import figures, formatting as fmt
from .blocks import Heading, Paragraph, Table

DIVIDE_ENDS = 5  # moves shown at each end of a long divide


def sections(s):
    return [
        Heading(f"perft: {s['path']}"),
        Paragraph(headline(s, f"`{s['fen']}`, depth {s['depth']}, split depth {s['split_depth']}", "units")),
        overview(s, "units"),
        *divide_blocks(s),
        *_runs(s),
        *time_table("Unit times:", "units", s["unit_seconds"]),
    ]


def headline(s, where, noun):
    """The total and its verification, or what is left of the noun's (units, buckets)."""
    if not s["complete"]:
        return (f"{where}: incomplete, {fmt.count(s[noun + '_done'])} of {fmt.count(s[noun])} {noun} done, "
                f"{fmt.count(s[noun + '_left'])} left; no total yet.")
    check = {"verified": "verified against the published count",
             "MISMATCH": f"MISMATCH: the published count is {fmt.count(s['published'])}",
             "no published count": "no published count to verify against"}[s["verification"]]
    return f"{where}: total {fmt.count(s['total'])}, {check}."


def overview(s, noun, own_rows=(), balance="load balance (max/mean busy)"):
    """The table atop a perft file's report: own_rows (what a job adds) follow the noun's
    (units, buckets) done."""
    p = s["provenance"]
    resumed = f", {fmt.count(s[noun + '_resumed'])} {noun} from earlier runs" if s["resumed"] else ""
    rows = [
        ["total", fmt.count(s["total"]) if s["complete"] else "- (incomplete)"],
        ["verification", s["verification"]],
        [f"{noun} done / all", f"{fmt.count(s[noun + '_done'])} / {fmt.count(s[noun])}"],
        *own_rows,
        ["nodes counted", fmt.count(s["nodes_counted"])],
        ["seconds", f"{fmt.seconds(s['seconds'])} ({s['seconds_source']})"],
        ["nodes/s", fmt.rate(s["nodes_per_second"], "nodes")],
        ["runs", f"{len(s['runs'])}{resumed}"],
        ["ranks x threads", f"{p.get('ranks', '-')} x {p.get('threads', '-')}"],
        [balance, fmt.ratio(s["load_balance"])],
        ["hosts", _hosts(s["hosts"])],
        ["program", f"{p.get('program', '')} {p.get('version', '')} ({p.get('git_commit', '')})"],
        ["started / finished", f"{p.get('started') or '-'} / {p.get('finished') or '-'}"],
    ]
    return Table(["", "value"], rows)


def _hosts(hosts, shown=6):
    if len(hosts) <= shown:
        return ", ".join(hosts) or "-"
    return f"{len(hosts)}: {', '.join(hosts[:shown - 1])}, ..., {hosts[-1]}"


def divide_blocks(s):
    moves = list(s["divide"].items())
    if not moves:
        return []
    shown = moves if len(moves) <= 2 * DIVIDE_ENDS else moves[:DIVIDE_ENDS] + [("...", None)] + moves[-DIVIDE_ENDS:]
    rows = [[m, "" if n is None else fmt.count(n)] for m, n in shown]
    return [Paragraph(f"Divide ({len(moves)} root moves, biggest first):"), Table(["move", "nodes"], rows, {1})]


def _runs(s):
    runs = [[r["run"], fmt.count(r["units"]), fmt.count(r["nodes"]), r["ranks"] or "-", fmt.seconds(r["wall_seconds"]),
             fmt.ratio(r["load_balance"])] for r in s["runs"]]
    ranks = [[r["run"], r["rank"], r["host"], fmt.seconds(r["busy_seconds"]), fmt.seconds(r["idle_seconds"]),
              _share(r)] for r in s["ranks"]]
    out = [Paragraph("Runs (run 0 is the first; each --resume adds one):"),
           Table(["run", "units", "nodes", "ranks", "wall", "load balance"], runs, {1, 2, 3, 4, 5})]
    if len(ranks) > MAX_RANK_ROWS:
        out += [_rank_spread(s)]
    elif ranks:
        out += [Table(["run", "rank", "host", "busy", "idle", "busy share"], ranks, {3, 4, 5})]
    return out


MAX_RANK_ROWS = 32  # beyond this, the ranks' times are summarised per run (JSON keeps every rank)


def _rank_spread(s):
    rows = []
    for run in (r["run"] for r in s["runs"] if r["ranks"]):
        mine = [r for r in s["ranks"] if r["run"] == run]
        busy = np.array([r["busy_seconds"] for r in mine])
        idle = np.array([r["idle_seconds"] for r in mine])
        rows.append([run, len(mine), len({r["host"] for r in mine}),
                     " / ".join(fmt.seconds(x) for x in (busy.min(), np.median(busy), busy.max())),
                     " / ".join(fmt.seconds(x) for x in (idle.min(), np.median(idle), idle.max()))])
    return Table(["run", "ranks", "hosts", "busy min / median / max", "idle min / median / max"], rows, {1, 2, 3, 4})


def _share(r):
    whole = r["busy_seconds"] + r["idle_seconds"]
    return fmt.percent(r["busy_seconds"] / whole) if whole > 0 else "-"


def time_table(title, noun, t):
    """The distribution of the times of the units (or buckets) counted."""
    if not t["count"]:
        return []
    row = [fmt.count(t["count"]), fmt.seconds(t["total"]), fmt.seconds(t["min"]), fmt.seconds(t["median"]),
           fmt.seconds(t["p90"]), fmt.seconds(t["max"])]
    return [Paragraph(title), Table([noun, "sum", "min", "median", "p90", "max"], [row], set(range(6)))]


def plots(s, unit_seconds):
    out = []
    if len(unit_seconds):
        out.append(time_histogram(s["path"], unit_seconds, "unit"))
    if s["ranks"]:
        out.append(_busy_idle(s))
    return out


def time_histogram(path, seconds, noun):
    """Seconds per unit (or bucket) on a log scale: their times span orders of magnitude."""
    fig, ax = figures.figure()
    positive = np.maximum(seconds, 1e-7)
    lo, hi = positive.min(), positive.max()
    bins = np.geomspace(lo, hi * 1.0001, 40) if hi > lo else 10
    ax.hist(positive, bins=bins, color=figures.COLORS[0])
    if hi > lo:
        ax.set_xscale("log")
    ax.set_xlabel(f"seconds per {noun} (log scale)")
    ax.set_ylabel(f"{noun}s")
    figures.counts_axis(ax)
    title = f"{noun.capitalize()} times: {path} ({len(seconds)} {noun}s)"
    ax.set_title(title)
    return figures.plot(title, fig)


MAX_RANK_BARS = 48  # beyond this, one bar per rank is unreadable: ranks are drawn as curves


def _busy_idle(s):
    return _busy_idle_bars(s) if len(s["ranks"]) <= MAX_RANK_BARS else _busy_idle_curves(s)


def _busy_idle_curves(s):
    """Per run, busy and idle seconds of every rank, ranks sorted by busy time."""
    fig, ax = figures.figure()
    for i, run in enumerate(r["run"] for r in s["runs"] if r["ranks"]):
        ranks = sorted((r for r in s["ranks"] if r["run"] == run), key=lambda r: -r["busy_seconds"])
        color = figures.COLORS[i % len(figures.COLORS)]
        ax.plot([r["busy_seconds"] for r in ranks], color=color, label=f"run {run} busy")
        ax.plot([r["idle_seconds"] for r in ranks], color=color, linestyle="--", label=f"run {run} idle")
    ax.set_xlabel("ranks, sorted by busy time")
    ax.set_ylabel("seconds")
    ax.legend(fontsize=8)
    title = f"Busy and idle time per rank: {s['path']} ({_balances(s)})"
    ax.set_title(title, fontsize=10)
    return figures.plot(title, fig)


def _balances(s):
    return "load balance " + ", ".join(f"run {r['run']}: {fmt.ratio(r['load_balance'])}" for r in s["runs"] if r["ranks"])


def _busy_idle_bars(s):
    ranks = s["ranks"]
    labels = [f"run {r['run']} rank {r['rank']}\n{r['host']}" for r in ranks]
    busy = [r["busy_seconds"] for r in ranks]
    idle = [r["idle_seconds"] for r in ranks]
    fig, ax = figures.figure(8, 1.2 + 0.45 * len(ranks))
    y = np.arange(len(ranks))
    ax.barh(y, busy, color=figures.COLORS[0], label="busy")
    ax.barh(y, idle, left=busy, color=figures.COLORS[1], alpha=0.6, label="idle")
    figures.label_y(ax, y, labels)
    ax.invert_yaxis()
    ax.set_xlabel("seconds")
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
    title = f"Busy and idle time per rank: {s['path']} ({_balances(s)})"
    ax.set_title(title, fontsize=10)
    return figures.plot(title, fig)


def compare_sections(c):
    rows = [[r["path"], r["depth"], r["ranks"] or "-", r["threads"] or "-", r["runs"],
             f"{fmt.count(r['units_done'])}/{fmt.count(r['units'])}", fmt.count(r["total"]), fmt.seconds(r["seconds"]),
             fmt.rate(r["nodes_per_second"], "nodes"), fmt.ratio(r["load_balance"])] for r in c["files"]]
    return [Heading("perft files side by side"),
            Table(["file", "depth", "ranks", "threads", "runs", "units", "total", "seconds", "nodes/s", "load balance"],
                  rows, {1, 2, 3, 4, 5, 6, 7, 8, 9}),
            totals_agreement(c)]


def totals_agreement(c):
    return Paragraph("The complete files of the same position and depth agree on the total." if c["totals_agree"] else
                     "MISMATCH: complete files of the same position and depth give different totals.")


def compare_plots(c):
    fig, ax = figures.figure(8, 1.2 + 0.5 * len(c["files"]))
    names = [r["path"] for r in c["files"]]
    rates = [(r["nodes_per_second"] or 0) / 1e6 for r in c["files"]]
    y = np.arange(len(names))
    ax.barh(y, rates, color=figures.COLORS[0])
    figures.label_y(ax, y, names)
    ax.invert_yaxis()
    ax.set_xlabel("million nodes per second")
    title = "perft speed per file"
    ax.set_title(title)
    return [figures.plot(title, fig)]
