"""chesshpc's result files and datasets in numpy, pandas and PyTorch (docs/python.md).

    import chesshpc
    with chesshpc.open("games.h5") as f:        # any file chesshpc writes, by its job
        planes = f.planes()                     # N x 12 x 64, decoded in whole arrays

Modules: files (open and the job objects), board (the 32-byte packed position), moves
(UCI moves as arrays, derived filter columns), exports (plain, bin, binpack, bullet,
bullet-text read back), binpack (the .binpack reader), torch (the IterableDataset; torch
is imported only there, pandas only by frame()).
"""
from . import board, moves
from .errors import ChesshpcError
from .exports import read_export
from .files import (BenchFile, DrawstatsFile, PerftDedupFile, PerftEpdFile, PerftFile, PositionsFile, RescoreFile,
                    ResultFile, SelfplayFile, StatsFile, VerifyFile, open)

__all__ = ["open", "read_export", "ChesshpcError", "ResultFile", "PerftFile", "PerftDedupFile", "PerftEpdFile",
           "DrawstatsFile", "SelfplayFile", "RescoreFile", "PositionsFile", "StatsFile", "VerifyFile", "BenchFile",
           "board", "moves"]
