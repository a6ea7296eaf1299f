"""Strength against Stockfish with UCI_LimitStrength, the method the README
reports: for each UCI_Elo level, GAMES games at 10 s + 0.1 s a move,
colours alternating, Protean with Hash 32 MiB and one thread, Stockfish
1 thread, both from the standard start (Stockfish's weakened play varies
the games). The score gives an Elo difference with a 95% interval
(normal approximation over game results).

    python3 engine-tests/strength.py --elo 1350 1600 1800 --games 100 --concurrency 2
"""
import argparse
import math
from concurrent.futures import ProcessPoolExecutor

import time

import chess
import chess.engine

import references as ref


def one_game(args):
    elo, game = args
    protean = chess.engine.SimpleEngine.popen_uci(ref.protean_binary())
    stockfish = chess.engine.SimpleEngine.popen_uci(ref.stockfish_binary())
    try:
        stockfish.configure({"UCI_LimitStrength": True, "UCI_Elo": elo, "Threads": 1})
        protean.configure({"Hash": 32, "Threads": 1})
        protean_white = game % 2 == 0
        board = chess.Board()
        clocks = {chess.WHITE: 10.0, chess.BLACK: 10.0}
        engines = {chess.WHITE: protean if protean_white else stockfish, chess.BLACK: stockfish if protean_white else protean}
        while not board.is_game_over(claim_draw=True) and board.fullmove_number <= 200:
            side = board.turn
            limit = chess.engine.Limit(white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK], white_inc=0.1, black_inc=0.1)
            start = time.monotonic()
            move = engines[side].play(board, limit).move
            clocks[side] -= time.monotonic() - start
            if clocks[side] < 0:
                return 0.0 if engines[side] is protean else 1.0
            clocks[side] += 0.1
            board.push(move)
        result = board.result(claim_draw=True)
        if result == "1/2-1/2" or result == "*":
            return 0.5
        white_won = result == "1-0"
        return 1.0 if white_won == protean_white else 0.0
    finally:
        protean.quit()
        stockfish.quit()


def elo(score):
    score = min(max(score, 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / score - 1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--elo", type=int, nargs="+", default=[1350])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--concurrency", type=int, default=2)
    args = parser.parse_args()
    print("| Stockfish UCI_Elo | games | Protean W-D-L | score | Elo difference (95%) |")
    print("| --- | --- | --- | --- | --- |")
    for level in args.elo:
        with ProcessPoolExecutor(args.concurrency) as pool:
            results = list(pool.map(one_game, [(level, g) for g in range(args.games)]))
        n = len(results)
        w, d = results.count(1.0), results.count(0.5)
        mean = sum(results) / n
        sd = math.sqrt(sum((r - mean) ** 2 for r in results) / max(n - 1, 1)) / math.sqrt(n)
        low, high = elo(mean - 1.96 * sd), elo(mean + 1.96 * sd)
        print(f"| {level} | {n} | {w}-{d}-{n - w - d} | {mean:.3f} | {elo(mean):+.0f} ({low:+.0f} .. {high:+.0f}) |", flush=True)


if __name__ == "__main__":
    main()
