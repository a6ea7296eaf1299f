"""Variants from files (epd/variants/*.ini, Fairy-Stockfish's INI format)
against Fairy-Stockfish through pyffish. Each file is loaded into pyffish
under a name of its own, so that both engines read the same file: from 50
positions reached by random play in Fairy-Stockfish's move generator,
Protean (loading the file with `--variants`) must give the same legal
moves and the same count below each of them. Where Fairy-Stockfish has
the variant built in, 20 positions of its own definition are compared
too: the file says what the variant is."""

import functools
import multiprocessing
import os
import subprocess

import pyffish
import pytest

from references import ROOT, protean_binary, protean_divide, random_positions

FILES = sorted((ROOT / "epd" / "variants").glob("*.ini"))
POSITIONS = 50
BUILT_IN_POSITIONS = 20


def section_name(path):
    for line in path.read_text().splitlines():
        if line.startswith("["):
            return line.strip("[]").split(":")[0]
    raise AssertionError(f"{path} has no section")


def file_reading(path):
    """The file loaded into pyffish under its name with `file` appended
    (a built-in of the same name stays as it is)."""
    name = section_name(path)
    text = path.read_text().replace(f"[{name}:", f"[{name}file:", 1)
    pyffish.load_variant_config(text)
    return name + "file"


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


def both_divides(path, reference, protean_name, fen):
    return fen, fsf_divide(reference, fen), protean_divide(protean_name, fen, 2, variants_file=path)


def mismatches(path, reference, protean_name, count, seed):
    """Positions where Protean and Fairy-Stockfish's `reference` differ:
    the moves only one has, and the counts below common moves. The
    positions are shared out over the cores, in processes forked after
    `reference` was loaded into pyffish (which they inherit)."""
    positions = random_positions(reference, count, seed, max_plies=50)
    with multiprocessing.get_context("fork").Pool(os.cpu_count() or 2) as pool:
        divides = pool.map(functools.partial(both_divides, path, reference, protean_name), positions)
    assert len(divides) == count
    found = []
    for fen, theirs, ours in divides:
        if theirs != ours:
            counts = {m: (theirs[m], ours[m]) for m in set(theirs) & set(ours) if theirs[m] != ours[m]}
            found.append((fen, sorted(set(theirs) - set(ours)), sorted(set(ours) - set(theirs)), counts))
    return found


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_variant_file_perft_matches_fairy_stockfish(path):
    name = section_name(path)
    seed = sum(map(ord, name))
    found = mismatches(path, file_reading(path), name, POSITIONS, seed)
    assert not found, found[:3]
    if name in pyffish.variants():
        found = mismatches(path, name, name, BUILT_IN_POSITIONS, seed + 1)
        assert not found, ("against Fairy-Stockfish's built-in", found[:3])
