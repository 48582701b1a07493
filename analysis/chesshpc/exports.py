"""chesshpc export's formats read back, each into one structured array (RECORD) so that an
export can be checked against its source's /positions:

- fen: the position (bullet: the board only, seen by the side to move, as the format keeps it);
- move: UCI (empty in bullet's formats, which keep none); castling as the format writes it;
- score: Stockfish's scale, the side to move's view (mate in N: 32000 - (2N - 1), mated in N:
  -32000 + 2N; 32002 none);
- ply: plies from the game's start as the format counts them (-1 where it keeps none);
- result: the side to move's game result as -1, 0, 1.

Formats, from their published descriptions: Stockfish's .plain ("fen / move / score / ply /
result / e" records) and .bin (40-byte PackedSfenValue, a Huffman board), the .binpack of
Stockfish and nnue-pytorch (chesshpc.binpack), bullet's 32-byte ChessBoard and its text
"FEN | score | result" (White's view).
"""
import numpy as np

from . import binpack
from .errors import EXIT_BAD_INPUT, EXIT_IO, ChesshpcError

RECORD = np.dtype([("fen", object), ("move", object), ("score", np.int32), ("ply", np.int32), ("result", np.int8)])
FORMATS = ("plain", "bin", "binpack", "bullet", "bullet-text")

BIN_RECORD = np.dtype([("sfen", "u1", 32), ("score", "<i2"), ("move", "<u2"), ("ply", "<u2"), ("result", "i1"),
                       ("pad", "u1")])
BULLET_RECORD = np.dtype([("occ", "<u8"), ("pcs", "u1", 16), ("score", "<i2"), ("result", "u1"), ("ksq", "u1"),
                          ("opp_ksq", "u1"), ("extra", "u1", 3)])


def _records(rows):
    out = np.empty(len(rows), dtype=RECORD)
    for i, r in enumerate(rows):
        out[i] = r
    return out


def square(sq):
    return "abcdefgh"[sq % 8] + "12345678"[sq // 8]


def board_fen(squares):
    """squares: 64 characters from a1, '.' empty: the FEN's first field."""
    ranks = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for c in squares[8 * rank:8 * rank + 8]:
            if c == ".":
                empty += 1
                continue
            row += (str(empty) if empty else "") + c
            empty = 0
        ranks.append(row + (str(empty) if empty else ""))
    return "/".join(ranks)


def _ply(fen):
    fields = fen.split()
    return 2 * (int(fields[5]) - 1) + (fields[1] == "b")


def read_plain(data):
    text = data.decode("ascii")
    records = text.split("e\n")
    if records[-1] != "":
        raise ValueError("the last record does not end with 'e'")
    rows = []
    for record in records[:-1]:
        fields = dict(line.split(" ", 1) for line in record.splitlines())
        rows.append((fields["fen"], fields["move"], int(fields["score"]), int(fields["ply"]), int(fields["result"])))
    return _records(rows)


def sfen_fen(data):
    """A 256-bit PackedSfen (bits from bit 0 of byte 0, values least significant bit first)."""
    bits = np.unpackbits(np.frombuffer(data, dtype=np.uint8), bitorder="little")
    at = 0

    def get(n):
        nonlocal at
        v = sum(int(bits[at + i]) << i for i in range(n))
        at += n
        return v

    black = get(1)
    kings = {get(6): "K", get(6): "k"}
    squares = ["."] * 64
    # After a piece's leading 1, three bits (first read lowest): 0 pawn, 1 knight, 2 bishop,
    # 3 rook, 4 queen; then the colour.
    for rank in range(7, -1, -1):
        for file in range(8):
            sq = 8 * rank + file
            if sq in kings:
                squares[sq] = kings[sq]
            elif get(1):
                piece = "pnbrq"[get(3)]
                squares[sq] = piece if get(1) else piece.upper()
    castling = "".join(c for c in "KQkq" if get(1)) or "-"
    ep = square(get(6)) if get(1) else "-"
    rule50 = get(6)
    fullmove = get(8) | get(8) << 8
    rule50 |= get(1) << 6
    return f"{board_fen(squares)} {'b' if black else 'w'} {castling} {ep} {rule50} {fullmove}"


def sf_move(m):
    """Stockfish's 16-bit move: castling is the king taking its rook, written here as
    standard chess's UCI (the king's square)."""
    to, frm, promo, kind = m & 63, m >> 6 & 63, m >> 12 & 3, m >> 14
    if kind == 3:
        to = frm + 2 if to > frm else frm - 2
    return square(frm) + square(to) + ("nbrq"[promo] if kind == 1 else "")


def read_bin(data):
    if len(data) % BIN_RECORD.itemsize:
        raise ValueError(f"{len(data)} bytes are not whole {BIN_RECORD.itemsize}-byte records")
    r = np.frombuffer(data, dtype=BIN_RECORD)
    return _records([(sfen_fen(x["sfen"].tobytes()), sf_move(int(x["move"])), int(x["score"]), int(x["ply"]),
                      int(x["result"])) for x in r])


def read_binpack(data):
    return _records(binpack.read_file(data))


def bullet_board(b):
    """A ChessBoard's board (the side to move's view: its pieces white, its rank 1 first)."""
    squares, occ, idx = ["."] * 64, int(b["occ"]), 0
    while occ:
        sq = (occ & -occ).bit_length() - 1
        nibble = int(b["pcs"][idx // 2]) >> (4 * (idx & 1)) & 15
        squares[sq] = "PNBRQK"[nibble & 7].lower() if nibble & 8 else "PNBRQK"[nibble & 7]
        occ &= occ - 1
        idx += 1
    return board_fen(squares)


def read_bullet(data):
    if len(data) % BULLET_RECORD.itemsize:
        raise ValueError(f"{len(data)} bytes are not whole {BULLET_RECORD.itemsize}-byte records")
    r = np.frombuffer(data, dtype=BULLET_RECORD)
    return _records([(bullet_board(x), "", int(x["score"]), -1, int(x["result"]) - 1) for x in r])


def read_bullet_text(data):
    rows = []
    for line in data.decode("ascii").splitlines():
        fen, score, result = (s.strip() for s in line.split("|"))
        sign = 1 if fen.split()[1] == "w" else -1
        rows.append((fen, "", sign * int(score), -1, sign * int(round(2 * float(result) - 1))))
    return _records(rows)


READERS = {"plain": read_plain, "bin": read_bin, "binpack": read_binpack, "bullet": read_bullet,
           "bullet-text": read_bullet_text}


def mover_board(fen):
    """A FEN's board as bullet keeps it: seen by the side to move (Black's flipped and recoloured)."""
    ranks = fen.split()[0].split("/")
    if fen.split()[1] == "w":
        return fen.split()[0]
    return "/".join(r.swapcase() for r in reversed(ranks))


def read_export(path, fmt=None):
    """The records of an export file as a RECORD array; fmt one of FORMATS, else from the
    file's extension (.plain, .bin, .binpack, .bullet (bullet's binary), .txt: bullet-text)."""
    if fmt is None:
        ext = str(path).rsplit(".", 1)[-1]
        fmt = {"txt": "bullet-text", "bullet-text": "bullet-text"}.get(ext, ext)
    if fmt not in READERS:
        raise ChesshpcError(f"'{path}': no reader for the format '{fmt}' (formats: {', '.join(FORMATS)})",
                            EXIT_BAD_INPUT)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise ChesshpcError(f"cannot read '{path}': {e.strerror}", EXIT_IO)
    try:
        return READERS[fmt](data)
    except (ValueError, KeyError, IndexError, UnicodeError) as e:
        raise ChesshpcError(f"'{path}' is not a {fmt} export: {' '.join(str(e).split())}", EXIT_BAD_INPUT)
