"""What the bench tests share: the published counts a bench file must hold, and reading it."""
import math

import h5py
import numpy as np

# The chessprogramming wiki's "Perft Results", depth 1 first: written out here, not read
# from the program, so that the test checks the program's table too.
PUBLISHED = {
    "start": [20, 400, 8902, 197281, 4865609, 119060324, 3195901860],
    "kiwipete": [48, 2039, 97862, 4085603, 193690690],
    "pos3": [14, 191, 2812, 43238, 674624, 11030083],
    "pos4": [6, 264, 9467, 422333, 15833292],
    "pos5": [44, 1486, 62379, 2103487, 89941194],
    "pos6": [46, 2079, 89890, 3894594, 164075551],
    # Chess960 start position 0: data/chess960.epd, depth 6 by Stockfish 15.1 (UCI_Chess960).
    "chess960": [20, 400, 9006, 201143, 4975808, 121983565],
}
PERFT_BENCHMARKS = {"perft", "perft_threads", "hashed_perft", "cluster_perft", "stockfish_perft"}


def read_table(group):
    """A group of columns as a list of row dicts (text as str, numbers as Python numbers)."""
    columns = {}
    for name, ds in group.items():
        columns[name] = list(ds.asstr()[:]) if h5py.check_string_dtype(ds.dtype) else ds[:].tolist()
    n = len(next(iter(columns.values())))
    assert all(len(c) == n for c in columns.values()), f"columns of {group.name} differ in length"
    return [{k: v[i] for k, v in columns.items()} for i in range(n)]


def check_perft_counts(rows, where):
    """Every perft-type row counts the published number of nodes for its set and depth."""
    checked = 0
    for r in rows:
        if r["benchmark"] in PERFT_BENCHMARKS:
            expected = PUBLISHED[r["set"]][r["depth"] - 1]
            assert r["nodes"] == expected, f"{where}: {r['benchmark']} {r['set']} d{r['depth']}: {r['nodes']} != {expected}"
            checked += 1
    assert checked, f"{where}: no perft rows"
    return checked


def check_summary_medians(measurements, summary, repeats):
    """One summary row per measurement, its medians those of its repeats."""
    assert len(measurements) == repeats * len(summary), (len(measurements), repeats, len(summary))
    for s in summary:
        key = (s["benchmark"], s["set"], s["depth"])
        reps = [m for m in measurements if (m["benchmark"], m["set"], m["depth"]) == key]
        assert sorted(m["repeat"] for m in reps) == list(range(repeats)), key
        assert all(m["nodes"] == s["nodes"] for m in reps), key
        seconds = [m["seconds"] for m in reps]
        nps = [m["nodes_per_second"] for m in reps]
        assert all(math.isclose(m["nodes"] / m["seconds"], m["nodes_per_second"], rel_tol=1e-12) for m in reps), key
        assert math.isclose(s["median_seconds"], float(np.median(seconds)), rel_tol=1e-12), key
        assert s["min_seconds"] == min(seconds) and s["max_seconds"] == max(seconds), key
        assert math.isclose(s["median_nodes_per_second"], float(np.median(nps)), rel_tol=1e-12), key
        assert s["threads"] == reps[0]["threads"] and s["ranks"] == reps[0]["ranks"], key
