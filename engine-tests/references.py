"""The references Protean is checked against, and Protean itself, as
Python helpers: Stockfish over UCI (`go perft`), Fairy-Stockfish through
pyffish with engine-tests/reference/perfect.ini, and random positions
reached by random legal play in the reference's own move generator.
"""
import os
import random
import shutil
import subprocess
from pathlib import Path

import pyffish

ROOT = Path(__file__).resolve().parent.parent
# Fairy-Stockfish's definition of Perfect Chess, kept in the repository so
# that a fresh clone runs its tests (it once read a folder beside it).
PERFECT_INI = ROOT / "engine-tests" / "reference" / "perfect.ini"
FSF_PERFECT = "perfectchess9"


def protean_binary():
    path = os.environ.get("PROTEAN_BIN", ROOT / "target" / "release" / "protean")
    return str(path)


def stockfish_binary():
    found = shutil.which("stockfish") or "/usr/games/stockfish"
    if not Path(found).exists():
        raise RuntimeError("Stockfish is not installed (apt-get install stockfish)")
    return found


class Stockfish:
    """One Stockfish process answering `go perft` for many positions."""

    def __init__(self):
        self.proc = subprocess.Popen([stockfish_binary()], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.wait_for("uciok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, prefix):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("Stockfish exited")
            if line.startswith(prefix):
                return line.strip()

    def perft(self, fen, depth):
        self.send(f"position fen {fen}")
        self.send(f"go perft {depth}")
        return int(self.wait_for("Nodes searched").split(":")[1])

    def divide(self, fen, depth):
        """Stockfish's count below each root move, by its UCI text."""
        self.send(f"position fen {fen}")
        self.send(f"go perft {depth}")
        counts = {}
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("Stockfish exited")
            if line.startswith("Nodes searched"):
                return counts
            move, _, count = line.partition(":")
            if count.strip().isdigit():
                counts[move.strip()] = int(count)

    def close(self):
        self.send("quit")
        self.proc.wait(timeout=10)


_loaded = False


def load_perfect():
    global _loaded
    if not _loaded:
        pyffish.load_variant_config(PERFECT_INI.read_text())
        _loaded = True
    return FSF_PERFECT


def _cell(file, rank):
    return f"{chr(ord('a') + file)}{rank + 1}"


def _pieces(fen):
    """(file, rank, letter) for every piece of a FEN, multi-digit runs included."""
    rows = fen.split()[0].split("/")
    for i, row in enumerate(rows):
        rank = len(rows) - 1 - i
        file = 0
        digits = ""
        for c in row + " ":
            if c.isdigit():
                digits += c
                continue
            file += int(digits or 0)
            digits = ""
            if c != " ":
                yield file, rank, c
                file += 1


def _is_castling(fen, move):
    # Only castling moves a king three files along its back rank.
    frm, to = move[:2], move[2:]
    if frm not in ("e1", "e9") or to not in ("b1", "h1", "b9", "h9") or frm[1] != to[1]:
        return False
    cell = (4, int(frm[1]) - 1)
    return any((f, r) == cell and c in ("K", "k") for f, r, c in _pieces(fen))


def _with_king_on(fen, king_from, king_to):
    """The FEN with the side to move's king lifted from `king_from` and put
    on `king_to` (replacing what stood there)."""
    fields = fen.split()
    grid = {(f, r): c for f, r, c in _pieces(fen)}
    grid[king_to] = grid.pop(king_from)
    rows = []
    for r in range(8, -1, -1):
        row, empty = "", 0
        for f in range(9):
            c = grid.get((f, r))
            if c is None:
                empty += 1
                continue
            row += (str(empty) if empty else "") + c
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return " ".join(["/".join(rows), fields[1], "-", "-", "0", "1"])


def _castle_cell_attacked(fen, move):
    """RULINGS.md, Perfect Chess 4: the castle's own cell must not be
    attacked. Fairy-Stockfish does not check that cell, so ask it whether a
    king standing on the castle's cell would be in check (which counts
    pinned attackers, as attack does). Lifting the king off e1/e9 can only
    open its own rank, and a line along it that reached the castle would
    already attack the king's cell."""
    rank = int(move[1]) - 1
    rook = (0 if move[2] == "b" else 8, rank)
    return pyffish.gives_check(FSF_PERFECT, _with_king_on(fen, (4, rank), rook), [])


def perfect_moves(fen, path=()):
    """Legal Perfect Chess moves by Fairy-Stockfish after `path` from
    `fen`, with the castling difference of RULINGS.md applied."""
    v = load_perfect()
    moves = pyffish.legal_moves(v, fen, list(path))
    if not any(m[:2] in ("e1", "e9") and m[2:] in ("b1", "h1", "b9", "h9") for m in moves):
        return moves
    here = pyffish.get_fen(v, fen, list(path)) if path else fen
    return [m for m in moves if not (_is_castling(here, m) and _castle_cell_attacked(here, m))]


def perfect_perft(fen, depth, path=()):
    moves = perfect_moves(fen, path)
    if depth == 1:
        return len(moves)
    return sum(perfect_perft(fen, depth - 1, path + (m,)) for m in moves)


def random_positions(variant, count, seed, max_plies=60):
    """Positions reached by random legal play from the start, in the
    reference's move generator; positions without legal moves are skipped.
    `variant` is Protean's `standard` or `perfect`, or a variant pyffish
    has by that name (one loaded from a file)."""
    v = load_perfect() if variant == "perfect" else "chess" if variant == "standard" else variant
    rng = random.Random(seed)
    start = pyffish.start_fen(v)
    seen = set()
    out = []
    # Each pyffish call costs a position's setup (over a millisecond), so
    # a game is kept as its moves from the start and read as a FEN once.
    while len(out) < count:
        path = []
        for _ in range(rng.randrange(0, max_plies)):
            moves = perfect_moves(start, tuple(path)) if variant == "perfect" else pyffish.legal_moves(v, start, path)
            if not moves:
                break
            path.append(rng.choice(moves))
        moves = perfect_moves(start, tuple(path)) if variant == "perfect" else pyffish.legal_moves(v, start, path)
        fen = pyffish.get_fen(v, start, path) if path else start
        if moves and fen not in seen:
            seen.add(fen)
            out.append(fen)
    return out


def chess960_positions(count, seed):
    """Chess960 positions by python-chess: random start positions, half of
    them with the pieces between king and rooks taken off (so that the
    castlings are legal, blocked or attacked in every layout), then a few
    random legal plies. As X-FEN and, every other one, Shredder-FEN."""
    import chess

    rng = random.Random(seed)
    out, seen = [], set()
    while len(out) < count:
        board = chess.Board.from_chess960_pos(rng.randrange(960))
        if rng.random() < 0.5:
            for square in list(chess.SquareSet(chess.BB_RANK_1 | chess.BB_RANK_8)):
                piece = board.piece_at(square)
                if piece and piece.piece_type not in (chess.KING, chess.ROOK) and rng.random() < 0.8:
                    board.remove_piece_at(square)
        for _ in range(rng.randrange(0, 16)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if board.is_game_over() or not board.is_valid():
            continue
        fen = board.fen(shredder=len(out) % 2 == 1)
        if fen not in seen:
            seen.add(fen)
            out.append(fen)
    return out


def protean_divide(variant, fen, depth, variants_file=None):
    """Protean's count below each root move; `variants_file` is loaded
    first (`--variants`) for a variant defined in a file."""
    loads = ["--variants", str(variants_file)] if variants_file else []
    out = subprocess.run(
        [protean_binary(), "perft", *loads, "--variant", variant, "--fen", fen, "--depth", str(depth), "--divide"],
        capture_output=True, text=True, timeout=120,
    )
    if out.returncode != 0:
        raise RuntimeError(f"protean perft failed on {fen}: {out.stderr.strip()}")
    counts = {}
    for line in out.stdout.splitlines():
        move, _, count = line.partition(":")
        if count.strip().isdigit() and not move.startswith("Nodes"):
            # One text is one move: a text given twice would hide a count.
            if move.strip() in counts:
                raise RuntimeError(f"protean perft gave {move.strip()} twice on {fen}")
            counts[move.strip()] = int(count)
    return counts


def protean_perft(variant, fen, depth):
    out = subprocess.run(
        [protean_binary(), "perft", "--variant", variant, "--fen", fen, "--depth", str(depth)],
        capture_output=True, text=True, timeout=120,
    )
    if out.returncode != 0:
        raise RuntimeError(f"protean perft failed on {fen}: {out.stderr.strip()}")
    return int(out.stdout.split("Nodes searched:")[1].split()[0])
