"""Protean driven by python-chess's own UCI and XBoard clients, the way
scripts, bots and GUIs built on python-chess drive engines: the limits
and options they send must be answered, never refused or left hanging."""
import random

import chess
import chess.engine
import pytest

import references as ref


@pytest.fixture
def xboard():
    engine = chess.engine.SimpleEngine.popen_xboard(ref.protean_binary(), timeout=10)
    yield engine
    engine.quit()


@pytest.fixture
def uci():
    engine = chess.engine.SimpleEngine.popen_uci(ref.protean_binary(), timeout=10)
    yield engine
    engine.quit()


def test_xboard_play_with_a_time_per_move(xboard):
    board = chess.Board()
    for _ in range(6):
        result = xboard.play(board, chess.engine.Limit(time=0.2))
        assert result.move in board.legal_moves
        board.push(result.move)


def test_xboard_depth_then_a_deeper_analysis(xboard):
    board = chess.Board()
    result = xboard.play(board, chess.engine.Limit(depth=5))
    assert result.move in board.legal_moves
    board.push(result.move)
    # `sd 5` from the play must not cap the analysis that follows.
    info = xboard.analyse(board, chess.engine.Limit(depth=8))
    assert info["depth"] >= 8
    assert info["pv"][0] in board.legal_moves


def test_uci_play_at_limited_strength(uci):
    low = uci.options["UCI_Elo"].min
    uci.configure({"UCI_LimitStrength": True, "UCI_Elo": low})
    board = chess.Board()
    for _ in range(10):
        result = uci.play(board, chess.engine.Limit(time=0.1))
        assert result.move in board.legal_moves
        board.push(result.move)
    uci.configure({"Skill Level": 0, "UCI_LimitStrength": False})
    assert uci.play(board, chess.engine.Limit(depth=10)).move in board.legal_moves


@pytest.mark.parametrize("seed", [1, 2])
def test_chess960_game_against_stockfish(uci, seed):
    """python-chess tells both engines UCI_Chess960 and reads castling as
    king-takes-rook; every move of the game must be legal to it."""
    rng = random.Random(seed)
    board = chess.Board.from_chess960_pos(rng.randrange(960))
    stockfish = chess.engine.SimpleEngine.popen_uci(ref.stockfish_binary())
    try:
        stockfish.configure({"UCI_LimitStrength": True, "UCI_Elo": 1350})
        engines = {chess.WHITE: uci, chess.BLACK: stockfish} if seed % 2 else {chess.WHITE: stockfish, chess.BLACK: uci}
        while not board.is_game_over(claim_draw=True) and board.fullmove_number <= 120:
            move = engines[board.turn].play(board, chess.engine.Limit(time=0.05)).move
            assert move in board.legal_moves, f"{move} in {board.fen()}"
            board.push(move)
    finally:
        stockfish.quit()
    # The game ran to its end by the rules or to the move cap; Stockfish at
    # 1350 can lose quickly (a smothered mate at move 4 has happened), so
    # the length alone says nothing.
    assert board.move_stack
    assert board.outcome(claim_draw=True) is not None or board.fullmove_number > 120


def test_xboard_chess960_castles_as_o_o(xboard):
    """XBoard's fischerandom: castling goes both ways as O-O and O-O-O."""
    board = chess.Board("4k3/8/8/8/8/8/8/1R2K1R1 w GB - 0 1", chess960=True)
    castles = [m for m in board.legal_moves if board.is_castling(m)]
    assert len(castles) == 2
    for move in castles:
        b = board.copy()
        b.push(move)
        # The engine reads the castling (sent as O-O or O-O-O) and answers.
        assert xboard.play(b, chess.engine.Limit(depth=3)).move in b.legal_moves
