"""Variants from files (epd/variants/*.ini, Fairy-Stockfish's INI format)
against Fairy-Stockfish's own definitions of the same variants, through
pyffish: from 50 positions of each, reached by random play in
Fairy-Stockfish's move generator, Protean (loading the file with
`--variants`) must give the same legal moves and the same count below
each of them. A variant Fairy-Stockfish does not have built in is loaded
into pyffish from the same file."""

import random
import subprocess

import pyffish
import pytest

from references import ROOT, protean_binary, protean_divide

FILES = sorted((ROOT / "epd" / "variants").glob("*.ini"))
POSITIONS = 50


def section_name(path):
    for line in path.read_text().splitlines():
        if line.startswith("["):
            return line.strip("[]").split(":")[0]
    raise AssertionError(f"{path} has no section")


def reference_name(path):
    name = section_name(path)
    if name not in pyffish.variants():
        pyffish.load_variant_config(path.read_text())
    return name


def random_positions(variant, count, seed, max_plies=50):
    rng = random.Random(seed)
    start = pyffish.start_fen(variant)
    out, seen = [], set()
    while len(out) < count:
        fen = start
        for _ in range(rng.randrange(0, max_plies)):
            moves = pyffish.legal_moves(variant, fen, [])
            if not moves:
                break
            fen = pyffish.get_fen(variant, fen, [rng.choice(moves)])
        if pyffish.legal_moves(variant, fen, []) and fen not in seen:
            seen.add(fen)
            out.append(fen)
    return out


def fsf_divide(variant, fen):
    return {m: len(pyffish.legal_moves(variant, fen, [m])) for m in pyffish.legal_moves(variant, fen, [])}


def test_there_are_a_dozen_variant_files_from_5x5_to_12x10():
    assert len(FILES) >= 12
    sizes = set()
    for path in FILES:
        text = subprocess.run([protean_binary(), "check", str(path), "--depth", "1"], capture_output=True, text=True, timeout=60)
        assert text.returncode == 0, text.stderr
        sizes.add(text.stdout.split(": ", 1)[1].split()[0])
    assert "5x5" in sizes and "12x10" in sizes, sizes


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_variant_file_perft_matches_fairy_stockfish(path):
    variant = reference_name(path)
    mismatches = []
    for fen in random_positions(variant, POSITIONS, seed=hash(path.stem) % 1000):
        theirs, ours = fsf_divide(variant, fen), protean_divide(variant, fen, 2, variants_file=path)
        if theirs != ours:
            only_theirs = sorted(set(theirs) - set(ours))
            only_ours = sorted(set(ours) - set(theirs))
            counts = {m: (theirs[m], ours[m]) for m in set(theirs) & set(ours) if theirs[m] != ours[m]}
            mismatches.append((fen, only_theirs, only_ours, counts))
    assert not mismatches, mismatches[:3]
