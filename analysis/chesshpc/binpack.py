"""A .binpack reader, written from the format's published description (Stockfish's
docs/binpack.md on its tools branch, and the reader nnue-pytorch trains with), sharing no
code with chesshpc's C++ codec: read_file(bytes) gives every entry as (FEN, move, score, ply,
result), score and result from the side to move.
"""

PIECES = "pnbrqk"  # a piece is (colour 0 white / 1 black, index in PIECES)
KNIGHT_STEPS = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
KING_STEPS = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]
DIAGONALS = [(1, 1), (-1, 1), (1, -1), (-1, -1)]
LINES = [(1, 0), (-1, 0), (0, 1), (0, -1)]
# Castling rights lost by a move from or to these squares.
RIGHTS_OF_SQUARE = {0: "Q", 4: "KQ", 7: "K", 56: "q", 60: "kq", 63: "k"}


def name(sq):
    return "abcdefgh"[sq % 8] + str(sq // 8 + 1)


def step(sq, df, dr):
    f, r = sq % 8 + df, sq // 8 + dr
    return r * 8 + f if 0 <= f < 8 and 0 <= r < 8 else None


def unzigzag(u):
    """The format's signed-to-unsigned mapping undone: 0, 1, 2, 3 ... are 0, -1, 1, -2 ..."""
    return -((u + 1) // 2) if u & 1 else u // 2


def wrap16(v):
    return (v + 0x8000) % 0x10000 - 0x8000


def used_bits(n):
    """Bits for an index below n: none for one choice."""
    return (n - 1).bit_length() if n > 1 else 0


class Board:
    def __init__(self):
        self.sq = [None] * 64
        self.side = 0
        self.rights = ""
        self.ep = None
        self.rule50 = 0
        self.ply = 0

    def copy(self):
        b = Board()
        b.sq, b.side, b.rights, b.ep, b.rule50, b.ply = list(self.sq), self.side, self.rights, self.ep, self.rule50, self.ply
        return b

    def fen(self):
        rows = []
        for r in range(7, -1, -1):
            row, empty = "", 0
            for f in range(8):
                p = self.sq[r * 8 + f]
                if p is None:
                    empty += 1
                    continue
                if empty:
                    row, empty = row + str(empty), 0
                row += PIECES[p[1]].upper() if p[0] == 0 else PIECES[p[1]]
            rows.append(row + (str(empty) if empty else ""))
        rights = "".join(c for c in "KQkq" if c in self.rights) or "-"
        ep = name(self.ep) if self.ep is not None else "-"
        return f"{'/'.join(rows)} {'wb'[self.side]} {rights} {ep} {self.rule50} {self.ply // 2 + 1}"

    def ours(self, colour):
        return [s for s in range(64) if self.sq[s] is not None and self.sq[s][0] == colour]

    def slide(self, sq, directions):
        out = []
        for df, dr in directions:
            t = step(sq, df, dr)
            while t is not None:
                out.append(t)
                if self.sq[t] is not None:
                    break
                t = step(t, df, dr)
        return out

    def attacks(self, sq, kind):
        if kind == 1:
            return [t for t in (step(sq, *d) for d in KNIGHT_STEPS) if t is not None]
        if kind == 5:
            return [t for t in (step(sq, *d) for d in KING_STEPS) if t is not None]
        return self.slide(sq, {2: DIAGONALS, 3: LINES, 4: DIAGONALS + LINES}[kind])

    def attacked(self, sq, by):
        for s in self.ours(by):
            kind = self.sq[s][1]
            if kind == 0:
                if sq in (step(s, -1, 1 - 2 * by), step(s, 1, 1 - 2 * by)):
                    return True
            elif sq in self.attacks(s, kind):
                return True
        return False

    def king(self, colour):
        return next(s for s in range(64) if self.sq[s] == (colour, 5))

    def targets(self, frm):
        """The destinations a move of the piece on frm is numbered among, and how many codes."""
        us, kind = self.sq[frm]
        if kind == 0:
            up = 1 - 2 * us
            to = [t for t in (step(frm, -1, up), step(frm, 1, up))
                  if t is not None and (t == self.ep or (self.sq[t] is not None and self.sq[t][0] != us))]
            one = step(frm, 0, up)
            if self.sq[one] is None:
                to.append(one)
                two = step(one, 0, up)
                if frm // 8 == (1 if us == 0 else 6) and self.sq[two] is None:
                    to.append(two)
            to.sort()
            return to, len(to) * (4 if frm // 8 == (6 if us == 0 else 1) else 1)
        to = sorted(t for t in self.attacks(frm, kind) if self.sq[t] is None or self.sq[t][0] != us)
        castlings = sum(c in self.rights for c in ("KQ" if us == 0 else "kq")) if kind == 5 else 0
        return to, len(to) + castlings

    def play(self, move):
        """The position after a move (frm, to, kind, promotion), kind one of normal,
        promotion, enpassant, castling (the king's origin and its rook's square)."""
        frm, to, kind, promo = move
        b = self.copy()
        us, piece = self.sq[frm]
        b.rule50 += 1
        if piece == 0 or (kind != "castling" and self.sq[to] is not None):
            b.rule50 = 0
        b.sq[frm] = None
        if kind == "castling":
            rank = 0 if us == 0 else 56
            b.sq[to] = None
            b.sq[rank + (6 if to > frm else 2)] = (us, 5)
            b.sq[rank + (5 if to > frm else 3)] = (us, 3)
        else:
            b.sq[to] = (us, promo if kind == "promotion" else piece)
            if kind == "enpassant":
                b.sq[to - 8 * (1 - 2 * us)] = None
        for s in (frm, to):
            b.rights = "".join(c for c in b.rights if c not in RIGHTS_OF_SQUARE.get(s, ""))
        b.side, b.ply, b.ep = 1 - us, self.ply + 1, None
        if piece == 0 and abs(to - frm) == 16:
            behind = (to + frm) // 2
            for s in (step(to, -1, 0), step(to, 1, 0)):
                # Kept only when an en-passant capture is legal, as FEN identity wants.
                if s is not None and b.sq[s] == (b.side, 0):
                    after = b.copy()
                    after.sq[s], after.sq[to], after.sq[behind] = None, None, (b.side, 0)
                    if not after.attacked(after.king(b.side), us):
                        b.ep = behind
        return b

    def uci(self, move):
        frm, to, kind, promo = move
        if kind == "castling":
            to = (to // 8) * 8 + (6 if to > frm else 2)
        return name(frm) + name(to) + (PIECES[promo] if kind == "promotion" else "")


class Bits:
    """A movetext's bits, from the highest of each byte down."""

    def __init__(self, data, at):
        self.data, self.bit = data, at * 8

    def get(self, n):
        v = 0
        for _ in range(n):
            v = v << 1 | (self.data[self.bit // 8] >> (7 - self.bit % 8) & 1)
            self.bit += 1
        return v

    def end(self):
        return (self.bit + 7) // 8


def read_stem(data, at):
    b = Board()
    occupied = int.from_bytes(data[at:at + 8], "big")
    squares = [s for s in range(64) if occupied >> s & 1]
    for n, s in enumerate(squares):
        code = data[at + 8 + n // 2] >> (4 * (n % 2)) & 15
        if code < 12:
            b.sq[s] = (code & 1, code >> 1)  # colour in the low bit, the type above
        elif code == 12:  # the pawn that just stepped twice, with the en-passant square behind it
            b.sq[s] = (0, 0) if s // 8 == 3 else (1, 0)
            b.ep = s - 8 if s // 8 == 3 else s + 8
        elif code in (13, 14):  # a rook with its castling right
            colour = code - 13
            b.sq[s] = (colour, 3)
            b.rights += ("K" if s % 8 == 7 else "Q") if colour == 0 else ("k" if s % 8 == 7 else "q")
        else:  # 15: the black king, black to move
            b.sq[s], b.side = (1, 5), 1
    move = int.from_bytes(data[at + 24:at + 26], "big")
    score = unzigzag(int.from_bytes(data[at + 26:at + 28], "big"))
    ply_result = int.from_bytes(data[at + 28:at + 30], "big")
    b.ply = ply_result & 0x3FFF
    b.rule50 = int.from_bytes(data[at + 30:at + 32], "big")
    decoded = None
    if move:
        kind = ["normal", "promotion", "castling", "enpassant"][move >> 14]
        decoded = (move >> 8 & 63, move >> 2 & 63, kind, (move & 3) + 1)
    return b, decoded, score, unzigzag(ply_result >> 14)


def read_move(b, bits):
    ours = b.ours(b.side)
    frm = ours[bits.get(used_bits(len(ours)))]
    to, codes = b.targets(frm)
    code = bits.get(used_bits(codes))
    kind = b.sq[frm][1]
    if kind == 5 and code >= len(to):
        queen_side = "Q" if b.side == 0 else "q"
        long = code == len(to) and queen_side in b.rights
        return (frm, (0 if b.side == 0 else 56) + (0 if long else 7), "castling", 1)
    if kind == 0 and codes == 4 * len(to):
        return (frm, to[code // 4], "promotion", 1 + code % 4)
    return (frm, to[code], "enpassant" if kind == 0 and to[code] == b.ep else "normal", 1)


def read_score(bits, last):
    delta, shift = 0, 0
    while True:
        block = bits.get(5)
        delta |= (block & 15) << shift
        shift += 4
        if not block & 16:
            return wrap16(last + unzigzag(delta))


def read_file(data):
    """Every entry as (fen, uci move, score, ply, result)."""
    entries, at = [], 0
    while at < len(data):
        assert data[at:at + 4] == b"BINP", at
        size = int.from_bytes(data[at + 4:at + 8], "little")
        chunk, at = data[at + 8:at + 8 + size], at + 8 + size
        assert len(chunk) == size
        c = 0
        while c < size:
            b, move, score, result = read_stem(chunk, c)
            plies = int.from_bytes(chunk[c + 32:c + 34], "big")
            entries.append((b.fen(), b.uci(move) if move else "0000", score, b.ply, result))
            bits = Bits(chunk, c + 34)
            for _ in range(plies):
                b = b.play(move)
                result = -result
                move = read_move(b, bits)
                score = read_score(bits, -score)
                entries.append((b.fen(), b.uci(move), score, b.ply, result))
            c = bits.end() if plies else c + 34
    return entries
