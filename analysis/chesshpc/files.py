"""chesshpc.open: every result file chesshpc writes, recognised by its root attribute `job`.

A file's tables are groups of equal-length datasets, one a column (jobs/io/h5_table.h); they
come back as numpy structured arrays (text as Python str, a 128-bit count as a Python int)
and, on request, pandas DataFrames. Root attributes are `attrs`; the provenance every job
writes is also an attribute of the object (program, version, git_commit, command_line,
host, started, finished, ranks, threads; None when a file lacks one).
"""
import h5py
import numpy as np

from . import board, moves
from .errors import EXIT_BAD_INPUT, EXIT_IO, ChesshpcError
from .h5read import _integer, _text, attr, column, job_of, open_result

PROVENANCE = ("program", "version", "git_commit", "command_line", "host", "started", "finished", "ranks", "threads")
WIDE_COUNTS = ("total",)  # attributes that hold an exact 128-bit count as decimal text
WIDE_COLUMNS = ("nodes",)  # text columns that hold exact 128-bit counts as decimal text


def _value(v):
    if isinstance(v, (bytes, np.bytes_, str)):
        return _text(v)
    if isinstance(v, np.ndarray):
        return v.tolist()
    return v.item() if hasattr(v, "item") else v


class ResultFile:
    """One chesshpc result file, open read-only (close() or use it in a with block)."""

    job = None

    def __init__(self, path, f):
        self.path, self.file = path, f
        self.attrs = {k: attr(f, k, _integer if k in WIDE_COUNTS else _value) for k in f.attrs}
        for k in PROVENANCE:
            setattr(self, k, self.attrs.get(k))

    def close(self):
        self.file.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return f"<chesshpc {self.job} file '{self.path}': tables {', '.join(self.tables)}>"

    @property
    def tables(self):
        return tuple(k for k, g in self.file.items() if isinstance(g, h5py.Group))

    def _group(self, name):
        if name not in self.tables:
            raise ChesshpcError(f"'{self.path}' has no table '{name}'; its tables: {', '.join(self.tables)}",
                                EXIT_BAD_INPUT)
        return self.file[name]

    def columns(self, name):
        return tuple(self._group(name).keys())

    def column(self, table, name, rows=slice(None)):
        """One column: numbers as numpy arrays, text as an object array of str, a 128-bit
        count (text) as an object array of Python ints."""
        g = self._group(table)
        if name not in g:
            raise ChesshpcError(f"'{self.path}': table '{table}' has no column '{name}'", EXIT_BAD_INPUT)
        every = isinstance(rows, slice) and rows == slice(None)
        values = column(g, name) if every else _rows(g, name, rows)
        if name in WIDE_COLUMNS and values.dtype == object:
            return np.array([_integer(v) for v in values], dtype=object)
        return values

    def table(self, name, columns=None, rows=slice(None)):
        """The table as a numpy structured array, a field per column (a 32-byte packed
        position: a field of shape (32,))."""
        names = self.columns(name) if columns is None else tuple(columns)
        data = {c: self.column(name, c, rows) for c in names}
        return _structured(data)

    def frame(self, name, columns=None, rows=slice(None)):
        """The table as a pandas DataFrame (pandas imported here); a multi-byte column such as
        packed becomes one column of byte strings."""
        import pandas as pd

        names = self.columns(name) if columns is None else tuple(columns)
        data = {}
        for c in names:
            v = self.column(name, c, rows)
            data[c] = [bytes(r) for r in v] if v.ndim > 1 else v
        return pd.DataFrame(data)


def _rows(g, name, rows):
    """Some rows of a column, failing as h5read.column fails."""
    d = g[name]
    try:
        if h5py.check_string_dtype(d.dtype) is not None:
            return np.array(d.asstr()[rows], dtype=object)
        return d[rows]
    except OSError as e:
        raise ChesshpcError(f"cannot read '{g.file.filename}': dataset '{d.name}': its data is damaged: "
                            f"{' '.join(str(e).split())}", EXIT_IO)


def _structured(data):
    if not data:
        return np.zeros(0)
    lengths = {len(v) for v in data.values()}
    if len(lengths) != 1:
        raise ChesshpcError(f"columns of different lengths: {sorted(lengths)}", EXIT_BAD_INPUT)
    dtype = [(c, v.dtype, v.shape[1:]) for c, v in data.items()]
    out = np.empty(lengths.pop(), dtype=dtype)
    for c, v in data.items():
        out[c] = v
    return out


class PerftFile(ResultFile):
    """perft --out: `total` (exact int, None until complete), `divide()` {move: nodes}."""

    job = "perft"

    @property
    def complete(self):
        return bool(self.attrs.get("complete", 0))

    @property
    def total(self):
        return self.attrs.get("total") if self.complete else None

    @property
    def fen(self):
        return self.attrs.get("fen")

    @property
    def depth(self):
        return self.attrs.get("depth")

    def divide(self):
        """Each root move's exact count, from the 64-bit halves (nodes_hi * 2**64 + nodes_lo)."""
        if "divide" not in self.tables:
            return {}
        hi, lo = (self.column("divide", c) for c in ("nodes_hi", "nodes_lo"))
        return {m: (int(h) << 64) + int(v) for m, h, v in zip(self.column("divide", "move"), hi, lo)}


class PerftDedupFile(PerftFile):
    job = "perft_dedup"


class PerftEpdFile(ResultFile):
    """perft --epd --out: `counts()` {(line, depth): (expected, nodes)}, `mismatches`."""

    job = "perft_epd"

    @property
    def mismatches(self):
        return int(self.attrs.get("mismatches"))

    def counts(self):
        """Each ';Dn count' checked: (line, depth) -> (the suite's count, chesshpc's), as ints."""
        line, depth, expected, nodes = (self.column("counts", c) for c in ("line", "depth", "expected", "nodes"))
        return {(int(a), int(d)): (int(e), int(n)) for a, d, e, n in zip(line, depth, expected, nodes)}


class DrawstatsFile(ResultFile):
    """drawstats --out: per game `games`, per rule `rules`; rule_counts() {rule: (fired, ended)}."""

    job = "drawstats"
    rules_table = "rules"

    def rule_counts(self):
        t = self.table(self.rules_table, ("name", "fired", "ended"))
        return {r["name"]: (int(r["fired"]), int(r["ended"])) for r in t}


class SelfplayFile(DrawstatsFile):
    """selfplay --out: `games`, `positions` (a row a position before its move), `drawstats`.

    positions() reads as the writer reads a file: the filter columns a file of an earlier
    version lacks (is_capture, gives_check, wdl) derived from packed, move, best and result.
    """

    job = "selfplay"
    rules_table = "drawstats"
    DERIVED = ("is_capture", "gives_check", "wdl")

    def __len__(self):
        return self.file["positions"]["game"].shape[0] if "positions" in self.file else 0

    def column(self, table, name, rows=slice(None)):
        if table == "positions" and name in self.DERIVED and name not in self._group(table):
            return derive_column(self, name, rows)
        return super().column(table, name, rows)

    def columns(self, name):
        have = super().columns(name)
        if name == "positions":
            return have + tuple(c for c in self.DERIVED if c not in have)
        return have

    def positions(self, columns=None, rows=slice(None)):
        return self.table("positions", columns, rows)

    def packed(self, rows=slice(None)):
        return self.column("positions", "packed", rows)

    def planes(self, rows=slice(None)):
        return board.planes(self.packed(rows))

    def fens(self, rows=slice(None)):
        return board.fens(self.packed(rows))

    def moves(self, rows=slice(None), which="move"):
        """from, to, promo arrays of the move played (which="best": the search's best)."""
        return moves.decode(self.column("positions", which, rows))


def derive_column(f, name, rows=slice(None)):
    """A filter column computed as the writer computes it for a file written before it."""
    if name == "wdl":
        result = f.column("positions", "result", rows)
        return np.select([result == 1, result == 0.5, result == 0], [1, 0, -1], 2).astype(np.int32)
    packed = f.packed(rows)
    move = f.column("positions", "move", rows)
    if name == "gives_check":
        return moves.gives_check(packed, move)
    best = f.column("positions", "best", rows)
    best = np.where(best == "", move, best)
    return moves.captures_or_promotes(packed, move) | moves.captures_or_promotes(packed, best)


class VerifyFile(ResultFile):
    job = "verify"


class BenchFile(ResultFile):
    job = "bench"


class RescoreFile(SelfplayFile):
    """rescore --out: a dataset in selfplay's layout, its positions searched again."""

    job = "rescore"


class PositionsFile(SelfplayFile):
    """positions --out: a PGN corpus's positions in selfplay's layout."""

    job = "positions"


class StatsFile(ResultFile):
    """stats --out: a dataset's distributions, a table each."""

    job = "stats"


JOBS = {
    c.job: c
    for c in (PerftFile, PerftDedupFile, PerftEpdFile, DrawstatsFile, SelfplayFile, RescoreFile, PositionsFile,
              StatsFile, VerifyFile, BenchFile)
}


def open(path):  # noqa: A001 (chesshpc.open, as the package's users call it)
    """The result file at path as the object of its job; ChesshpcError for any file that is
    not one chesshpc writes (not readable, not HDF5, no or an unknown `job`)."""
    f = open_result(path)
    try:
        job = job_of(f)
        if job not in JOBS:
            raise ChesshpcError(f"'{path}' holds a '{job}' result, which this package does not know "
                                f"(it reads: {', '.join(sorted(JOBS))})", EXIT_BAD_INPUT)
        return JOBS[job](path, f)
    except BaseException:
        f.close()
        raise
