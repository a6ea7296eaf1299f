"""Perft at depth 3 on random positions, Protean against the references:
Stockfish for standard chess and (with UCI_Chess960) Chess960,
Fairy-Stockfish (pyffish) for Perfect Chess. pyffish sets up a position
for every call (1.5 ms each), so Perfect Chess's perft 3 costs seconds a
position: 60 positions at depth 3, and 200 move by move at depth 2, in
CI (PROTEAN_PERFECT_POSITIONS=200 runs all 200 at depth 3: 6 minutes).
Positions come from random legal play in pyffish with fixed seeds (other
seeds than the EPD files use), so these are positions Protean's own
tests never saw.
"""
import os
from multiprocessing import Pool

import references as ref

COUNT = int(os.environ.get("PROTEAN_REFERENCE_POSITIONS", "200"))
DEPTH = 3
# The castling rook stands between an enemy rider and the king's last
# cell: castling would expose the king, which no random position here
# happened to show.
SHIELDING_ROOKS = ["4k3/8/8/8/8/8/8/qRK5 w B - 0 1", "4k3/8/8/8/8/8/8/5KRr w G - 0 1", "5krR/8/8/8/8/8/8/4K3 b g - 0 1"]
CHESS960_POSITIONS = int(os.environ.get("PROTEAN_CHESS960_POSITIONS", "100"))
PERFECT_POSITIONS = int(os.environ.get("PROTEAN_PERFECT_POSITIONS", "60"))


def test_standard_perft_matches_stockfish():
    positions = ref.random_positions("standard", COUNT, seed=1)
    sf = ref.Stockfish()
    try:
        mismatches = [
            (fen, expected, got)
            for fen in positions
            for expected, got in [(sf.perft(fen, DEPTH), ref.protean_perft("standard", fen, DEPTH))]
            if expected != got
        ]
    finally:
        sf.close()
    assert len(positions) == COUNT
    assert not mismatches, mismatches[:5]


def test_chess960_perft_matches_stockfish_move_by_move():
    """Counts below every root move, by name, so castling's king-takes-rook
    text is checked with the count; X-FEN and Shredder-FEN both read."""
    positions = SHIELDING_ROOKS + ref.chess960_positions(CHESS960_POSITIONS, seed=5)
    sf = ref.Stockfish()
    sf.send("setoption name UCI_Chess960 value true")
    castles = 0
    try:
        mismatches = []
        for fen in positions:
            expected = sf.divide(fen, DEPTH)
            got = ref.protean_divide("chess960", fen, DEPTH)
            castles += sum(1 for m in expected if m[:2] in ("e1", "a1", "b1", "c1", "d1", "f1", "g1", "h1", "e8", "a8", "b8", "c8", "d8", "f8", "g8", "h8") and m[1] == m[3] and m[0] != m[2] and abs(ord(m[0]) - ord(m[2])) > 1)
            if expected != got:
                mismatches.append((fen, sorted(set(expected.items()) ^ set(got.items()))[:6]))
    finally:
        sf.close()
    assert len(positions) == CHESS960_POSITIONS + len(SHIELDING_ROOKS)
    assert castles > CHESS960_POSITIONS // 4, f"only {castles} castlings at the roots: the positions test too little"
    assert not mismatches, mismatches[:5]


def _perfect_pair(fen):
    return fen, ref.perfect_perft(fen, DEPTH), ref.protean_perft("perfect", fen, DEPTH)


def _perfect_divide(fen):
    expected = {m: len(ref.perfect_moves(fen, (m,))) for m in ref.perfect_moves(fen)}
    return fen, expected, ref.protean_divide("perfect", fen, 2)


def test_perfect_perft_matches_fairy_stockfish():
    positions = ref.random_positions("perfect", PERFECT_POSITIONS, seed=2)
    with Pool(os.cpu_count() or 2) as pool:
        results = pool.map(_perfect_pair, positions)
    mismatches = [r for r in results if r[1] != r[2]]
    assert len(results) == PERFECT_POSITIONS
    assert not mismatches, mismatches[:5]


def test_perfect_moves_and_replies_match_fairy_stockfish_move_by_move():
    """Each legal move by its text, and the count of replies below it."""
    positions = ref.random_positions("perfect", COUNT, seed=3)
    with Pool(os.cpu_count() or 2) as pool:
        results = pool.map(_perfect_divide, positions)
    mismatches = [(fen, sorted(set(e.items()) ^ set(g.items()))[:6]) for fen, e, g in results if e != g]
    assert len(results) == COUNT
    assert sum(len(e) for _, e, _ in results) > 20 * COUNT, "too few moves: the positions test too little"
    assert not mismatches, mismatches[:5]
