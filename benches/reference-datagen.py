#!/usr/bin/env python3
"""Training data from a reference engine's games against itself.

`protean datagen` writes Protean's own games; a fit to the results of
5,000-node games between two equal Protean builds learns what those games
say, and Protean's Perfect Chess weights came out of such data with a
knight worth less than two pawns in the end game. Fairy-Stockfish plays
Perfect Chess far better (it won 95 of 100 games against Protean at
10+0.1), and Stockfish standard chess, so the results of their games say
more about a position. This plays the reference against itself at a fixed
node count from the variant's book plus random plies, and writes what
datagen writes, one position a line, its FEN and White's result, and
after them the engine's score of the position for White in centipawns
(`... w KQkq - 1 5 [1.0] 37`), kept when the side to move is not in check
and the move played is no capture or promotion and its score no mate.
`protean tune --variant V --data FILE [--score-weight 0.5]` reads it, and
blends the scores into its targets if asked.

    benches/reference-datagen.py --variant perfect --games 3000 --out perfect.txt
        [--engine PATH] [--nodes 5000] [--random-plies 6] [--concurrency 2] [--seed 1]

--variants FILE plays any variant that a Fairy-Stockfish INI file
defines, by its section's name, with Fairy-Stockfish (the file loaded
into it and into pyffish); its games start from --book (a file of FENs),
which the built-in variants take from epd/openings/ when it is not given.

To score data already made (Protean's own games) by the reference
instead, `protean rescore --engine PATH --data OLD --out NEW`.

--score-scale multiplies each score written (rounded to a centipawn):
Stockfish's centipawns run about 1.45 times smaller than Protean's
standard evaluation's units, and a network trained on them unscaled
shrinks the scale the search's margins are set in.

The engine: Fairy-Stockfish for Perfect Chess (target/fairy-stockfish,
which benches/perfect-vs-fairy builds), with engine-tests/reference/
perfect.ini loaded; Stockfish for standard chess. pyffish keeps the game
(legal moves, FENs, the end of the game) with the same definition.
A game ends by the rules, by adjudication once the engine's scores have
had the same side 1,000 centipawns ahead for eight plies, or as a draw
after --max-plies plies (datagen's rules). Progress on standard error
every tenth of the games, and how the games ended at the end.
"""
import argparse
import collections
import multiprocessing
import random
import shutil
import sys
from pathlib import Path

import pyffish
from uci import ROOT, UciEngine

PERFECT_INI = ROOT / "engine-tests" / "reference" / "perfect.ini"
# Protean's name: pyffish's name, the INI file that defines it, the engine.
VARIANTS = {
    "perfect": ("perfectchess9", PERFECT_INI, ROOT / "target" / "fairy-stockfish"),
    "standard": ("chess", None, Path(shutil.which("stockfish") or "/usr/games/stockfish")),
}
VARIANT = None
ADJUDICATE_CP = 1000
ADJUDICATE_PLIES = 8


class Engine(UciEngine):
    """One reference engine speaking UCI, the variant loaded."""

    def __init__(self, binary, ini, hash_mb):
        variant = [f"setoption name VariantPath value {ini}", f"setoption name UCI_Variant value {VARIANT}"]
        super().__init__(binary, (variant if ini else []) + [f"setoption name Hash value {hash_mb}"])

    def new_game(self):
        self.send("ucinewgame", "isready")
        self.until("readyok")

    def best(self, fen, moves, nodes):
        """The move the engine plays and its last score: ('cp', n) or ('mate', n)."""
        self.send(f"position fen {fen} moves {' '.join(moves)}" if moves else f"position fen {fen}",
                  f"go nodes {nodes}")
        lines = self.until("bestmove")
        score = ("cp", 0)
        for line in lines:
            words = line.split()
            if words and words[0] == "info" and "score" in words:
                i = words.index("score")
                score = (words[i + 1], int(words[i + 2]))
        return lines[-1].split()[1], score


def white_to_move(start, moves):
    return (start.split()[1] == "w") == (len(moves) % 2 == 0)


def play(engine, start, nodes, max_plies):
    """One game from `start`: the kept positions' FENs, White's result, how it ended."""
    moves, kept, ahead = [], [], []
    while True:
        # pyffish scores an ended game for the side to move.
        if not pyffish.legal_moves(VARIANT, start, moves):
            mover = pyffish.game_result(VARIANT, start, moves)
            how = "checkmate" if mover else "stalemate"
            break
        ended, mover = pyffish.is_optional_game_end(VARIANT, start, moves)
        if ended:
            how = "draw by rule" if mover == 0 else "other rule"
            break
        if len(moves) >= max_plies:
            return kept, 0.5, "move limit"
        move, (kind, value) = engine.best(start, moves, nodes)
        white = white_to_move(start, moves)
        if kind == "mate":
            value = 100_000 if value > 0 else -100_000
        ahead.append(value if white else -value)
        last = ahead[-ADJUDICATE_PLIES:]
        if len(last) == ADJUDICATE_PLIES and all(v >= ADJUDICATE_CP for v in last):
            return kept, 1.0, "adjudicated"
        if len(last) == ADJUDICATE_PLIES and all(v <= -ADJUDICATE_CP for v in last):
            return kept, 0.0, "adjudicated"
        quiet = (
            kind == "cp"
            and not pyffish.gives_check(VARIANT, start, moves)
            and not pyffish.is_capture(VARIANT, start, moves, move)
            and not move[-1].isalpha()  # a promotion names its piece
        )
        if quiet:
            kept.append((pyffish.get_fen(VARIANT, start, moves), ahead[-1]))
        moves.append(move)
    if mover == 0:
        return kept, 0.5, how
    return kept, 1.0 if (mover > 0) == white_to_move(start, moves) else 0.0, how


ENGINE = None
ARGS = None
BOOK = None


def reference(args):
    """pyffish's name for the variant, the INI file defining it (or None),
    and the reference engine."""
    if args.variants:
        return args.variant, Path(args.variants), ROOT / "target" / "fairy-stockfish"
    return VARIANTS[args.variant]


def start_worker(args):
    """Each worker process: its engine, and the book read once."""
    global ENGINE, ARGS, VARIANT, BOOK
    ARGS = args
    book = Path(args.book) if args.book else ROOT / "epd" / "openings" / f"{args.variant}.epd"
    BOOK = [line.split() for line in book.read_text().splitlines() if line.strip()]
    VARIANT, ini, _ = reference(args)
    if ini:
        pyffish.load_variant_config(ini.read_text())
    ENGINE = Engine(args.engine, ini, args.hash)


def opening(rng, book, plies):
    """A book position and `plies` random moves, drawn again if the game ends."""
    while True:
        start = " ".join(rng.choice(book)[:4] + ["0", "1"])
        moves = []
        for _ in range(plies):
            legal = pyffish.legal_moves(VARIANT, start, moves)
            if not legal:
                break
            moves.append(rng.choice(legal))
        if pyffish.legal_moves(VARIANT, start, moves) and not pyffish.is_optional_game_end(VARIANT, start, moves)[0]:
            return pyffish.get_fen(VARIANT, start, moves)


def one_game(game):
    rng = random.Random(ARGS.seed * 1_000_003 + game)
    start = opening(rng, BOOK, ARGS.random_plies)
    ENGINE.new_game()
    kept, result, how = play(ENGINE, start, ARGS.nodes, ARGS.max_plies)
    return [f"{fen} [{result:.1f}] {written(score)}" for fen, score in kept], how


def written(score):
    """A score as the data file gets it: times --score-scale, rounded."""
    return round(score * ARGS.score_scale)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", required=True,
                        help=f"{', '.join(sorted(VARIANTS))}, or a variant of the --variants file")
    parser.add_argument("--variants", help="a Fairy-Stockfish INI file defining --variant")
    parser.add_argument("--book", help="the games' start positions, one FEN a line (default: epd/openings/VARIANT.epd)")
    parser.add_argument("--engine", help="the reference engine (default: Fairy-Stockfish for perfect and INI variants, Stockfish for standard)")
    parser.add_argument("--games", type=int, required=True)
    parser.add_argument("--nodes", type=int, default=5000)
    parser.add_argument("--random-plies", type=int, default=6)
    parser.add_argument("--max-plies", type=int, default=400)
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--hash", type=int, default=16)
    parser.add_argument("--score-scale", type=float, default=1.0,
                        help="multiply each score written by this (Stockfish's centipawns times 1.45 are near Protean's units)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    if args.variants:
        if not Path(args.variants).exists():
            sys.exit(f"--variants: no file {args.variants}")
        pyffish.load_variant_config(Path(args.variants).read_text())
        if args.variant not in pyffish.variants():
            sys.exit(f"--variant {args.variant}: {args.variants} defines no such variant")
    elif args.variant not in VARIANTS:
        sys.exit(f"--variant {args.variant}: not one of {', '.join(sorted(VARIANTS))} (give --variants FILE for others)")
    elif args.book is None and not (ROOT / "epd" / "openings" / f"{args.variant}.epd").exists():
        sys.exit(f"no book epd/openings/{args.variant}.epd: give --book")
    if args.book and not Path(args.book).exists():
        sys.exit(f"--book: no file {args.book}")
    if args.variants and not args.book:
        sys.exit("--variants: give --book, the games' start positions")
    args.engine = args.engine or str(reference(args)[2])
    if not Path(args.engine).exists():
        sys.exit(f"no engine at {args.engine} (benches/perfect-vs-fairy builds Fairy-Stockfish; apt-get install stockfish)")
    if not args.score_scale > 0:
        sys.exit(f"--score-scale must be above 0, not {args.score_scale}")
    endings = collections.Counter()
    positions = 0
    with open(args.out, "w") as out, multiprocessing.Pool(args.concurrency, start_worker, (args,)) as pool:
        for done, (lines, how) in enumerate(pool.imap_unordered(one_game, range(args.games)), 1):
            out.writelines(line + "\n" for line in lines)
            positions += len(lines)
            endings[how] += 1
            if done % max(1, args.games // 10) == 0 or done == args.games:
                print(f"{done}/{args.games} games, {positions} positions", file=sys.stderr, flush=True)
    print("ended: " + ", ".join(f"{how} {n}" for how, n in endings.most_common()), file=sys.stderr)


if __name__ == "__main__":
    main()
