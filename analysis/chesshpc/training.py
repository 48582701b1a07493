"""selfplay datasets as a PyTorch IterableDataset (torch imported here, and only here).

    ds = SelfplayDataset(["a.h5", "b.h5"], batch_size=4096, seed=1, filters=Filters(skip_captures=True))
    loader = torch.utils.data.DataLoader(ds, batch_size=None, num_workers=2)
    for epoch in range(10):
        ds.set_epoch(epoch)
        for batch in loader: ...   # planes B x 12 x 64, side, score, result, target, index

Each item is a whole batch (hence batch_size=None in the DataLoader). The positions are
sharded over the DataLoader's workers and over DDP ranks (rank and world_size given, or
torch.distributed's when it is initialised): each position is read exactly once per epoch,
in the order chesshpc.stream draws from (seed, epoch).
"""
import torch
from torch.utils.data import IterableDataset, get_worker_info

from .stream import Filters, PositionStream  # noqa: F401


class SelfplayDataset(IterableDataset):
    def __init__(self, paths, batch_size=1024, seed=0, filters=Filters(), wdl_lambda=1.0, score_scale=400.0,
                 chunk_rows=65536, shuffle=True, rank=None, world_size=None):
        super().__init__()
        self.stream = PositionStream(paths, batch_size, seed, filters, wdl_lambda, score_scale, chunk_rows, shuffle)
        self.rank, self.world_size = rank, world_size

    def set_epoch(self, epoch):
        """The epoch whose order the next iteration takes (set before each epoch, as with
        DistributedSampler); workers started after it see it."""
        self.stream.set_epoch(epoch)

    def _ranks(self):
        if self.rank is not None:
            return self.rank, self.world_size or 1
        if torch.distributed.is_available() and torch.distributed.is_initialized():
            return torch.distributed.get_rank(), torch.distributed.get_world_size()
        return 0, 1

    def __iter__(self):
        rank, world = self._ranks()
        info = get_worker_info()
        workers, worker = (info.num_workers, info.id) if info else (1, 0)
        for batch in self.stream.batches(rank * workers + worker, world * workers):
            yield {k: torch.from_numpy(v) for k, v in batch.items()}
