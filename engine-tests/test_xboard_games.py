"""python-chess's XBoard client drives Protean through whole games against
Stockfish (as a UCI engine at its lowest strength) at 10 s + 0.1 s a move:
no illegal move, no crash, no time loss."""
import os

import games

GAMES = int(os.environ.get("PROTEAN_XBOARD_GAMES", "2"))


def test_whole_games_over_xboard():
    for n in range(GAMES):
        game = games.play(protean_white=n % 2 == 1, protocol="xboard")
        assert game.ending not in ("illegal", "time"), (game.ending, game.illegal, game.board.fen())
        assert len(game.board.move_stack) > 10
