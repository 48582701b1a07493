"""A selfplay summary as report blocks: tables for Markdown and HTML, plots for HTML."""
from . import checks, figures, formatting as fmt, rule_stats, rule_stats_view, selfplay
from .blocks import Heading, Paragraph, Table
from chesshpc.h5read import column


def sections(s):
    out = [Heading(f"selfplay: {s['path']}"), Paragraph(_headline(s)), _results(s)]
    if len(s["players"]) > 1:
        out += [Paragraph("Results by player (colours alternate):"), _players(s)]
    if s["pairs"]["pairs"]:
        out += [Paragraph("Game pairs (one opening, colours swapped), by the first player's points over the pair "
                          "(the first player has White in even games; score intervals over pairs):"),
                _pairs(s)]
    if s["sprt"]:
        t = s["sprt"]
        out.append(Paragraph(f"SPRT {t['test']}: LLR {t['llr']:.2f} in [{t['lower']:.2f}, {t['upper']:.2f}] "
                             f"after {fmt.count(t['pairs'])} pairs, decision {t['decision']}."))
    out += [Paragraph("Terminations:"), _terminations(s), Paragraph("Game length in plies (book plies included):"),
            _lengths(s), *_score_by_ply(s), Paragraph("Draw rules of both rulesets on these games:"),
            rule_stats_view.rules_table(s["rules"]), Paragraph("Checks given per game:"), checks.table(s["checks"])]
    return out


def _headline(s):
    st = s["settings"]
    return (f"{fmt.count(s['games'])} games, {fmt.count(s['positions'])} positions; {st['first']} against "
            f"{st['second']}, {st['limits'] or 'no limit'}; ruleset {st['ruleset']}, claims {st['claims']}, "
            f"seed {st['seed']}; {fmt.count(s['perpetual_checks'])} perpetual checks.")


def percent_with_interval(sc):
    if sc["score"] is None:
        return "-"
    return f"{100 * sc['score']:.1f}% ({100 * sc['low']:.1f}-{100 * sc['high']:.1f}%)"


def _results(s):
    r = s["results"]
    row = [fmt.count(r["white_wins"]), fmt.count(r["draws"]), fmt.count(r["black_wins"]), fmt.count(r["void"]),
           percent_with_interval(s["white_score"])]
    return Table(["white wins", "draws", "black wins", "void or error", "White's score (95% interval)"], [row],
                 {0, 1, 2, 3, 4})


def _players(s):
    rows = [[name, fmt.count(p["games"]), fmt.count(p["wins"]), fmt.count(p["draws"]), fmt.count(p["losses"]),
             percent_with_interval(p)] for name, p in s["players"].items()]
    return Table(["player", "games", "wins", "draws", "losses", "score (95% interval)"], rows, {1, 2, 3, 4, 5})


def _pairs(s):
    p = s["pairs"]

    def signed(x):
        return "-" if x is None else f"{x:+.1f}"

    if p["score"] == 1:  # no finite Elo: the interval's low end only, as chesshpc's summary says it
        elo = f"at least {signed(p['elo_low'])} (no finite Elo at a score of 1)"
    elif p["score"] == 0:
        elo = f"at most {signed(p['elo_high'])} (no finite Elo at a score of 0)"
    else:
        elo = f"{signed(p['elo'])} ({signed(p['elo_low'])} to {signed(p['elo_high'])})"
    row = [fmt.count(p["pairs"]), *(fmt.count(p["counts"][k]) for k in selfplay.PAIR_KINDS),
           percent_with_interval(p), elo]
    return Table(["pairs", *selfplay.PAIR_KINDS, "first player's score (95%)", "Elo (95%)"], [row],
                 set(range(len(row))))


def _terminations(s):
    total = sum(s["terminations"].values()) or 1
    rows = [[kind, fmt.count(n), f"{100 * n / total:.1f}%"]
            for kind, n in sorted(s["terminations"].items(), key=lambda kv: -kv[1])]
    return Table(["termination", "games", "share"], rows, {1, 2})


def _lengths(s):
    rows = [[name, fmt.count(q["min"]), fmt.decimal(q["q1"]), fmt.decimal(q["median"]), fmt.decimal(q["q3"]),
             fmt.count(q["max"]), fmt.decimal(q["mean"], 1)]
            for name, q in (("plies", s["lengths"]), ("book plies", s["book_plies"])) if q["games"]]
    return Table(["", "min", "q1", "median", "q3", "max", "mean"], rows, {1, 2, 3, 4, 5, 6})


def _score_by_ply(s):
    b = s["score_by_ply"]
    if not b["buckets"]:
        return []
    rows = [[f"{x['from_ply']}-{x['to_ply']}", fmt.count(x["positions"]), fmt.decimal(x["q1"], 1),
             fmt.decimal(x["median"], 1), fmt.decimal(x["q3"], 1)] for x in b["buckets"]]
    return [Paragraph("Search score in centipawns from White's view, by ply (book moves and mate scores left out):"),
            Table(["plies", "positions", "q1", "median", "q3"], rows, {1, 2, 3, 4})]


def plots(s, f):
    games = f["games"]
    out = [rule_stats_view.endings_plot(f"Terminations: {s['path']}", s["terminations"]),
           _length_histogram(s, games)]
    if s["score_by_ply"]["buckets"]:
        out.append(_score_by_ply_plot(f"Search score by ply: {s['path']}", [(s["path"], s["score_by_ply"])]))
    out.append(rule_stats_view.first_fire_plot(f"First-fire ply per rule (games where it held): {s['path']}",
                                               f["drawstats"], games))
    if any(s["rules"].get(n, {}).get("fired") for n in rule_stats.MOVE_COUNT_RULES):
        out.append(rule_stats_view.move_count_first_fires(
            f"Where the move-count rules would end the games: {s['path']}", games))
    out.append(_checks_histogram(s, games))
    return out


def _checks_histogram(s, games):
    white, black = column(games, "checks_white"), column(games, "checks_black")
    most = max((int(v.max()) for v in (white, black) if len(v)), default=0)
    return figures.overlaid_histograms(f"Checks given per game: {s['path']}", "checks given in the game",
                                       [("White", white), ("Black", black)], min(50, most + 1))  # one bin per count


def _length_histogram(s, games):
    plies = column(games, "plies")
    fig, ax = figures.figure()
    ax.hist(plies, bins=figures.common_bins([plies], 40), color=figures.COLORS[0])
    ax.set_xlabel("plies (book plies included)")
    ax.set_ylabel("games")
    figures.counts_axis(ax)
    title = f"Game lengths: {s['path']}"
    ax.set_title(title)
    return figures.plot(title, fig)


def _score_by_ply_plot(title, series):
    """Median White's score per ply bucket with its quartiles as a light band, per (label,
    score_by_ply): one panel per file side by side on one score scale (overlaid bands blur
    into each other), each file in its own colour, the other files' medians drawn thin and
    grey behind it for comparison."""
    series = [(name, b) for name, b in series if b["buckets"]]
    n = max(1, len(series))
    fig, axes = figures.figure(min(16, 2 + 4 * n), 4, ncols=n, sharey=True, squeeze=False)
    axes = list(axes[0])
    lines = [([(x["from_ply"] + x["to_ply"]) / 2 for x in b["buckets"]], b["buckets"]) for _, b in series]
    for i, ((name, _), (mids, buckets), ax) in enumerate(zip(series, lines, axes)):
        for j, (others, other) in enumerate(lines):
            if j != i:
                ax.plot(others, [x["median"] for x in other], color="#aaa", linewidth=0.8,
                        label="other files' medians" if j == (1 if i == 0 else 0) else None)
        color = figures.COLORS[i % len(figures.COLORS)]
        ax.fill_between(mids, [x["q1"] for x in buckets], [x["q3"] for x in buckets], color=color, alpha=0.15,
                        linewidth=0, label="q1-q3")
        ax.plot(mids, [x["median"] for x in buckets], color=color, marker=".", linewidth=1.8, label="median")
        ax.axhline(0, color="#444", linewidth=0.8)
        ax.set_xlabel("ply")
        ax.set_title(name, fontsize=9)
        ax.legend(fontsize=7, loc="upper left")
    axes[0].set_ylabel("centipawns, White's view")
    fig.suptitle(title, fontsize=10)
    return figures.plot(title, fig)


def compare_sections(c):
    same = "the same openings and seed" if c["same_openings"] else "different openings or seeds (compare with care)"
    labels = c["labels"]
    rows = [[lab, fmt.count(n), fmt.count(r["white_wins"]), fmt.count(r["draws"]), fmt.count(r["black_wins"]),
             fmt.count(r["void"]), percent_with_interval(sc), fmt.decimal(m), fmt.decimal(ch)]
            for lab, n, r, sc, m, ch in zip(labels, c["games"], c["results"], c["white_score"], c["median_length"],
                                            c["checks_per_game"])]
    terms = [[kind] + [fmt.count(n) for n in counts] for kind, counts in c["terminations"].items()]
    return [Heading("selfplay files side by side"),
            Paragraph(f"{len(labels)} files of {same}."),
            Table(["file", "games", "white wins", "draws", "black wins", "void", "White's score (95% interval)",
                   "median plies", "checks per game"], rows, set(range(1, 9))),
            Paragraph("Terminations:"),
            Table(["termination"] + labels, terms, set(range(1, len(labels) + 1))),
            Paragraph("Draw rules of both rulesets on each file's games:"),
            rule_stats_view.compare_table(labels, c["rules"]),
            *rule_stats_view.fifty_against_thirty(labels, c["rules"])]


def compare_plots(c, files):
    labels = c["labels"]
    out = [figures.overlaid_histograms("Game lengths, file by file", "plies (book plies included)",
                                       list(zip(labels, (column(f["games"], "plies") for f in files))), 40),
           _score_by_ply_plot("Search score by ply, file by file",
                              [(lab, selfplay.score_by_ply(f["games"], f["positions"]))
                               for lab, f in zip(labels, files)]),
           figures.grouped_bars("Terminations, file by file", list(c["terminations"]),
                                [(lab, [counts[i] for counts in c["terminations"].values()])
                                 for i, lab in enumerate(labels)], "games"),
           rule_stats_view.ended_side_by_side(labels, c["rules"])]
    if rule_stats.any_move_count_endings(c["rules"]):
        out.append(rule_stats_view.move_count_endings(labels, [f["games"] for f in files]))
    return out
