"""python-chess drives Protean as a real UCI engine, and as a real XBoard
engine through its XBoard client, through whole games against Stockfish
at its lowest strength, at 10 seconds + 0.1 per move, with the clock kept
here: no illegal move, no crash, no time loss."""
import os

import pytest

import games
import references as ref

GAMES = int(os.environ.get("PROTEAN_GAMES", "2"))


@pytest.mark.parametrize("protocol", ["uci", "xboard"])
def test_whole_games_against_stockfish(protocol):
    for n in range(GAMES):
        game = games.play(protean_white=n % 2 == 0, protocol=protocol)
        assert game.ending not in ("illegal", "time"), (game.ending, game.illegal, game.board.fen())
        assert len(game.board.move_stack) > 10


def test_resident_memory_stays_within_hash_plus_32_mib():
    import subprocess

    hash_mib = 64
    proc = subprocess.Popen([ref.protean_binary()], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        proc.stdin.write(f"uci\nsetoption name Hash value {hash_mib}\nsetoption name Threads value 2\nposition startpos\ngo movetime 3000\n")
        proc.stdin.flush()
        while not proc.stdout.readline().startswith("bestmove"):
            pass
        status = open(f"/proc/{proc.pid}/status").read()
        peak_kib = int(next(l for l in status.splitlines() if l.startswith("VmHWM")).split()[1])
        assert peak_kib <= (hash_mib + 32) * 1024, f"peak resident {peak_kib} KiB"
    finally:
        proc.stdin.write("quit\n")
        proc.stdin.flush()
        proc.wait(timeout=10)
