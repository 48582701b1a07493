"""Opening a chesshpc result file and reading its attributes and columns as plain Python: the
one low-level reader of the package and of chesshpc-report. Every failure is a ChesshpcError
with one line naming the file (EXIT_IO: HDF5 cannot read it; EXIT_BAD_INPUT: readable, but
not what a chesshpc file holds)."""
import os

import h5py
import numpy as np

from .errors import EXIT_BAD_INPUT, EXIT_IO, ChesshpcError


def open_result(path):
    """The file opened read-only, or ChesshpcError: EXIT_IO when it cannot be read at all,
    EXIT_BAD_INPUT when it is readable but not HDF5."""
    try:
        with open(path, "rb"):
            pass
    except OSError as e:
        raise ChesshpcError(f"cannot read '{path}': {e.strerror}", EXIT_IO)
    if os.path.isdir(path):
        raise ChesshpcError(f"cannot read '{path}': it is a directory", EXIT_IO)
    try:
        return h5py.File(path, "r")
    except OSError:
        raise ChesshpcError(f"'{path}' is not an HDF5 file, so not a chesshpc result file", EXIT_BAD_INPUT)


def job_of(f):
    job = attr_text(f, "job", None)
    if job is None:
        raise ChesshpcError(f"'{f.filename}' is not a chesshpc result file: it has no 'job' attribute", EXIT_BAD_INPUT)
    return job


def _one_line(e):
    return " ".join(str(e).split())


def _text(value):
    """h5py gives fixed-size text as bytes, and variable-length UTF-8 text as str whose bytes
    that were not UTF-8 became lone surrogates: both are checked."""
    try:
        if isinstance(value, (bytes, np.bytes_)):
            return bytes(value).decode("utf-8")
        if isinstance(value, str):
            value.encode("utf-8")
            return str(value)
    except UnicodeError:
        raise ValueError("bytes that are not UTF-8 text") from None
    raise TypeError(f"{_kind(value)} where text is expected")


def _integer(value):
    if isinstance(value, (bool, int, np.integer, np.bool_)):
        return int(value)
    if isinstance(value, (str, bytes, np.bytes_)):  # exact totals past 2^64 are written as decimal text
        digits = _text(value)
        if digits.strip().lstrip("-").isdigit():
            return int(digits)
        raise ValueError(f"'{digits[:40]}' where an integer is expected")
    raise TypeError(f"{_kind(value)} where an integer is expected")


def _real(value):
    if isinstance(value, (bool, int, float, np.integer, np.floating, np.bool_)):
        return float(value)
    raise TypeError(f"{_kind(value)} where a number is expected")


def _kind(value):
    if isinstance(value, np.ndarray):
        return f"an array of shape {value.shape}"
    return f"a value of type {type(value).__name__}"


def attr(f, name, convert, default=None):
    """The attribute name of f (a file or group) through convert (_text, _integer, _real or
    a function of the text), default when f has no such attribute. Every attribute the
    report reads comes through here: one that cannot be read ends the report with one
    line naming the file and the attribute, EXIT_IO when HDF5 cannot read it, EXIT_BAD_INPUT
    when its value is not of the kind expected (another type, an array, bytes that are not
    UTF-8)."""
    where = f"'{f.file.filename}': attribute '{name}'" + ("" if f.name == "/" else f" of '{f.name}'")
    try:
        if name not in f.attrs:
            return default
        value = f.attrs[name]
    except OSError as e:
        raise ChesshpcError(f"cannot read {where}: {_one_line(e)}", EXIT_IO)
    except (TypeError, ValueError) as e:  # h5py decoding text that is not UTF-8, an unknown type
        raise ChesshpcError(f"{where} cannot be read as a value: {_one_line(e)}", EXIT_BAD_INPUT)
    try:
        return convert(value)
    except (TypeError, ValueError, OverflowError) as e:
        raise ChesshpcError(f"{where} is bad: {_one_line(e)}", EXIT_BAD_INPUT)


def attr_text(f, name, default=""):
    return attr(f, name, _text, default)


def attr_int(f, name, default=None):
    return attr(f, name, _integer, default)


def attr_real(f, name, default=None):
    return attr(f, name, _real, default)


def column(group, name):
    """A dataset as a numpy array; text as str. An absent column is empty. Like attr, a
    column that cannot be read ends the report with one line naming the file and the
    dataset."""
    if name not in group:
        return np.array([])
    d = group[name]
    where = f"'{group.file.filename}': dataset '{d.name}'"
    try:
        if h5py.check_string_dtype(d.dtype) is not None:
            return np.array(d.asstr()[:], dtype=object)
        return d[:]
    except OSError as e:  # HDF5 cannot read a damaged dataset (a chunk that no longer inflates)
        raise ChesshpcError(f"cannot read {where}: its data is damaged: {_one_line(e)}", EXIT_IO)
    except (TypeError, ValueError) as e:
        raise ChesshpcError(f"{where} cannot be read: {_one_line(e)}", EXIT_BAD_INPUT)


def provenance(f):
    keys = ("program", "version", "git_commit", "command_line", "host", "started", "finished", "ranks", "threads")
    return {k: (attr_int(f, k) if k in ("ranks", "threads") else attr_text(f, k)) for k in keys if k in f.attrs}


def number(x):
    """A numpy scalar as a JSON-ready Python number; NaN as None."""
    x = x.item() if hasattr(x, "item") else x
    if isinstance(x, float) and x != x:
        return None
    return x
