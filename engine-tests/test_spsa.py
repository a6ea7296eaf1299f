"""benches/spsa.py: SPSA over Protean's spin options. The algorithm on a
made-up match whose best values are known (a second, deliberately simple
model of a match: the side nearer the best values wins more often), and
the script driving real `protean match` games: its state, its resumption
and its refusals."""
import importlib.util
import json
import math
import random
import subprocess
import sys

import references as ref

SCRIPT = ref.ROOT / "benches" / "spsa.py"
spec = importlib.util.spec_from_file_location("spsa", SCRIPT)
spsa = importlib.util.module_from_spec(spec)
spec.loader.exec_module(spsa)


def test_the_values_move_to_where_the_made_up_match_is_won():
    best = {"x": 70, "y": 25}
    ranges = {"x": (20, 0, 100), "y": (80, 0, 100)}
    rng = random.Random(5)

    def strength(values):
        return -sum((values[n] - best[n]) ** 2 for n in best) / 400

    def play(plus, minus, pairs):
        p = 1 / (1 + math.exp(strength(minus) - strength(plus)))
        wins = sum(rng.random() < p for _ in range(2 * pairs))
        return wins, 2 * pairs - wins, 0

    run = spsa.Spsa(ranges, pairs=3000, c_end_fraction=0.05, r_end=0.002, seed=1)
    while not run.done():
        run.step(play, 2)
    assert run.k == 3001 and sum(run.record) == 6000
    for name in best:
        start = ranges[name][0]
        assert abs(run.theta[name] - best[name]) < abs(start - best[name]) / 2, run.theta


def test_the_schedule_ends_at_the_perturbation_and_rate_asked_for():
    schedule = spsa.Schedule(1000, {"x": 5.0}, 0.002)
    assert math.isclose(schedule.c_k("x", 1000), 5.0)
    assert math.isclose(schedule.r_k("x", 1000), 0.002)
    assert schedule.c_k("x", 1) > schedule.c_k("x", 1000)


def spsa_run(tmp_path, *extra):
    return subprocess.run([sys.executable, str(SCRIPT), "--protean", ref.protean_binary(), "--param", "Contempt",
                           "--games", "4", "--nodes", "300", "--out", str(tmp_path / "run"), *extra],
                          capture_output=True, text=True, timeout=300)


def test_a_run_plays_its_games_keeps_its_state_and_goes_on_from_it(tmp_path):
    first = spsa_run(tmp_path)
    assert first.returncode == 0, first.stderr
    assert "4/4 games" in first.stderr and "ETA" in first.stderr
    state = json.loads((tmp_path / "run" / "state.json").read_text())
    assert state["k"] == 3 and sum(state["record"]) == 4
    tuned = round(state["theta"]["Contempt"])
    assert -100 <= tuned <= 100
    assert f"option.Contempt={tuned}" in first.stdout
    # Run again: the run is over, nothing more is played, the same values.
    again = spsa_run(tmp_path)
    assert again.returncode == 0, again.stderr
    assert "going on from pair 3 of 2" in again.stderr and "games," not in again.stderr
    assert f"option.Contempt={tuned}" in again.stdout


def test_a_variant_of_a_file_is_played_by_engines_that_load_it(tmp_path):
    """Engines told the variant's name alone would not know it, and a game
    they lost by an illegal move would end the run with an error."""
    run = spsa_run(tmp_path, "--variants", str(ref.ROOT / "epd/variants/gardner.ini"), "--variant", "gardner")
    assert run.returncode == 0, run.stderr
    assert "4/4 games" in run.stderr
    games = (tmp_path / "run" / "games.pgn").read_text()
    assert games.count('[Variant "gardner"]') == 4
    assert games.count("[Termination") == 4 and "illegal move" not in games


def test_other_settings_or_an_unknown_option_are_refused(tmp_path):
    assert spsa_run(tmp_path).returncode == 0
    state = (tmp_path / "run" / "state.json").read_text()
    other = spsa_run(tmp_path, "--seed", "2")
    assert other.returncode == 1 and "error:" in other.stderr and "seed" in other.stderr
    assert (tmp_path / "run" / "state.json").read_text() == state
    unknown = subprocess.run([sys.executable, str(SCRIPT), "--protean", ref.protean_binary(), "--param", "lmr_divisor",
                              "--games", "4", "--out", str(tmp_path / "other")], capture_output=True, text=True, timeout=60)
    assert unknown.returncode == 1 and "not a spin option" in unknown.stderr and "--features tune" in unknown.stderr
    assert not (tmp_path / "other").exists()
