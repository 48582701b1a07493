"""The chesshpc package against the files the built binary writes (fixtures: conftest.py)."""
import os
import shutil
import subprocess
import sys

import h5py
import numpy as np
import pytest

import chesshpc
from chesshpc import board, exports, moves
from chesshpc.errors import EXIT_BAD_INPUT, EXIT_IO
from chesshpc.stream import Filters, PositionStream

from conftest import KIWIPETE, run


def h5_column(path, table, name):
    with h5py.File(path, "r") as f:
        d = f[table][name]
        return d.asstr()[:] if h5py.check_string_dtype(d.dtype) is not None else d[:]


@pytest.mark.parametrize("name", ["sp.h5", "sp960.h5"])
def test_every_row_decodes_to_the_fen_chesshpc_wrote(data, name):
    with chesshpc.open(data[name]) as f:
        want = list(h5_column(data[name], "positions", "fen"))
        assert f.fens() == want
        assert len(want) == f.attrs["positions"] > 100
        fields = [w.split() for w in want]
        p = f.packed()
        assert board.side_to_move(p).tolist() == [s[1] == "b" for s in fields]
        assert board.halfmove_clock(p).tolist() == [int(s[4]) for s in fields]
        assert board.fullmove_number(p).tolist() == [int(s[5]) for s in fields]
        assert [("-" if e < 0 else "abcdefgh"[e % 8] + str(e // 8 + 1)) for e in board.en_passant(p)] == \
            [s[3] for s in fields]
        assert board.chess960(p).all() == (name == "sp960.h5")
        # The planes hold each FEN's pieces, square by square.
        planes = f.planes()
        assert planes.shape == (len(want), 12, 64) and planes.dtype == np.uint8
        assert (planes.sum(axis=1) <= 1).all()
        fields_at_once = board.decode(p, with_planes=True)
        assert (fields_at_once["planes"] == planes).all() and (fields_at_once["side"] == board.side_to_move(p)).all()
        letters = np.array(list(board.PIECE_LETTERS + "."))
        squares = letters[np.where(planes.any(axis=1), planes.argmax(axis=1), 12)]
        assert [exports.board_fen(list(s)) for s in squares] == [s[0] for s in fields]


def test_standard_castling_rights_and_moves_as_arrays(data):
    with chesshpc.open(data["sp.h5"]) as f:
        fields = [w.split()[2] for w in f.column("positions", "fen")]
        got = board.castling(f.packed())
        assert got.tolist() == [sum(v for k, v in board.CASTLING_BITS.items() if k in s) for s in fields]
        uci = f.column("positions", "move")
        frm, to, promo = f.moves()
        assert [moves_text(a, b, c) for a, b, c in zip(frm, to, promo)] == list(uci)


def moves_text(frm, to, promo):
    sq = lambda s: "abcdefgh"[s % 8] + str(s // 8 + 1)  # noqa: E731
    return sq(frm) + sq(to) + moves.PROMOTION_LETTERS[promo].strip()


def test_chess960_castling_as_the_file_stores_it(data):
    with chesshpc.open(data["sp960.h5"]) as f:
        files = board.rook_files(f.packed())
        rights = board.castling(f.packed())
        assert ((files >= 0) == (rights[:, None] >> np.arange(4) & 1).astype(bool)).all()
        start = f.column("games", "start_fen")
        assert set(f.column("games", "variant")) == {"chess960"}
        frm, to, _ = f.moves()
        b = board.board(f.packed())
        rows = np.arange(len(frm))
        king_takes_rook = (b[rows, frm] % 6 == 5) & (b[rows, to] == b[rows, frm] - 2)
        uci = f.column("positions", "move")
        assert all(len(u) == 4 for u in uci[king_takes_rook]) and len(start) == 4


@pytest.mark.parametrize("name", ["sp.h5", "perft.h5", "dedup.h5", "ds.h5", "verify.h5", "bench.h5"])
def test_tables_and_frames_equal_the_h5py_columns(data, name):
    pd = pytest.importorskip("pandas", reason="pandas (Debian's python3-pandas) is not installed")
    with chesshpc.open(data[name]) as f, h5py.File(data[name], "r") as h:
        assert f.job == h.attrs["job"] and f.version == h.attrs["version"] and f.threads == h.attrs["threads"]
        for table in f.tables:
            frame, array = f.frame(table), f.table(table)
            assert list(frame.columns) == list(h[table].keys()) == list(array.dtype.names)
            for name_ in h[table]:
                want = h5_column(data[name], table, name_)
                if name_ == "nodes" and want.dtype == object:
                    want = np.array([int(v) for v in want], dtype=object)
                if want.ndim > 1:
                    assert [bytes(r) for r in want] == list(frame[name_]) and (array[name_] == want).all()
                else:
                    assert pd.Series(want).equals(frame[name_]) or (
                        np.isnan(want).all() if want.dtype.kind == "f" else False), (table, name_)
                    np.testing.assert_array_equal(array[name_], want)


@pytest.mark.parametrize("name", ["perft", "dedup"])
def test_perft_totals_equal_the_json(data, name):
    with chesshpc.open(data[f"{name}.h5"]) as f:
        assert f.job == {"perft": "perft", "dedup": "perft_dedup"}[name]
        assert f.complete and type(f.total) is int
        assert f.total == data[f"{name}.json"]["nodes"] == sum(f.divide().values())
        assert f.total == {"perft": 197281, "dedup": 97862}[name]


def test_perft_epd_counts_read_back(tmp_path):
    """perft --epd --out: each line's published counts and chesshpc's, a wrong one flagged."""
    epd = tmp_path / "suite.epd"
    epd.write_text("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;D3 8902\n"
                   f"{KIWIPETE} ;D1 48 ;D2 2039\n"
                   "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1 ;D1 14 ;D2 190\n")
    out = str(tmp_path / "suite.h5")
    r = subprocess.run([os.environ["CHESSHPC"], "perft", "--epd", str(epd), "--out", out, "--threads", "1", "--quiet"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 1, r.stderr  # one count of the suite is wrong
    with chesshpc.open(out) as f:
        assert isinstance(f, chesshpc.PerftEpdFile) and f.job == "perft_epd"
        assert f.counts() == {(1, 1): (20, 20), (1, 2): (400, 400), (1, 3): (8902, 8902), (2, 1): (48, 48),
                              (2, 2): (2039, 2039), (3, 1): (14, 14), (3, 2): (190, 191)}
        assert f.mismatches == 1 and f.attrs["counts"] == 7 and f.attrs["unreadable"] == 0
        assert list(f.column("counts", "ok")) == [1, 1, 1, 1, 1, 1, 0]


def test_each_export_format_reads_back_equal_to_positions(data, tmp_path):
    with chesshpc.open(data["sp.h5"]) as f:
        p = f.positions(["fen", "move", "score_cp", "mate_in", "result", "ply"])
    kept = ~np.isnan(p["result"])
    score = np.where(p["mate_in"] > 0, 32000 - (2 * p["mate_in"] - 1),
                     np.where(p["mate_in"] < 0, -32000 - 2 * p["mate_in"], np.nan_to_num(p["score_cp"], nan=32002)))
    wdl = np.select([p["result"] == 1, p["result"] == 0.5], [1, 0], -1)
    ply = [2 * (int(s.split()[5]) - 1) + (s.split()[1] == "b") for s in p["fen"]]
    scored = kept & (score != 32002)
    for fmt in exports.FORMATS:
        out = str(tmp_path / f"s.{fmt}")
        run("export", "--format", fmt, data["sp.h5"], "--out", out)
        r = chesshpc.read_export(out, fmt)
        rows = scored if fmt.startswith("bullet") else kept
        assert len(r) == rows.sum() > 100, fmt
        want_fen = [exports.mover_board(s) for s in p["fen"][rows]] if fmt == "bullet" else list(p["fen"][rows])
        assert list(r["fen"]) == want_fen, fmt
        assert r["score"].tolist() == score[rows].astype(int).tolist(), fmt
        assert r["result"].tolist() == wdl[rows].tolist(), fmt
        if not fmt.startswith("bullet"):
            assert list(r["move"]) == list(p["move"][rows]), fmt
            assert r["ply"].tolist() == np.array(ply)[rows].tolist(), fmt


def test_a_file_of_an_earlier_version_reads_as_the_writer_reads_it(data, tmp_path):
    """Variable-length text for fen, move and best, and no filter columns: the columns come
    back as before, the filter columns derived as chesshpc derives them."""
    old = str(tmp_path / "old.h5")
    shutil.copy(data["sp.h5"], old)
    with h5py.File(old, "r+") as h:
        g = h["positions"]
        for c in ("is_capture", "gives_check", "wdl", "time_ms"):
            del g[c]
        for c in ("fen", "move", "best"):
            text = g[c].asstr()[:]
            del g[c]
            g.create_dataset(c, data=text.astype(object), dtype=h5py.string_dtype())
    with chesshpc.open(old) as f, chesshpc.open(data["sp.h5"]) as new:
        names = [c for c in new.columns("positions") if c != "time_ms"]
        a, b = f.positions(names), new.positions(names)
        for c in names:
            np.testing.assert_array_equal(a[c], b[c], err_msg=c)
        assert a["gives_check"].sum() > 5 and a["is_capture"].sum() > 20
    # The stream filters the old file on the derived columns as it filters the new one.
    filters = Filters(skip_captures=True, skip_gives_check=True)
    kept = [np.concatenate([b["index"] for b in PositionStream([p], filters=filters, seed=2).batches()])
            for p in (old, data["sp.h5"])]
    assert kept[0].tolist() == kept[1].tolist() and len(kept[0]) > 100


def test_derived_filter_columns_equal_the_writers_on_chess960(data):
    with chesshpc.open(data["sp960.h5"]) as f:
        p = f.packed()
        m, best = f.column("positions", "move"), f.column("positions", "best")
        np.testing.assert_array_equal(moves.gives_check(p, m), f.column("positions", "gives_check"))
        np.testing.assert_array_equal(moves.captures_or_promotes(p, m) | moves.captures_or_promotes(p, best),
                                      f.column("positions", "is_capture"))


def test_bad_and_foreign_files_raise_one_exception(data, tmp_path):
    text = tmp_path / "notes.txt"
    text.write_text("not a result file\n")
    with pytest.raises(chesshpc.ChesshpcError) as e:
        chesshpc.open(str(text))
    assert str(e.value) == f"'{text}' is not an HDF5 file, so not a chesshpc result file"
    assert e.value.exit_code == EXIT_BAD_INPUT

    foreign = str(tmp_path / "foreign.h5")
    with h5py.File(foreign, "w") as h:
        h.create_dataset("x", data=np.arange(3))
    with pytest.raises(chesshpc.ChesshpcError) as e:
        chesshpc.open(foreign)
    assert str(e.value) == f"'{foreign}' is not a chesshpc result file: it has no 'job' attribute"

    other = str(tmp_path / "other.h5")
    with h5py.File(other, "w") as h:
        h.attrs["job"] = "tablebase"
    with pytest.raises(chesshpc.ChesshpcError) as e:
        chesshpc.open(other)
    assert str(e.value) == (f"'{other}' holds a 'tablebase' result, which this package does not know "
                            "(it reads: bench, drawstats, perft, perft_dedup, perft_epd, positions, rescore, selfplay, "
                            "stats, verify)")

    missing = str(tmp_path / "missing.h5")
    with pytest.raises(chesshpc.ChesshpcError) as e:
        chesshpc.open(missing)
    assert str(e.value) == f"cannot read '{missing}': No such file or directory" and e.value.exit_code == EXIT_IO

    with pytest.raises(chesshpc.ChesshpcError) as e:
        chesshpc.read_export(str(text), "bin")
    assert str(e.value) == f"'{text}' is not a bin export: 18 bytes are not whole 40-byte records"
    with pytest.raises(chesshpc.ChesshpcError) as e:
        PositionStream([data["perft.h5"]])
    assert str(e.value) == f"'{data['perft.h5']}' holds a 'perft' result, not a selfplay dataset"


def test_stream_filters_keep_what_they_name(data):
    every = PositionStream([data["sp.h5"]], batch_size=64, filters=Filters(skip_unscored=False), chunk_rows=50)
    n = len(every)
    with chesshpc.open(data["sp.h5"]) as f:
        p = f.positions(["is_capture", "in_check", "ply", "mate_in", "score_cp"])
    cases = {Filters(skip_unscored=False, skip_captures=True): ~p["is_capture"],
             Filters(skip_unscored=False, min_ply=20): p["ply"] >= 20,
             Filters(skip_mates=True): (p["mate_in"] == 0) & ~np.isnan(p["score_cp"]),
             Filters(max_abs_score=100): (np.abs(p["score_cp"]) <= 100) & (p["mate_in"] == 0),
             Filters(skip_unscored=False, skip_in_check=True): ~p["in_check"]}
    for filters, want in cases.items():
        s = PositionStream([data["sp.h5"]], batch_size=64, filters=filters, chunk_rows=50, seed=4)
        got = np.concatenate([b["index"] for b in s.batches()])
        assert sorted(got.tolist()) == np.nonzero(want)[0].tolist() and 0 < len(got) < n, filters
    b = next(every.batches())
    assert b["planes"].shape == (64, 12, 64) and b["target"].dtype == np.float32


def test_dataloader_workers_read_each_position_once_and_epochs_differ_in_order_only(data):
    torch = pytest.importorskip("torch", reason="PyTorch (Debian's python3-torch) is not installed")
    from chesshpc.training import SelfplayDataset

    paths = [data["sp.h5"], data["sp960.h5"]]
    ds = SelfplayDataset(paths, batch_size=100, seed=7, filters=Filters(skip_unscored=False), chunk_rows=64)
    total = len(ds.stream)
    loader = torch.utils.data.DataLoader(ds, batch_size=None, num_workers=2)

    def epoch(e):
        ds.set_epoch(e)
        return torch.cat([b["index"] for b in loader]).tolist()

    first, second = epoch(0), epoch(1)
    assert sorted(first) == list(range(total)) and total > 1000
    assert second != first and sorted(second) == sorted(first)
    # One process: the same seed and epoch give the same order; another seed another order.
    def alone(seed):
        one = SelfplayDataset(paths, batch_size=100, seed=seed, filters=Filters(skip_unscored=False), chunk_rows=64)
        return torch.cat([b["index"] for b in one]).tolist()
    assert alone(7) == alone(7) != alone(8) and sorted(alone(8)) == sorted(first)
    # Two DDP ranks of one worker each split the same positions between them.
    ranks = [SelfplayDataset(paths, batch_size=100, seed=7, filters=Filters(skip_unscored=False), chunk_rows=64,
                             rank=r, world_size=2) for r in (0, 1)]
    halves = [torch.cat([b["index"] for b in r]).tolist() for r in ranks]
    assert not set(halves[0]) & set(halves[1]) and sorted(halves[0] + halves[1]) == list(range(total))


def test_pandas_and_torch_are_imported_only_when_used(data):
    probe = ("import sys, chesshpc, chesshpc.stream\n"
             f"f = chesshpc.open({data['sp.h5']!r}); f.positions(); f.planes(); f.fens()\n"
             "print(sorted(m for m in ('pandas', 'torch') if m in sys.modules))\n"
             "f.frame('games'); print('pandas' in sys.modules)")
    r = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    if r.returncode and "No module named 'pandas'" in r.stderr:
        pytest.skip("pandas (Debian's python3-pandas) is not installed")
    assert r.returncode == 0, r.stderr
    assert r.stdout == "[]\nTrue\n"


def test_counts_past_64_bits_read_as_exact_ints(data, tmp_path):
    """A total and divide counts past 2**64 (written as decimal text and as 64-bit halves)."""
    wide = str(tmp_path / "wide.h5")
    shutil.copy(data["perft.h5"], wide)
    big = 2**70 + 12345
    with h5py.File(wide, "r+") as h:
        h.attrs["total"] = str(big)
        g = h["divide"]
        hi, lo = g["nodes_hi"][:], g["nodes_lo"][:]
        hi[0], lo[0] = big >> 64, big & (2**64 - 1)
        g["nodes_hi"][:], g["nodes_lo"][:] = hi, lo
        text = g["nodes"].asstr()[:].astype(object)
        text[0] = str(big)
        del g["nodes"]
        g.create_dataset("nodes", data=text, dtype=h5py.string_dtype())
    with chesshpc.open(wide) as f:
        assert f.total == big and type(f.total) is int
        first = f.table("divide")[0]
        assert first["nodes"] == big and f.divide()[first["move"]] == big


def test_datasets_made_by_positions_rescore_and_convert_read_as_selfplay(data, tmp_path):
    """positions, rescore and convert write selfplay's layout under their own job: each opens as a
    dataset whose rows decode to the FENs it stores; stats' file opens as its own job."""
    pgn = str(tmp_path / "games.pgn")
    run("export", "--format", "pgn", data["sp.h5"], "--out", pgn)
    made = {name: str(tmp_path / name) for name in ("pos.h5", "re.h5", "conv.h5", "stats.h5")}
    run("positions", pgn, "--out", made["pos.h5"], "--threads", 1, "--quiet")
    run("rescore", made["pos.h5"], "--out", made["re.h5"], "--depth", 1, "--threads", 1, "--quiet")
    run("convert", made["re.h5"], made["conv.h5"], "--quiet")
    run("stats", made["conv.h5"], "--out", made["stats.h5"], "--quiet")
    with chesshpc.open(data["sp.h5"]) as f:
        played = len(f)
    for name, cls in (("pos.h5", chesshpc.PositionsFile), ("re.h5", chesshpc.RescoreFile),
                      ("conv.h5", chesshpc.SelfplayFile)):
        with chesshpc.open(made[name]) as f:
            assert type(f) is cls, name
            assert len(f) == played, name
            assert list(f.fens()) == list(h5_column(made[name], "positions", "fen")), name
    with chesshpc.open(made["stats.h5"]) as f:
        assert type(f) is chesshpc.StatsFile
    # The stream takes them as datasets: every position once, the rescored ones scored.
    stream = PositionStream([made["pos.h5"], made["re.h5"]], batch_size=4096, filters=Filters(skip_unscored=False))
    assert sum(len(b["index"]) for b in stream.batches()) == 2 * played
    assert sum(len(b["index"]) for b in PositionStream([made["re.h5"]], batch_size=4096).batches()) == played
