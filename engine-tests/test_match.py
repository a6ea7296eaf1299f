"""`protean match` between Protean and Stockfish in standard chess: the
games end by the rules, the PGN that Protean writes is read back by
python-chess (an independent PGN reader and move checker), and the score
line agrees with the PGN results."""
import subprocess

import chess.pgn

import references as ref


def test_protean_against_stockfish_with_pgn_read_back_by_python_chess(tmp_path):
    pgn = tmp_path / "protean-match-stockfish.pgn"
    args = [
        ref.protean_binary(), "match",
        "-engine", f"cmd={ref.protean_binary()}", "name=Protean",
        "-engine", f"cmd={ref.stockfish_binary()}", "name=Stockfish",
        "option.UCI_LimitStrength=true", "option.UCI_Elo=1350",
        "-each", "tc=2+0.05", "-games", "2", "-repeat", "-maxmoves", "120",
        "-pgnout", str(pgn), "-ratinginterval", "2",
    ]
    out = subprocess.run(args, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "Finished match" in out.stdout
    results = []
    with open(pgn) as f:
        while (game := chess.pgn.read_game(f)) is not None:
            assert not game.errors, game.errors
            board = game.board()
            for move in game.mainline_moves():
                assert move in board.legal_moves
                board.push(move)
            result = game.headers["Result"]
            results.append((game.headers["White"], result))
            if game.headers["Termination"] == "normal":
                assert board.is_game_over(claim_draw=True) and board.result(claim_draw=True) == result
    assert len(results) == 2
    points = sum({"1-0": 1, "0-1": 0}.get(r, 0.5) if w == "Protean" else {"1-0": 0, "0-1": 1}.get(r, 0.5) for w, r in results)
    wins = sum(1 for w, r in results if (w == "Protean" and r == "1-0") or (w != "Protean" and r == "0-1"))
    assert f"Score of Protean vs Stockfish: {wins} -" in out.stdout
    assert points == wins + 0.5 * sum(1 for _, r in results if r == "1/2-1/2")


def test_chess960_match_against_stockfish_told_uci_chess960(tmp_path):
    """`-variant chess960` without a book plays random start positions;
    Stockfish is told UCI_Chess960 (as cutechess-cli tells it), every game
    ends by the rules or adjudication, and python-chess reads the PGN back
    as Chess960."""
    pgn = tmp_path / "protean-match-chess960.pgn"
    args = [
        ref.protean_binary(), "match", "-variant", "chess960",
        "-engine", f"cmd={ref.protean_binary()}", "name=Protean",
        "-engine", f"cmd={ref.stockfish_binary()}", "name=Stockfish",
        "option.UCI_LimitStrength=true", "option.UCI_Elo=1350",
        "-each", "tc=2+0.05", "-games", "2", "-rounds", "2", "-repeat", "-maxmoves", "120",
        "-pgnout", str(pgn),
    ]
    out = subprocess.run(args, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stdout + out.stderr
    starts = set()
    games = 0
    with open(pgn) as f:
        while (game := chess.pgn.read_game(f)) is not None:
            assert not game.errors, game.errors
            board = game.board()
            assert board.chess960, game.headers
            starts.add(board.fen())
            for move in game.mainline_moves():
                assert move in board.legal_moves
                board.push(move)
            games += 1
            assert game.headers["Result"] in ("1-0", "0-1", "1/2-1/2")
            assert game.headers["Termination"] in ("normal", "adjudication"), game.headers
            if game.headers["Termination"] == "normal":
                assert board.is_game_over(claim_draw=True) and board.result(claim_draw=True) == game.headers["Result"]
    assert games == 4
    assert len(starts) == 2, "each pair of games shares one start position"
