"""python-chess drives Protean as a real UCI engine through whole games
against Stockfish at its lowest strength, at 10 seconds + 0.1 per move,
with the clock kept here: no illegal move, no crash, no time loss."""
import os
import time

import chess
import chess.engine

import references as ref

GAMES = int(os.environ.get("PROTEAN_UCI_GAMES", "2"))
BASE, INC = 10.0, 0.1


def play_game(protean_white):
    protean = chess.engine.SimpleEngine.popen_uci(ref.protean_binary())
    stockfish = chess.engine.SimpleEngine.popen_uci(ref.stockfish_binary())
    try:
        elo = stockfish.options["UCI_Elo"]
        stockfish.configure({"UCI_LimitStrength": True, "UCI_Elo": elo.min})
        protean.configure({"Hash": 32})
        board = chess.Board()
        clocks = {chess.WHITE: BASE, chess.BLACK: BASE}
        engines = {chess.WHITE: protean if protean_white else stockfish, chess.BLACK: stockfish if protean_white else protean}
        while not board.is_game_over(claim_draw=True) and board.fullmove_number <= 150:
            side = board.turn
            limit = chess.engine.Limit(white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK], white_inc=INC, black_inc=INC)
            start = time.monotonic()
            result = engines[side].play(board, limit)
            clocks[side] -= time.monotonic() - start
            is_protean = engines[side] is protean
            assert result.move is not None, "no move"
            assert result.move in board.legal_moves, f"illegal move {result.move} in {board.fen()}"
            if is_protean:
                assert clocks[side] > 0, f"Protean lost on time at move {board.fullmove_number}"
            clocks[side] += INC
            board.push(result.move)
        return board.result(claim_draw=True), board
    finally:
        protean.quit()
        stockfish.quit()


def test_whole_games_against_stockfish():
    results = []
    for game in range(GAMES):
        result, board = play_game(protean_white=game % 2 == 0)
        results.append(result)
        assert board.fullmove_number > 5
    assert len(results) == GAMES


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
