"""Strength against Stockfish with UCI_LimitStrength, the method of
docs/results.md: for each UCI_Elo level, GAMES games at 10 s + 0.1 s a move,
colours alternating, Protean with Hash 32 MiB and one thread, Stockfish
1 thread, both from the standard start (Stockfish's weakened play varies
the games). The score gives an Elo difference with a 95% interval
(normal approximation over game results).

    python3 engine-tests/strength.py --elo 1350 1600 1800 --games 100 --concurrency 2
"""
import argparse
import math
import sys
from concurrent.futures import ProcessPoolExecutor

import games


def one_game(args):
    level, n = args
    return games.play(protean_white=n % 2 == 0, stockfish_elo=level, base=10.0, inc=0.1, max_moves=200).score


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
            results = []
            # A running tally on stderr: 100 games at a level take an hour or more.
            for r in pool.map(one_game, [(level, g) for g in range(args.games)]):
                results.append(r)
                print(f"UCI_Elo {level}: game {len(results)} of {args.games}, W-D-L "
                      f"{results.count(1.0)}-{results.count(0.5)}-{results.count(0.0)}", file=sys.stderr, flush=True)
        n = len(results)
        w, d = results.count(1.0), results.count(0.5)
        mean = sum(results) / n
        sd = math.sqrt(sum((r - mean) ** 2 for r in results) / max(n - 1, 1)) / math.sqrt(n)
        low, high = elo(mean - 1.96 * sd), elo(mean + 1.96 * sd)
        print(f"| {level} | {n} | {w}-{d}-{n - w - d} | {mean:.3f} | {elo(mean):+.0f} ({low:+.0f} .. {high:+.0f}) |", flush=True)


if __name__ == "__main__":
    main()
