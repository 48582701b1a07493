"""Numbers and durations as a reader wants them in a table."""


def count(n):
    return "-" if n is None else f"{n:,}"


def plural(n, one):
    """A count and its noun, the noun in the plural unless n is 1: "1 plot", "3 repeats"."""
    return f"{count(n)} {one}{'' if n == 1 else 's'}"


def seconds(s):
    if s is None:
        return "-"
    if s < 0.001:
        return f"{s * 1e6:.1f} µs"
    if s < 1:
        return f"{s * 1000:.1f} ms"
    if s < 120:
        return f"{s:.2f} s"
    m, s = divmod(int(round(s)), 60)
    h, m = divmod(m, 60)
    return f"{h}:{m:02d}:{s:02d}"


def rate(per_second, unit):
    if per_second is None:
        return "-"
    for scale, prefix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if per_second >= scale:
            return f"{per_second / scale:.1f} {prefix}{unit}/s"
    return f"{per_second:.1f} {unit}/s"


def decimal(x, digits=2):
    return "-" if x is None else f"{x:.{digits}f}".rstrip("0").rstrip(".")


def ratio(x):
    return "-" if x is None else f"{x:.2f}"


def percent(x):
    return "-" if x is None else f"{100 * x:.0f}%"


def size(n):
    """Bytes in binary units, as chesshpc's own messages count a MB (2**20 bytes)."""
    if n is None:
        return "-"
    for scale, unit in ((2 ** 40, "TiB"), (2 ** 30, "GiB"), (2 ** 20, "MiB"), (2 ** 10, "KiB")):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n:.0f} B"
