"""Opening a chesshpc result file and reading its attributes and columns as plain Python."""
import os

import h5py
import numpy as np

from .errors import EXIT_BAD_INPUT, EXIT_IO, ReportError


def open_result(path):
    """The file opened read-only, or ReportError: EXIT_IO when it cannot be read at all,
    EXIT_BAD_INPUT when it is readable but not HDF5."""
    try:
        with open(path, "rb"):
            pass
    except OSError as e:
        raise ReportError(f"cannot read '{path}': {e.strerror}", EXIT_IO)
    if os.path.isdir(path):
        raise ReportError(f"cannot read '{path}': it is a directory", EXIT_IO)
    try:
        return h5py.File(path, "r")
    except OSError:
        raise ReportError(f"'{path}' is not an HDF5 file, so not a chesshpc result file", EXIT_BAD_INPUT)


def job_of(f):
    if "job" not in f.attrs:
        raise ReportError(f"'{f.filename}' is not a chesshpc result file: it has no 'job' attribute", EXIT_BAD_INPUT)
    return text(f.attrs["job"])


def text(value):
    return value.decode() if isinstance(value, bytes) else str(value)


def attr_text(f, name, default=""):
    return text(f.attrs[name]) if name in f.attrs else default


def attr_int(f, name, default=None):
    return int(f.attrs[name]) if name in f.attrs else default


def column(group, name):
    """A dataset as a numpy array; text as str. An absent column is empty."""
    if name not in group:
        return np.array([])
    d = group[name]
    if h5py.check_string_dtype(d.dtype) is not None:
        return np.array(d.asstr()[:], dtype=object)
    return d[:]


def provenance(f):
    keys = ("program", "version", "git_commit", "command_line", "host", "started", "finished", "ranks", "threads")
    return {k: (attr_int(f, k) if k in ("ranks", "threads") else attr_text(f, k)) for k in keys if k in f.attrs}


def number(x):
    """A numpy scalar as a JSON-ready Python number; NaN as None."""
    x = x.item() if hasattr(x, "item") else x
    if isinstance(x, float) and x != x:
        return None
    return x
