"""One game between Protean and Stockfish, driven by python-chess with the
clock kept here; shared by the game tests and the strength script."""
import time
from dataclasses import dataclass

import chess
import chess.engine

import references as ref


@dataclass
class Game:
    board: chess.Board
    #: 1.0 Protean won, 0.5 draw, 0.0 Protean lost.
    score: float
    #: Why it ended: "checkmate", "draw", "move limit", "time".
    ending: str
    illegal: str = ""


def play(protean_white, stockfish_elo=None, protocol="uci", base=10.0, inc=0.1, max_moves=150):
    """Plays one game from the standard start. Protean loses on time if its
    clock falls below zero; Stockfish's overruns are ignored (it is the
    reference, not under test)."""
    opener = chess.engine.SimpleEngine.popen_xboard if protocol == "xboard" else chess.engine.SimpleEngine.popen_uci
    protean = opener(ref.protean_binary())
    stockfish = chess.engine.SimpleEngine.popen_uci(ref.stockfish_binary())
    try:
        elo = stockfish.options["UCI_Elo"]
        stockfish.configure({"UCI_LimitStrength": True, "UCI_Elo": stockfish_elo or elo.min, "Threads": 1})
        board = chess.Board()
        clocks = {chess.WHITE: base, chess.BLACK: base}
        engines = {chess.WHITE: protean if protean_white else stockfish, chess.BLACK: stockfish if protean_white else protean}
        while not board.is_game_over(claim_draw=True):
            if board.fullmove_number > max_moves:
                return Game(board, 0.5, "move limit")
            side = board.turn
            limit = chess.engine.Limit(white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK], white_inc=inc, black_inc=inc)
            start = time.monotonic()
            move = engines[side].play(board, limit).move
            clocks[side] -= time.monotonic() - start
            is_protean = engines[side] is protean
            if move is None or move not in board.legal_moves:
                return Game(board, 0.0 if is_protean else 1.0, "illegal", f"{move} in {board.fen()}")
            if is_protean and clocks[side] < 0:
                return Game(board, 0.0, "time")
            clocks[side] += inc
            board.push(move)
        outcome = board.outcome(claim_draw=True)
        if outcome.winner is None:
            return Game(board, 0.5, "draw")
        return Game(board, 1.0 if outcome.winner == protean_white else 0.0, "checkmate")
    finally:
        protean.quit()
        stockfish.quit()
