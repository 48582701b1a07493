"""Two HDF5 files' group read with h5py (no filter plugins: HDF5's built-in deflate and
shuffle) to the same tables: every dataset of the same type, shape, chunks and filters,
and the same values (NaN equal to NaN). Prints one line and exits 0 when they are the
same, else a line per difference and exits 1.

    python3 same_tables.py A.h5 B.h5 GROUP
"""
import sys

import h5py
import numpy


def layout(d):
    return (d.dtype, d.shape, d.chunks, d.compression, d.compression_opts, d.shuffle, d.fletcher32,
            dict(d.attrs))


def same_values(a, b):
    if a.dtype.kind == "f":
        return numpy.array_equal(a, b, equal_nan=True)
    return numpy.array_equal(a, b)


def main(a_path, b_path, group):
    with h5py.File(a_path, "r") as fa, h5py.File(b_path, "r") as fb:
        a, b = fa[group], fb[group]
        differences = []
        if sorted(a) != sorted(b):
            differences.append(f"datasets {sorted(a)} and {sorted(b)}")
        for name in sorted(set(a) & set(b)):
            if layout(a[name]) != layout(b[name]):
                differences.append(f"{name}: {layout(a[name])} and {layout(b[name])}")
            elif not same_values(a[name][()], b[name][()]):
                differences.append(f"{name}: other values")
        for line in differences:
            print(f"/{group}/{line}")
        if differences:
            return 1
        print(f"/{group}: {len(a)} datasets the same, {a[sorted(a)[0]].shape[0]} rows")
        return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
