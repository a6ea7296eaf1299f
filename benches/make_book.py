#!/usr/bin/env python3
"""Writes an EPD opening book for standard chess, Chess960 or Perfect Chess
(make_book.py [--chess960 | --perfect] N OUT): positions after a few random
legal plies from the start (or from a random Chess960 start), kept when
Stockfish at depth 10 scores them within 60 centipawns, so that games from
them are balanced. Perfect Chess moves come from Fairy-Stockfish (pyffish,
with the repository's perfect.ini) and the scores from Protean at depth 9
(--protean, default the release build), no stronger engine playing it
here. Random with a fixed seed: the same command writes the same book."""
import argparse, random, shutil, subprocess, sys
from pathlib import Path
import chess, chess.engine

ROOT = Path(__file__).resolve().parent.parent


def perfect_book(a, rng):
    sys.path.insert(0, str(ROOT / "engine-tests"))
    import pyffish
    from references import load_perfect, perfect_moves
    variant = load_perfect()
    start = pyffish.start_fen(variant)
    engine = subprocess.Popen([a.protean], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def score(moves):
        engine.stdin.write(f"position startpos moves {' '.join(moves)}\ngo depth 9\n")
        engine.stdin.flush()
        last = None
        for line in engine.stdout:
            words = line.split()
            if "score" in words:
                i = words.index("score")
                last = (words[i + 1], int(words[i + 2]))
            if line.startswith("bestmove"):
                return last

    engine.stdin.write("uci\nsetoption name UCI_Variant value perfect\nisready\n")
    engine.stdin.flush()
    seen, book = set(), []
    while len(book) < a.count:
        moves = []
        for _ in range(a.plies):
            legal = perfect_moves(start, tuple(moves))
            if not legal:
                break
            moves.append(rng.choice(sorted(legal)))
        fen = pyffish.get_fen(variant, start, moves)
        epd = " ".join(fen.split()[:4])
        if len(moves) < a.plies or epd in seen:
            continue
        s = score(moves)
        if s is None or s[0] != "cp" or abs(s[1]) > 60:
            continue
        seen.add(epd)
        book.append(epd)
    engine.stdin.write("quit\n")
    engine.stdin.flush()
    return book

def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("count", type=int)
    ap.add_argument("out")
    ap.add_argument("--chess960", action="store_true")
    ap.add_argument("--perfect", action="store_true")
    ap.add_argument("--protean", default=str(ROOT / "target" / "release" / "protean"))
    ap.add_argument("--plies", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--stockfish", default=shutil.which("stockfish") or "/usr/games/stockfish")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    if a.perfect:
        book = perfect_book(a, rng)
        with open(a.out, "w") as f:
            f.write("".join(line + "\n" for line in book))
        return
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
