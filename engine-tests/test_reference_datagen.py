"""A reference engine's judgment as training data.
benches/reference-datagen.py: Stockfish plays two short standard games;
every line it writes must be a position Protean's rules accept with a
result and Stockfish's score (White's centipawns, no mate) that `protean
tune` reads and blends (tune names a bad line and writes nothing), and the
kept positions must be quiet as datagen's are: the side to move not in
check. `protean rescore`: Stockfish scores positions afresh, for White."""
import subprocess
import sys

import chess

import references as ref

SCRIPT = ref.ROOT / "benches" / "reference-datagen.py"


def reference_datagen(*args, timeout=120):
    """The script run for standard chess with Stockfish, and what it did."""
    return subprocess.run([sys.executable, str(SCRIPT), "--variant", "standard", "--engine", ref.stockfish_binary(), *args],
                          capture_output=True, text=True, timeout=timeout)


def test_stockfish_games_are_data_protean_tune_reads(tmp_path):
    data = tmp_path / "standard.txt"
    run = reference_datagen("--games", "2", "--nodes", "500", "--concurrency", "2", "--out", str(data), timeout=300)
    assert run.returncode == 0, run.stderr
    assert "2/2 games" in run.stderr and "ended: " in run.stderr
    lines = data.read_text().splitlines()
    assert len(lines) >= 10
    for line in lines:
        fen, rest = line.rsplit(" [", 1)
        result, score = rest.split("] ")
        assert result in ("1.0", "0.5", "0.0"), line
        assert abs(int(score)) < 10_000, line
        assert not chess.Board(fen).is_check(), line
    weights = tmp_path / "weights.txt"
    tune = subprocess.run([ref.protean_binary(), "tune", "--variant", "standard", "--data", str(data),
                           "--out", str(weights), "--epochs", "5", "--score-weight", "0.5"], capture_output=True, text=True, timeout=120)
    assert tune.returncode == 0, tune.stderr
    assert f"{len(lines)} positions" in tune.stderr
    assert f"for the {len(lines)} positions that have one" in tune.stderr
    assert "value N" in weights.read_text()


def rescore(*args, timeout=120):
    """`protean rescore` with Stockfish scoring, and what it did."""
    return subprocess.run([ref.protean_binary(), "rescore", "--engine", ref.stockfish_binary(), *args],
                          capture_output=True, text=True, timeout=timeout)


def test_rescoring_gives_each_position_stockfishs_score_for_white(tmp_path):
    """`protean rescore` keeps each line and its order, and adds
    Stockfish's score for White whichever side is to move: White a queen
    up scores high with White or Black to move, Black a queen up low."""
    lines = [
        "4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1 [1.0]",
        "4k3/8/8/8/8/8/3Q4/4K3 b - - 0 1 [1.0] 12",
        "4k3/3q4/8/8/8/8/8/4K3 w - - 0 1 [0.0]",
    ]
    old, new = tmp_path / "old.txt", tmp_path / "new.txt"
    old.write_text("\n".join(lines) + "\n")
    run = rescore("--data", str(old), "--nodes", "500", "--concurrency", "2", "--out", str(new))
    assert run.returncode == 0, run.stderr
    assert "scored 3 positions of 3" in run.stderr
    scored = new.read_text().splitlines()
    assert [line.rsplit("]", 1)[0] for line in scored] == [line.rsplit("]", 1)[0] for line in lines]
    scores = [int(line.rsplit("] ", 1)[1]) for line in scored]
    assert scores[0] > 500 and scores[1] > 500 and scores[2] < -500, scores


def test_score_scale_multiplies_each_score_written(tmp_path):
    """--score-scale 2 writes twice the score of the same search (one
    engine, the same lines in the same order, so the same searches), and
    a scale that is not above zero is named and nothing is written."""
    old = tmp_path / "old.txt"
    old.write_text("4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1 [1.0]\nr3k3/8/8/8/8/8/3Q4/4K3 b - - 0 1 [0.5]\n")

    def rescored(*extra):
        new = tmp_path / "new.txt"
        run = rescore("--data", str(old), "--nodes", "300", "--out", str(new), *extra)
        assert run.returncode == 0, run.stderr
        return [int(line.rsplit("] ", 1)[1]) for line in new.read_text().splitlines()]

    plain, doubled = rescored(), rescored("--score-scale", "2")
    assert doubled == [2 * score for score in plain] and plain[0] != 0, (plain, doubled)
    bad = rescore("--data", str(old), "--score-scale", "0", "--out", str(tmp_path / "bad.txt"), timeout=60)
    assert bad.returncode != 0 and "--score-scale" in bad.stderr
    assert not (tmp_path / "bad.txt").exists()


def test_a_variant_files_positions_are_scored_by_an_engine_given_the_file(tmp_path):
    """--variants FILE --variant NAME: the file is read by Protean and
    given to the engine as its VariantPath (Protean stands in for
    Fairy-Stockfish here: it reads the same file), and White a chancellor
    up in Capablanca chess scores high with either side to move; a name
    the file does not define is named, and nothing is written."""
    ini = ref.ROOT / "epd" / "variants" / "capablanca.ini"
    old, new = tmp_path / "old.txt", tmp_path / "new.txt"
    old.write_text("5k4/10/10/10/10/10/10/3C1K4 w - - 0 1 [1.0]\n5k4/10/10/10/10/10/10/3C1K4 b - - 0 1 [1.0]\n")

    def run(variant, out):
        return subprocess.run([ref.protean_binary(), "--variants", str(ini), "rescore", "--variant", variant,
                               "--engine", ref.protean_binary(), "--data", str(old), "--nodes", "300",
                               "--out", str(out)], capture_output=True, text=True, timeout=120)

    done = run("capablanca", new)
    assert done.returncode == 0, done.stderr
    scores = [int(line.rsplit("] ", 1)[1]) for line in new.read_text().splitlines()]
    assert len(scores) == 2 and min(scores) > 500, scores
    missing = tmp_path / "missing.txt"
    unknown = run("nosuch", missing)
    assert unknown.returncode != 0 and "nosuch" in unknown.stderr
    assert not missing.exists()
