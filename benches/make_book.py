#!/usr/bin/env python3
"""Writes an EPD opening book (make_book.py [--chess960 | --perfect |
--variant V [--variants FILE]] [--unbalanced [--lead LO HI]] N OUT):
positions after a few random legal plies from the start (or from a
random Chess960 start), kept when a search scores them within 60
centipawns, so that games from them are balanced. With --unbalanced they
are kept when one side is ahead by 100 to 200 centipawns instead (--lead
LO HI: by LO to HI): in a drawish game (Flexichess, One-dimensional
chess) a match from balanced positions is mostly draws and measures
little, so engine testers play unbalanced positions in pairs, colours
swapped (`protean match -repeat`), and count who converts the advantage
more often. A line is an EPD (four fields) where that is the whole
position, else a whole FEN.

Standard chess and Chess960: moves from python-chess, scores from
Stockfish at depth 10. Perfect Chess: moves from Fairy-Stockfish
(pyffish, with the repository's perfect.ini), scores from Protean at
depth 9 (--protean, default the release build), no stronger engine
playing it here. One-dimensional chess, Beyond Chess and Flexichess
(--variant): no other program knows them, so both the moves
(`go perft 1`) and the scores come from Protean; so do they for a
variant of a Fairy-Stockfish INI file (--variants FILE --variant NAME:
Protean loads the file by `VariantPath`), whose unbalanced book
Fairy-Stockfish's own balanced ones do not give. In Flexichess a random
ply is a rule change one time in four (there are three times more
changes than moves at the start, and a book of mostly redefined pieces
would not look like its games). Random with a fixed seed: the same
command writes the same book."""
import argparse, random, shutil, sys

from uci import ROOT, UciEngine


# A book position is kept when a search scores it within this many
# centipawns (a window that `--unbalanced` moves to UNBALANCED).
MAX_CP = 60
UNBALANCED = (100, 200)
WINDOW = (0, MAX_CP)


def balanced(score):
    """Whether a score from `Protean.score` keeps its position in a book:
    within the window (by default, within MAX_CP of level)."""
    return score is not None and score[0] == "cp" and WINDOW[0] <= abs(score[1]) <= WINDOW[1]


class Protean(UciEngine):
    """Protean over UCI: legal moves by `go perft 1`, a score by `go depth`."""

    def __init__(self, path, variant, variants=None):
        path_option = [f"setoption name VariantPath value {variants}"] if variants else []
        super().__init__(path, ["uci", *path_option, f"setoption name UCI_Variant value {variant}"])

    def position(self, moves):
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))

    def legal(self, moves):
        self.position(moves)
        self.send("go perft 1")
        return [l.split(":")[0] for l in self.until("Nodes searched") if l.endswith(": 1")]

    def fen(self, moves):
        self.position(moves)
        self.send("d\nisready")
        return next(l[5:] for l in self.until("readyok") if l.startswith("Fen: "))

    def score(self, moves, depth):
        self.position(moves)
        self.send(f"go depth {depth}")
        last = None
        for line in self.until("bestmove"):
            words = line.split()
            if "score" in words:
                i = words.index("score")
                last = (words[i + 1], int(words[i + 2]))
        return last


def perfect_book(a, rng):
    sys.path.insert(0, str(ROOT / "engine-tests"))
    import pyffish
    from references import load_perfect, perfect_moves
    variant = load_perfect()
    start = pyffish.start_fen(variant)
    engine = Protean(a.protean, "perfect")
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
        if not balanced(engine.score(moves, 9)):
            continue
        seen.add(epd)
        book.append(epd)
    engine.close()
    return book


# Search depth for a book position's score: about a tenth of a second each.
DEPTH = {"onedim": 16, "flexichess": 9, "beyond": 3}
# The same for a variant of an INI file (`--variants`), whatever its size.
FILE_DEPTH = 10


def protean_book(a, rng):
    engine = Protean(a.protean, a.variant, a.variants)
    depth = FILE_DEPTH if a.variants else DEPTH[a.variant]
    seen, book = set(), []
    while len(book) < a.count:
        moves = []
        for _ in range(a.plies):
            legal = engine.legal(moves)
            if not legal:
                break
            changes = [m for m in legal if m[0].isupper() and m[1:2] == "="]
            pieces = [m for m in legal if m not in changes]
            pool = changes if changes and (not pieces or rng.random() < 0.25) else pieces
            moves.append(rng.choice(pool))
        if len(moves) < a.plies:
            continue
        # The whole FEN: the variant's own fields (rule changes, shuttles)
        # are part of the position.
        fen = engine.fen(moves)
        if fen in seen:
            continue
        if not balanced(engine.score(moves, depth)):
            continue
        seen.add(fen)
        book.append(fen)
        print(f"{len(book)}/{a.count}", end="\r", file=sys.stderr, flush=True)
    engine.close()
    return book


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("count", type=int)
    ap.add_argument("out")
    ap.add_argument("--chess960", action="store_true")
    ap.add_argument("--perfect", action="store_true")
    only_protean = ", ".join(sorted(DEPTH))
    ap.add_argument("--variant", help=f"a variant only Protean knows ({only_protean}), or one of --variants")
    ap.add_argument("--variants", metavar="FILE", help="a Fairy-Stockfish INI file that defines --variant")
    ap.add_argument("--protean", default=str(ROOT / "target" / "release" / "protean"))
    ap.add_argument("--plies", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--unbalanced", action="store_true", help="keep positions one side leads by 100-200 cp")
    ap.add_argument("--lead", type=int, nargs=2, metavar=("LO", "HI"), help="with --unbalanced, the lead kept instead (cp)")
    ap.add_argument("--stockfish", default=shutil.which("stockfish") or "/usr/games/stockfish")
    a = ap.parse_args()
    if a.variants and not a.variant:
        ap.error("--variants needs --variant")
    if a.variant and not a.variants and a.variant not in DEPTH:
        ap.error(f"--variant {a.variant}: not a variant only Protean knows ({only_protean}); "
                 "a variant of an INI file needs --variants FILE")
    if a.lead and not a.unbalanced:
        ap.error("--lead needs --unbalanced")
    if a.unbalanced:
        global WINDOW
        WINDOW = tuple(a.lead) if a.lead else UNBALANCED
    rng = random.Random(a.seed)
    if a.perfect or a.variant:
        book = perfect_book(a, rng) if a.perfect else protean_book(a, rng)
        with open(a.out, "w") as f:
            f.write("".join(line + "\n" for line in book))
        return
    import chess, chess.engine
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
            if score.is_mate() or not balanced(("cp", score.score())):
                continue
            seen.add(board.epd())
            book.append(board.epd())
    with open(a.out, "w") as f:
        f.write("".join(line + "\n" for line in book))

if __name__ == "__main__":
    main()
