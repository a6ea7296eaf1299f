#!/usr/bin/env python3
"""Writes an EPD opening book for standard chess or Chess960 (make_book.py
[--chess960] N OUT): positions after a few random legal plies from the start
(or from a random Chess960 start), kept when Stockfish at depth 10 scores
them within 60 centipawns, so that games from them are balanced. Random
with a fixed seed: the same command writes the same book."""
import argparse, random, shutil, chess, chess.engine

def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("count", type=int)
    ap.add_argument("out")
    ap.add_argument("--chess960", action="store_true")
    ap.add_argument("--plies", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--stockfish", default=shutil.which("stockfish") or "/usr/games/stockfish")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    seen, book = set(), []
    with chess.engine.SimpleEngine.popen_uci(a.stockfish) as sf:
        while len(book) < a.count:
            board = chess.Board.from_chess960_pos(rng.randrange(960)) if a.chess960 else chess.Board()
            plies = a.plies if not a.chess960 else a.plies // 2
            for _ in range(plies):
                moves = list(board.legal_moves)
                if not moves:
                    break
                board.push(rng.choice(moves))
            if board.is_game_over() or board.epd() in seen:
                continue
            score = sf.analyse(board, chess.engine.Limit(depth=10))["score"].white()
            if score.is_mate() or abs(score.score()) > 60:
                continue
            seen.add(board.epd())
            book.append(board.epd())
    with open(a.out, "w") as f:
        f.write("".join(line + "\n" for line in book))

if __name__ == "__main__":
    main()
