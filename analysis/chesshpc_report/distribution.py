"""Many numbers of one kind (seconds per unit, busy seconds or bytes sent per rank) as a
few that read alike for 2 values and for 100,000: a report on 1,000 ranks shows how
their load spreads, not 1,000 rows."""
import numpy as np


def describe(values):
    """count, total, min, median, p90, max, mean, and max/mean: the imbalance, 1 when
    every value is the mean, None when the mean is 0. Integers (bytes, buckets) keep
    their total, min and max exact. Only the count when there are no values."""
    v = np.asarray(values)
    if len(v) == 0:
        return {"count": 0}
    exact = int if np.issubdtype(v.dtype, np.integer) else float
    mean = float(v.mean())
    return {
        "count": int(len(v)),
        "total": exact(v.sum()),
        "min": exact(v.min()),
        "median": float(np.median(v)),
        "p90": float(np.quantile(v, 0.9)),
        "max": exact(v.max()),
        "mean": mean,
        "max_over_mean": float(v.max()) / mean if mean > 0 else None,
    }
