"""bench/match.py: chesshpc against itself at fixed nodes, 2 pairs. Every game ends by
the rules (checked again here from its moves), each pair plays one opening with both
colours, fixed-node games replay move for move, and the score's bounds are exact where
every game is won or lost.

usage: match_runner.py MATCH_PY CHESSHPC
"""
import importlib.util
import json
import math
import subprocess
import sys


def run_match(script, binary):
    cmd = [sys.executable, script, "--engine", binary, "--opponent", f"{binary} uci", "--pairs", "2",
           "--nodes", "2000", "--concurrency", "2", "--json", "--quiet"]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stderr == "", f"--quiet prints no progress: {r.stderr}"
    return json.loads(r.stdout)


def check_games(summary, binary, openings):
    games = summary["game_list"]
    assert [(g["pair"], g["chesshpc_white"]) for g in games] == [(0, True), (0, False), (1, True), (1, False)]
    assert summary["games"] == 4 and summary["wins"] + summary["draws"] + summary["losses"] == 4, summary
    for g in games:
        moves = g["moves"].split()
        assert moves[:8] == openings[g["pair"]], (g["pair"], moves[:8])
        if g["termination"] == "max plies":
            continue
        r = subprocess.run([binary, "rules", "--moves", g["moves"], "--json"], capture_output=True, text=True)
        ended = json.loads(r.stdout)
        assert (ended["result"], ended["termination"], ended["plies"]) == (g["result"], g["termination"], g["plies"])
        points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[g["result"]]
        assert g["score"] == (points if g["chesshpc_white"] else 1 - points), g


def check_bounds(script):
    spec = importlib.util.spec_from_file_location("match", script)
    match = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(match)
    won = match.summary([1.0] * 50)
    assert won["elo"] is None and won["elo_high"] is None, won
    assert abs(won["elo_low"] - -400 * math.log10(1 / 0.025 ** (1 / 50) - 1)) < 1e-9, won
    lost = match.summary([0.0] * 50)
    assert lost["elo_low"] is None and abs(lost["elo_high"] + won["elo_low"]) < 1e-9, lost
    even = match.summary([1.0, 0.0] * 10)
    assert even["elo"] == 0 and even["elo_low"] == -even["elo_high"] < 0, even


def main(script, binary):
    openings = [line.split() for line in open(script.replace("bench/match.py", "data/openings.txt"))
                if line.strip() and not line.startswith("#")]
    first, second = run_match(script, binary), run_match(script, binary)
    check_games(first, binary, openings)
    assert [g["moves"] for g in first["game_list"]] == [g["moves"] for g in second["game_list"]], \
        "fixed-node games replay move for move"
    check_bounds(script)
    print(f"match.py: 4 self-play games at 2000 nodes, W/D/L {first['wins']}/{first['draws']}/{first['losses']}, "
          "replayed identically")


if __name__ == "__main__":
    main(*sys.argv[1:])
