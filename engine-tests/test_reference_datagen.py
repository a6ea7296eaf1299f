"""benches/reference-datagen.py: a reference engine's games as training
data. Stockfish plays two short standard games; every line it writes must
be a position Protean's rules accept with a result and Stockfish's score
(White's centipawns, no mate) that `protean tune` reads and blends (tune
names a bad line and writes nothing), and the kept positions must be
quiet as datagen's are: the side to move not in check."""
import subprocess
import sys

import chess

import references as ref

SCRIPT = ref.ROOT / "benches" / "reference-datagen.py"


def test_stockfish_games_are_data_protean_tune_reads(tmp_path):
    data = tmp_path / "standard.txt"
    run = subprocess.run(
        [sys.executable, str(SCRIPT), "--variant", "standard", "--engine", ref.stockfish_binary(),
         "--games", "2", "--nodes", "500", "--concurrency", "2", "--out", str(data)],
        capture_output=True, text=True, timeout=300)
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
