"""Selfplay positions streamed in batches for training, in bounded memory, numpy only
(chesshpc.training wraps it as a PyTorch IterableDataset).

The files' /positions rows are cut into chunks of chunk_rows consecutive rows. An epoch
visits every chunk once in an order drawn from (seed, epoch), and each chunk's rows in an
order drawn from (seed, epoch, chunk): so shard k of n (a DataLoader worker of a DDP rank:
k = rank * workers + worker) takes the chunks k, k + n, k + 2n ... of that order, and over
all shards each position is read exactly once per epoch. Memory: one chunk's columns and a
batch.
"""
from dataclasses import dataclass

import numpy as np

from . import board
from .errors import EXIT_BAD_INPUT, ChesshpcError
from .files import SelfplayFile, open as open_file

MATE_SCORE = 32000  # Stockfish's scale: mate in N is 32000 - (2N - 1), mated in N -32000 + 2N


@dataclass(frozen=True)
class Filters:
    """The trainers' filters (nnue-pytorch's and bullet's): a position is skipped when any
    named condition holds. skip_unscored: no search score (a book move)."""

    skip_captures: bool = False  # the move played or the best move captures or promotes
    skip_in_check: bool = False  # the side to move is in check
    skip_gives_check: bool = False  # the move played gives check
    min_ply: int = 0  # positions before this ply of their game
    max_abs_score: float = None  # |score| above this (centipawns, mover's view; mates included)
    skip_mates: bool = False  # a mate score
    skip_unscored: bool = True
    skip_no_result: bool = False  # a game without a result (void)

    def columns(self):
        return ("is_capture", "in_check", "gives_check", "ply", "score_cp", "mate_in", "result")

    def keep(self, c):
        unscored = np.isnan(c["score_cp"]) & (c["mate_in"] == 0)
        drop = np.zeros(len(c["ply"]), dtype=bool)
        if self.skip_captures:
            drop |= c["is_capture"]
        if self.skip_in_check:
            drop |= c["in_check"]
        if self.skip_gives_check:
            drop |= c["gives_check"]
        drop |= c["ply"] < self.min_ply
        if self.max_abs_score is not None:
            drop |= ~unscored & (np.abs(score(c)) > self.max_abs_score)
        if self.skip_mates:
            drop |= c["mate_in"] != 0
        if self.skip_unscored:
            drop |= unscored
        if self.skip_no_result:
            drop |= np.isnan(c["result"])
        return ~drop


def score(c):
    """The mover's score on Stockfish's scale: centipawns, a mate as +-(32000 - plies)."""
    mate = c["mate_in"].astype(np.int64)
    mated = np.where(mate > 0, MATE_SCORE - (2 * mate - 1), -MATE_SCORE + 2 * -mate)
    return np.where(mate != 0, mated, np.nan_to_num(c["score_cp"])).astype(np.float32)


def target(c, wdl_lambda, score_scale):
    """The trainers' mix: lambda * sigmoid(score / scale) + (1 - lambda) * result (0, 0.5, 1),
    the mover's view; a position without a result takes the score's part alone."""
    expected = 1 / (1 + np.exp(-score(c) / score_scale))
    result = np.where(np.isnan(c["result"]), expected, c["result"])
    return (wdl_lambda * expected + (1 - wdl_lambda) * result).astype(np.float32)


def chunks(rows_per_file, chunk_rows):
    """(file, start, stop) of every chunk, file after file."""
    return [(i, s, min(s + chunk_rows, n)) for i, n in enumerate(rows_per_file) for s in range(0, n, chunk_rows)]


def epoch_order(n_chunks, seed, epoch):
    return np.random.default_rng([seed, epoch]).permutation(n_chunks)


class PositionStream:
    """Batches (dicts of numpy arrays) of selfplay positions from one or many files.

    A batch: planes (B x 12 x 64 uint8), side (B), score (B float32, mover's view), result
    (B float32: 1, 0.5, 0; NaN none), target (B float32: the WDL/score mix), index (B int64:
    the position's place in the files taken end to end)."""

    def __init__(self, paths, batch_size=1024, seed=0, filters=Filters(), wdl_lambda=1.0, score_scale=400.0,
                 chunk_rows=65536, shuffle=True):
        self.paths = [paths] if isinstance(paths, (str, bytes)) or hasattr(paths, "__fspath__") else list(paths)
        if not self.paths:
            raise ChesshpcError("no selfplay files to read", EXIT_BAD_INPUT)
        self.rows = []
        for p in self.paths:
            with open_file(p) as f:
                if not isinstance(f, SelfplayFile):
                    raise ChesshpcError(f"'{p}' holds a '{f.job}' result, not a selfplay dataset", EXIT_BAD_INPUT)
                self.rows.append(len(f))
        self.offsets = np.concatenate([[0], np.cumsum(self.rows)]).astype(np.int64)
        self.batch_size, self.seed, self.filters = batch_size, seed, filters
        self.wdl_lambda, self.score_scale, self.chunk_rows, self.shuffle = wdl_lambda, score_scale, chunk_rows, shuffle
        self.epoch = 0

    def __len__(self):
        return int(self.offsets[-1])

    def set_epoch(self, epoch):
        self.epoch = epoch

    def batches(self, shard=0, shards=1):
        all_chunks = chunks(self.rows, self.chunk_rows)
        order = epoch_order(len(all_chunks), self.seed, self.epoch) if self.shuffle else np.arange(len(all_chunks))
        files, buffer, at = {}, None, 0  # rows read and not yet handed out: buffer from row at
        try:
            for k in order[shard::shards]:
                i, start, stop = all_chunks[k]
                if i not in files:
                    files[i] = open_file(self.paths[i])
                rows = self._read(files[i], i, start, stop, k)
                buffer = rows if buffer is None else {n: np.concatenate([v[at:], rows[n]]) for n, v in buffer.items()}
                at = 0
                while len(buffer["index"]) - at >= self.batch_size:
                    yield self._finish({n: v[at:at + self.batch_size] for n, v in buffer.items()})
                    at += self.batch_size
            if buffer is not None and len(buffer["index"]) > at:
                yield self._finish({n: v[at:] for n, v in buffer.items()})
        finally:
            for f in files.values():
                f.close()

    def _read(self, f, i, start, stop, chunk):
        rows = slice(start, stop)
        c = {name: f.column("positions", name, rows) for name in self.filters.columns()}  # derived if absent
        c["packed"] = f.packed(rows)
        c["index"] = np.arange(start, stop, dtype=np.int64) + self.offsets[i]
        keep = np.nonzero(self.filters.keep(c))[0]
        if self.shuffle:
            keep = keep[np.random.default_rng([self.seed, self.epoch, int(chunk)]).permutation(len(keep))]
        return {name: v[keep] for name, v in c.items()}

    def _finish(self, c):
        return {"planes": board.planes(c["packed"]), "side": board.side_to_move(c["packed"]), "score": score(c),
                "result": c["result"].astype(np.float32), "target": target(c, self.wdl_lambda, self.score_scale),
                "index": c["index"]}

