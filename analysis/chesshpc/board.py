"""Selfplay's 32-byte `packed` positions (core/pack.h) decoded in whole arrays, no loop per row.

Layout (little-endian): bytes 0-7 occupancy (bit s: square s, a1 = 0 ... h8 = 63); bytes 8-23
the occupied squares' pieces in square order, 4 bits each, low nibble first (0-5 white pawn,
knight, bishop, rook, queen, king; 6-11 black); byte 24 bit 0 the side to move (1 black),
bits 1-4 castling rights K, Q, k, q; byte 25 the en-passant square or 255; bytes 26-27 the
half-move clock, 28-29 the full-move number; bytes 30-31 zero for standard chess, for
Chess960 bit 15 set and each held right's rook file in 3 bits (K 0-2, Q 3-5, k 6-8, q 9-11).

Every function takes an N x 32 uint8 array (or anything numpy makes one of) and returns
arrays of N rows. Squares are numbered a1 = 0 ... h8 = 63 throughout; piece codes are the
file's (0-11), EMPTY (12) for an empty square.
"""
import numpy as np

EMPTY = 12
PIECE_LETTERS = "PNBRQKpnbrqk"
CASTLING_BITS = {"K": 1, "Q": 2, "k": 4, "q": 8}
_CHESS960_BIT = 0x8000
_STANDARD_ROOK_FILES = np.array([7, 0, 7, 0], dtype=np.int8)  # h, a, h, a by right K, Q, k, q


def as_packed(packed):
    """packed as an N x 32 uint8 array (a single position becomes one row)."""
    a = np.asarray(packed, dtype=np.uint8)
    if a.ndim == 1:
        a = a.reshape(1, -1)
    if a.ndim != 2 or a.shape[1] != 32:
        raise ValueError(f"packed positions are rows of 32 bytes, not an array of shape {a.shape}")
    return a


def board(packed):
    """N x 64 int8: each square's piece code, EMPTY where there is none."""
    p = as_packed(packed)
    occupied = np.unpackbits(p[:, :8], axis=1, bitorder="little").view(bool)
    nibbles = np.empty((len(p), 32), dtype=np.int8)
    nibbles[:, 0::2] = p[:, 8:24] & 15
    nibbles[:, 1::2] = p[:, 8:24] >> 4
    counts = occupied.sum(axis=1)
    out = np.full((len(p), 64), EMPTY, dtype=np.int8)
    # The nibbles in use, row after row, are the occupied squares' pieces in the same order.
    out.ravel()[np.flatnonzero(occupied)] = nibbles[np.arange(32) < counts[:, None]]
    return out


def planes(packed, dtype=np.uint8):
    """N x 12 x 64: plane c holds 1 on the squares of piece code c (white P N B R Q K, then
    black's), squares a1 = 0 ... h8 = 63, White's view whoever is to move."""
    return planes_of_board(board(packed), dtype)


def planes_of_board(b, dtype=np.uint8):
    """planes() of board()'s N x 64 piece codes."""
    by_code = np.empty((12, len(b), 64), dtype=bool)
    for code in range(12):  # a loop over the 12 planes, each one contiguous pass over every row
        np.equal(b, code, out=by_code[code])
    out = np.ascontiguousarray(by_code.transpose(1, 0, 2))
    return out.view(np.uint8) if np.dtype(dtype) == np.uint8 else out.astype(dtype)


def side_to_move(packed):
    """N uint8: 0 White, 1 Black."""
    return as_packed(packed)[:, 24] & 1


def castling(packed):
    """N uint8: the castling rights as 4 bits, K 1, Q 2, k 4, q 8 (CASTLING_BITS)."""
    return (as_packed(packed)[:, 24] >> 1) & 15


def en_passant(packed):
    """N int8: the en-passant square (only when a capture there is legal), -1 without."""
    ep = as_packed(packed)[:, 25]
    return np.where(ep < 64, ep, 255).astype(np.uint8).view(np.int8)


def halfmove_clock(packed):
    p = as_packed(packed)
    return p[:, 26].astype(np.uint16) | p[:, 27].astype(np.uint16) << 8


def fullmove_number(packed):
    p = as_packed(packed)
    return p[:, 28].astype(np.uint16) | p[:, 29].astype(np.uint16) << 8


def chess960(packed):
    """N bool: a Chess960 (or Double Fischer Random) position, its rights' rooks by file."""
    return (as_packed(packed)[:, 31] & 0x80) != 0


def rook_files(packed):
    """N x 4 int8: the file (0 a ... 7 h) of each castling right's rook, K Q k q, as the file
    stores it: h a h a for standard chess; -1 for a Chess960 right not held."""
    p = as_packed(packed)
    files = p[:, 30].astype(np.uint16) | p[:, 31].astype(np.uint16) << 8
    out = np.broadcast_to(_STANDARD_ROOK_FILES, (len(p), 4)).copy()
    is960 = (files & _CHESS960_BIT) != 0
    rights = castling(p)
    for i in range(4):
        f960 = np.where(rights >> i & 1, (files >> (3 * i)) & 7, -1).astype(np.int8)
        out[:, i] = np.where(is960, f960, out[:, i])
    return out


def decode(packed, with_planes=False):
    """Every field at once, as a dict of arrays: board (N x 64), side, castling, ep, halfmove,
    fullmove, chess960, rook_files (N x 4), and with_planes the planes (N x 12 x 64) made
    from the same board."""
    p = as_packed(packed)
    b = board(p)
    out = {"board": b, "side": side_to_move(p), "castling": castling(p), "ep": en_passant(p),
           "halfmove": halfmove_clock(p), "fullmove": fullmove_number(p), "chess960": chess960(p),
           "rook_files": rook_files(p)}
    if with_planes:
        out["planes"] = planes_of_board(b)
    return out


_DIGITS = None  # every clock value's decimal text, made once


def _digits():
    global _DIGITS
    if _DIGITS is None:
        _DIGITS = np.array([str(i).encode() for i in range(65536)], dtype="S5").view(np.uint8).reshape(65536, 5)
    return _DIGITS


_SQUARE_NAMES = np.array([[ord("a") + s % 8, ord("1") + s // 8] for s in range(64)] + [[ord("-"), 0]],
                         dtype=np.uint8)
_LETTERS = np.frombuffer(b"PNBRQKpnbrqk\0", dtype=np.uint8)  # by piece code, NUL for EMPTY
_FEN_WIDTH = 72 + 2 + 5 + 3 + 6 + 6  # ranks and separators, side, castling, ep, two clocks, each after a space


def castling_field(packed, b=None):
    """N x 4 uint8: the FEN's castling letters, NUL where a right is not held (all NUL: '-').
    X-FEN as chesshpc writes it: K/Q (k/q) for the outermost rook on that side, else the
    rook's file letter; standard chess's is KQkq."""
    p = as_packed(packed)
    b = board(p) if b is None else b
    rights, files = castling(p), rook_files(p).astype(np.int16)
    out = np.zeros((len(p), 4), dtype=np.uint8)
    for i in range(4):
        black = i >= 2
        rooks = np.packbits(b[:, 56:64] == 9 if black else b[:, 0:8] == 3, axis=1, bitorder="little")[:, 0]
        f = np.clip(files[:, i], 0, 7)
        beyond = (np.uint16(0xFF) << (f + 1) & 0xFF) if i % 2 == 0 else ((1 << f) - 1)
        outer = (rooks & beyond) == 0
        letter = np.where(outer, ord("KQ"[i % 2]), ord("A") + f) + (32 if black else 0)
        out[:, i] = np.where(rights >> i & 1, letter, 0)
    return out


def fens(packed):
    """A list of N FEN strings, as chesshpc writes them (Position::fen: X-FEN castling, the
    en-passant square only when a capture there is legal). Made as one buffer of fixed-width
    rows padded with NUL, the padding then dropped in C."""
    p = as_packed(packed)
    n = len(p)
    if n == 0:
        return []
    b = board(p)
    rows = np.zeros((n, _FEN_WIDTH), dtype=np.uint8)
    ranks = b.reshape(n, 8, 8)[:, ::-1, :]
    grid = rows[:, :72].reshape(n, 8, 9)
    grid[:, :, :8] = _rank_text(ranks)
    grid[:, :, 8] = ord("/")
    grid[:, 7, 8] = ord(" ")
    rows[:, 72] = np.where(side_to_move(p), ord("b"), ord("w"))
    rows[:, 73] = ord(" ")
    field = castling_field(p, b)
    rows[:, 74:78] = field
    rows[:, 74] = np.where(field.any(axis=1), rows[:, 74], ord("-"))
    rows[:, 78] = ord(" ")
    ep = p[:, 25]
    rows[:, 79:81] = _SQUARE_NAMES[np.where(ep < 64, ep, 64)]
    rows[:, 81] = ord(" ")
    rows[:, 82:87] = _digits()[halfmove_clock(p)]
    rows[:, 87] = ord(" ")
    rows[:, 88:93] = _digits()[fullmove_number(p)]
    rows[:, 93] = ord("\n")
    return rows.tobytes().translate(None, b"\0").decode("ascii").split("\n")[:-1]


def _rank_text(ranks):
    """N x 8 x 8 piece codes, a rank a row, as FEN text: a piece's letter, a run of empty
    squares as its length's digit on the run's first square and NUL on the others."""
    by_file = np.ascontiguousarray(ranks.transpose(2, 0, 1))  # 8 x N x 8: each file's squares contiguous
    empty = (by_file == EMPTY).view(np.uint8)
    run = np.empty(by_file.shape, dtype=np.uint8)  # empty squares from here to the run's end
    run[7] = empty[7]
    for f in range(6, -1, -1):  # a loop over the files, each over every row at once
        np.add(run[f + 1], 1, out=run[f])
        run[f] *= empty[f]
    first = empty.copy()  # an empty square whose left neighbour is not
    first[1:] &= 1 - empty[:-1]
    text = _LETTERS[by_file]
    text += first * (ord("0") + run)
    return text.transpose(1, 2, 0)
