"""Perft at depth 3 on random positions, Protean against the references:
Stockfish for standard chess, Fairy-Stockfish (pyffish) for Perfect Chess.
Positions come from random legal play in pyffish with fixed seeds (other
seeds than the EPD files use), so these are positions Protean's own
tests never saw.
"""
import os
from multiprocessing import Pool

import references as ref

COUNT = int(os.environ.get("PROTEAN_REFERENCE_POSITIONS", "200"))
DEPTH = 3


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


def _perfect_pair(fen):
    return fen, ref.perfect_perft(fen, DEPTH), ref.protean_perft("perfect", fen, DEPTH)


def test_perfect_perft_matches_fairy_stockfish():
    positions = ref.random_positions("perfect", COUNT, seed=2)
    with Pool(os.cpu_count() or 2) as pool:
        results = pool.map(_perfect_pair, positions)
    mismatches = [r for r in results if r[1] != r[2]]
    assert len(results) == COUNT
    assert not mismatches, mismatches[:5]
