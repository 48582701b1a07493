"""A perft summary as report blocks: tables for Markdown and HTML, plots for HTML."""
import numpy as np

from . import figures, formatting as fmt
from .blocks import Heading, Paragraph, Table

DIVIDE_ENDS = 5  # moves shown at each end of a long divide


def sections(s):
    return [
        Heading(f"perft: {s['path']}"),
        Paragraph(_headline(s)),
        _overview(s),
        *_divide(s),
        *_runs(s),
        *_unit_times(s),
    ]


def _headline(s):
    where = f"`{s['fen']}`, depth {s['depth']}, split depth {s['split_depth']}"
    if not s["complete"]:
        return (f"{where}: incomplete, {fmt.count(s['units_done'])} of {fmt.count(s['units'])} units done, "
                f"{fmt.count(s['units_left'])} left; no total yet.")
    check = {"verified": "verified against the published count",
             "MISMATCH": f"MISMATCH: the published count is {fmt.count(s['published'])}",
             "no published count": "no published count to verify against"}[s["verification"]]
    return f"{where}: total {fmt.count(s['total'])}, {check}."


def _overview(s):
    p = s["provenance"]
    rows = [
        ["total", fmt.count(s["total"]) if s["complete"] else "- (incomplete)"],
        ["verification", s["verification"]],
        ["units done / all", f"{fmt.count(s['units_done'])} / {fmt.count(s['units'])}"],
        ["nodes counted", fmt.count(s["nodes_counted"])],
        ["seconds", f"{fmt.seconds(s['seconds'])} ({s['seconds_source']})"],
        ["nodes/s", fmt.rate(s["nodes_per_second"], "nodes")],
        ["runs", f"{len(s['runs'])}" + (f", {fmt.count(s['units_resumed'])} units from earlier runs" if s["resumed"] else "")],
        ["ranks x threads", f"{p.get('ranks', '-')} x {p.get('threads', '-')}"],
        ["load balance (max/mean busy)", fmt.ratio(s["load_balance"])],
        ["hosts", ", ".join(s["hosts"]) or "-"],
        ["program", f"{p.get('program', '')} {p.get('version', '')} ({p.get('git_commit', '')})"],
        ["started / finished", f"{p.get('started') or '-'} / {p.get('finished') or '-'}"],
    ]
    return Table(["", "value"], rows)


def _divide(s):
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
    if ranks:
        out += [Table(["run", "rank", "host", "busy", "idle", "busy share"], ranks, {3, 4, 5})]
    return out


def _share(r):
    whole = r["busy_seconds"] + r["idle_seconds"]
    return f"{100 * r['busy_seconds'] / whole:.0f}%" if whole > 0 else "-"


def _unit_times(s):
    t = s["unit_seconds"]
    if not t["count"]:
        return []
    row = [fmt.count(t["count"]), fmt.seconds(t["total"]), fmt.seconds(t["min"]), fmt.seconds(t["median"]),
           fmt.seconds(t["p90"]), fmt.seconds(t["max"])]
    return [Paragraph("Unit times:"), Table(["units", "sum", "min", "median", "p90", "max"], [row], set(range(6)))]


def plots(s, unit_seconds):
    out = []
    if len(unit_seconds):
        out.append(_unit_time_histogram(s, unit_seconds))
    if s["ranks"]:
        out.append(_busy_idle(s))
    return out


def _unit_time_histogram(s, seconds):
    fig, ax = figures.figure()
    positive = np.maximum(seconds, 1e-7)
    lo, hi = positive.min(), positive.max()
    bins = np.geomspace(lo, hi * 1.0001, 40) if hi > lo else 10
    ax.hist(positive, bins=bins, color=figures.COLORS[0])
    if hi > lo:
        ax.set_xscale("log")
    ax.set_xlabel("seconds per unit (log scale)")
    ax.set_ylabel("units")
    title = f"Unit times: {s['path']} ({len(seconds)} units)"
    ax.set_title(title)
    return figures.plot(title, fig)


def _busy_idle(s):
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
    balance = ", ".join(f"run {r['run']}: {fmt.ratio(r['load_balance'])}" for r in s["runs"] if r["ranks"])
    title = f"Busy and idle time per rank: {s['path']} (load balance {balance})"
    ax.set_title(title, fontsize=10)
    return figures.plot(title, fig)


def compare_sections(c):
    rows = [[r["path"], r["depth"], r["ranks"] or "-", r["threads"] or "-", r["runs"],
             f"{fmt.count(r['units_done'])}/{fmt.count(r['units'])}", fmt.count(r["total"]), fmt.seconds(r["seconds"]),
             fmt.rate(r["nodes_per_second"], "nodes"), fmt.ratio(r["load_balance"])] for r in c["files"]]
    agree = "The complete files of the same position and depth agree on the total." if c["totals_agree"] else \
        "MISMATCH: complete files of the same position and depth give different totals."
    return [Heading("perft files side by side"),
            Table(["file", "depth", "ranks", "threads", "runs", "units", "total", "seconds", "nodes/s", "load balance"],
                  rows, {1, 2, 3, 4, 5, 6, 7, 8, 9}),
            Paragraph(agree)]


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
