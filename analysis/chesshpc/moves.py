"""UCI moves (the selfplay dataset's fixed-length `move` and `best`, numpy S5) as arrays, and
the trainers' filter columns of files written before they existed, in whole arrays.

Castling is decoded as the file stores it: e1g1 in standard chess, the king taking its own
rook (e1h1) in Chess960 and Double Fischer Random (the game's `variant`).
"""
import numpy as np

from . import board as boards

PROMOTION_LETTERS = " nbrq"  # promo: 0 none, 1 knight, 2 bishop, 3 rook, 4 queen
_PROMO = np.zeros(256, dtype=np.int8)
for _i, _c in enumerate(PROMOTION_LETTERS[1:], 1):
    _PROMO[ord(_c)] = _i


def _as_s5(moves):
    a = np.asarray(moves)
    if a.dtype.kind == "U" or a.dtype == object:
        a = np.char.encode(a.astype("U5"), "ascii")
    return np.ascontiguousarray(a.astype("S5"))


def decode(moves):
    """from, to (int8 squares, a1 = 0; -1 where the text is no move, e.g. '' or 0000) and promo
    (int8: 0 none, 1 knight, 2 bishop, 3 rook, 4 queen) of an array of UCI moves."""
    c = _as_s5(moves).view(np.uint8).reshape(-1, 5).astype(np.int16)
    files, ranks = c[:, [0, 2]] - ord("a"), c[:, [1, 3]] - ord("1")
    ok = ((files >= 0) & (files < 8) & (ranks >= 0) & (ranks < 8)).all(axis=1)
    squares = np.where(ok[:, None], files + 8 * ranks, -1).astype(np.int8)
    return squares[:, 0].copy(), squares[:, 1].copy(), _PROMO[c[:, 4]]


def captures_or_promotes(packed, moves, b=None):
    """N bool: the move takes a piece (en passant too) or promotes, as the file's is_capture
    holds it for one move (a king taking its own rook is castling, no capture)."""
    p = boards.as_packed(packed)
    b = boards.board(p) if b is None else b
    frm, to, promo = decode(moves)
    ok = frm >= 0
    rows = np.arange(len(p))
    mover = boards.side_to_move(p).astype(np.int8)
    target = b[rows, np.where(ok, to, 0)]
    piece = b[rows, np.where(ok, frm, 0)]
    enemy = (target != boards.EMPTY) & (target // 6 != mover)
    en_passant = (piece % 6 == 0) & (to.astype(np.int16) == np.where(p[:, 25] < 64, p[:, 25], -1))
    return ok & (enemy | en_passant | (promo > 0))


_FILE_A, _FILE_H = np.uint64(0x0101010101010101), np.uint64(0x8080808080808080)
_DIRECTIONS = ((8, 0), (-8, 0), (1, _FILE_A), (-1, _FILE_H), (9, _FILE_A), (7, _FILE_H), (-7, _FILE_A), (-9, _FILE_H))


def _shift(bb, step, wrap):
    """Every bit moved one step (+8 north ...), those that wrapped round a board edge dropped:
    wrap is the file a step east may not land on (A) or west (H)."""
    out = bb << np.uint64(step) if step > 0 else bb >> np.uint64(-step)
    return out & ~np.uint64(wrap) if wrap else out


def _bitboards(b):
    """N x 13 uint64: a bitboard per piece code (the 13th: empty squares)."""
    bits = np.uint64(1) << np.arange(64, dtype=np.uint64)
    return np.stack([np.where(b == code, bits, np.uint64(0)).sum(axis=1, dtype=np.uint64) for code in range(13)], axis=1)


def gives_check(packed, moves):
    """N bool: the move played gives check, found on bitboards for every row at once (the
    position after the move: the piece moved or promoted, a capture's piece and an en-passant
    pawn removed, castling's king and rook on their squares)."""
    p = boards.as_packed(packed)
    b = boards.board(p).copy()
    n, rows = len(p), np.arange(len(p))
    frm, to, promo = decode(moves)
    ok = frm >= 0
    frm, to = np.where(ok, frm, 0).astype(np.intp), np.where(ok, to, 0).astype(np.intp)
    mover = boards.side_to_move(p).astype(np.int8)
    piece = b[rows, frm]
    target = b[rows, to]
    castle = (piece % 6 == 5) & ((target == piece - 2) | (np.abs(to - frm) == 2) & (frm % 8 == 4))
    # The rook of a castling: the square the king takes (Chess960's form) or the corner (e1g1).
    rook_from = np.where(target == piece - 2, to, np.where(to > frm, frm - frm % 8 + 7, frm - frm % 8))
    king_side = rook_from > frm
    king_to = np.where(king_side, 6, 2) + frm - frm % 8
    rook_to = np.where(king_side, 5, 3) + frm - frm % 8
    en_passant = (piece % 6 == 0) & (to == np.where(p[:, 25] < 64, p[:, 25], -1)) & (target == boards.EMPTY)
    placed = np.where(promo > 0, promo + 6 * mover, piece)
    after = b
    after[rows, frm] = boards.EMPTY
    after[rows[en_passant], (to + np.where(mover == 0, -8, 8))[en_passant]] = boards.EMPTY
    c = rows[castle]
    after[c, rook_from[castle]] = boards.EMPTY
    after[rows[~castle], to[~castle]] = placed[~castle]
    after[c, king_to[castle]] = piece[castle]
    after[c, rook_to[castle]] = piece[castle] - 2
    bb = _bitboards(after)
    occupied = ~bb[:, boards.EMPTY]
    side = np.where(mover == 0, 0, 6)
    own = lambda t: bb[rows, side + t]  # noqa: E731
    king = bb[rows, 11 - side]  # the opponent's king
    attacked = np.zeros(n, dtype=np.uint64)
    pawn_steps = np.where(mover == 0, 1, -1)
    pawns = own(0)
    for df, wrap in ((1, _FILE_A), (-1, _FILE_H)):
        up = _shift(pawns, 8 + df, wrap)
        down = _shift(pawns, -8 + df, wrap)
        attacked |= np.where(pawn_steps > 0, up, down)
    knights = own(1)
    for step, wrap in ((17, _FILE_A), (15, _FILE_H), (10, _FILE_A | _FILE_A << np.uint64(1)),
                       (6, _FILE_H | _FILE_H >> np.uint64(1)), (-6, _FILE_A | _FILE_A << np.uint64(1)),
                       (-10, _FILE_H | _FILE_H >> np.uint64(1)), (-15, _FILE_A), (-17, _FILE_H)):
        attacked |= _shift(knights, step, wrap)
    kings = own(5)
    for step, wrap in _DIRECTIONS:
        attacked |= _shift(kings, step, wrap)
    lines, diagonals = own(3) | own(4), own(2) | own(4)
    for i, (step, wrap) in enumerate(_DIRECTIONS):
        ray = lines if i < 4 else diagonals
        for _ in range(7):
            ray = _shift(ray, step, wrap)
            attacked |= ray
            ray &= ~occupied
    return ok & ((attacked & king) != 0)
