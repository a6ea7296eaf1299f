#!/usr/bin/env python3
"""SPSA over Protean's UCI spin options, as fishtest and OpenBench tune
engines' search parameters:
    benches/spsa.py --protean PATH --variant V [--variants FILE]
                    --param NAME ... --games N --out DIR
                    [--tc 2+0.02 | --nodes N] [--book FILE]
                    [--concurrency 2] [--c-end-fraction 0.05]
                    [--r-end 0.002] [--seed 1]
The search's numbers are spin options only in a build with the cargo
feature `tune` (`cargo build --release --features tune`, docs/protocols.md);
any spin option of the binary may be tuned (`Contempt` in any build).

Each step draws a direction (+1 or -1 per parameter), plays a game pair
per slot of `--concurrency` between the values moved that far each way
(`protean match`, one opening twice with colours swapped), and moves the
values toward the side that won: value += R_k * c_k * (wins - losses) *
direction. The perturbation c_k = c / k^0.101 and the rate R_k = a_k /
c_k^2, a_k = a / (A + k)^0.602, A a tenth of the run's pairs, are set so
that at the last pair c_k is `--c-end-fraction` of the option's range and
R_k is `--r-end` (fishtest's `c_end` and `r_end`). Values are kept as
real numbers and rounded when played, within the option's range.

The state is written to DIR/state.json after every step, and its games
added to DIR/games.pgn; the same command goes on from the state. Progress (games, ETA, the values) goes to standard error;
at the end the values, and the `option.NAME=VALUE` words that play them in
`protean match` (to gate them against the defaults), go to standard
output."""
import argparse
import json
import math
import random
import re
import subprocess
import sys
import time
from pathlib import Path

GAMMA, ALPHA = 0.101, 0.602


class SpsaError(Exception):
    """What is wrong with the command: printed as one `error:` line."""


def protean_command(args):
    """The binary, loading the variant file first where one is given."""
    return [args.protean] + (["--variants", args.variants] if args.variants else [])


def limit_of(args):
    """Each side's limit as `protean match` writes it."""
    return f"nodes={args.nodes}" if args.nodes else f"tc={args.tc}"


def spin_options(args):
    """The binary's spin options: name -> (default, min, max)."""
    out = subprocess.run(protean_command(args), input="uci\nquit\n", capture_output=True, text=True, timeout=60).stdout
    options = {}
    for line in out.splitlines():
        m = re.match(r"option name (.+?) type spin default (-?\d+) min (-?\d+) max (-?\d+)$", line.strip())
        if m:
            options[m.group(1)] = tuple(int(m.group(i)) for i in (2, 3, 4))
    return options


class Schedule:
    """fishtest's gains for a run of `pairs` game pairs."""

    def __init__(self, pairs, c_end, r_end):
        self.big_a = 0.1 * pairs
        self.c = {name: c * pairs**GAMMA for name, c in c_end.items()}
        self.a = {name: r_end * c * c * (self.big_a + pairs) ** ALPHA for name, c in c_end.items()}

    def c_k(self, name, k):
        return self.c[name] / k**GAMMA

    def r_k(self, name, k):
        return self.a[name] / (self.big_a + k) ** ALPHA / self.c_k(name, k) ** 2


class Spsa:
    """A run's values and where it stands; `step` plays and updates."""

    def __init__(self, ranges, pairs, c_end_fraction, r_end, seed, theta=None, k=1, record=None):
        self.ranges = ranges  # name -> (default, min, max)
        self.pairs = pairs
        self.seed = seed
        c_end = {name: max(1.0, c_end_fraction * (hi - lo)) for name, (_, lo, hi) in ranges.items()}
        self.schedule = Schedule(pairs, c_end, r_end)
        self.theta = dict(theta) if theta else {name: float(d) for name, (d, _, _) in ranges.items()}
        self.k = k  # the next pair's number, from 1
        self.record = record or [0, 0, 0]  # wins, losses, draws of the plus side

    def clamp(self, name, value):
        _, lo, hi = self.ranges[name]
        return min(max(value, lo), hi)

    def perturbation(self):
        """This step's direction and the two sides' values, rounded."""
        rng = random.Random(f"{self.seed}:{self.k}")
        delta = {name: rng.choice((-1, 1)) for name in self.ranges}
        plus, minus = {}, {}
        for name in self.ranges:
            c = self.schedule.c_k(name, self.k)
            plus[name] = round(self.clamp(name, self.theta[name] + c * delta[name]))
            minus[name] = round(self.clamp(name, self.theta[name] - c * delta[name]))
        return delta, plus, minus

    def step(self, play, pairs):
        """Plays `pairs` game pairs with `play(plus, minus, pairs)`, which
        returns the plus side's (wins, losses, draws), and moves the values."""
        pairs = min(pairs, self.pairs - self.k + 1)
        delta, plus, minus = self.perturbation()
        wins, losses, draws = play(plus, minus, pairs)
        for name in self.ranges:
            r, c = self.schedule.r_k(name, self.k), self.schedule.c_k(name, self.k)
            self.theta[name] = self.clamp(name, self.theta[name] + r * c * (wins - losses) * delta[name])
        self.k += pairs
        self.record = [self.record[0] + wins, self.record[1] + losses, self.record[2] + draws]

    def done(self):
        return self.k > self.pairs

    def state(self, config):
        return {"config": config, "k": self.k, "theta": self.theta, "record": self.record}


def match_command(args, plus, minus, pairs):
    """`protean match` of the two sides: `pairs` openings, each twice."""
    def engine(name, values):
        # The engines load the variant file too: the match only names it.
        path = [f"option.VariantPath={Path(args.variants).resolve()}"] if args.variants else []
        return ["-engine", f"cmd={args.protean}", f"name={name}"] + path + [f"option.{n}={v}" for n, v in values.items()]

    cmd = protean_command(args) + ["match"] + engine("plus", plus) + engine("minus", minus)
    cmd += ["-each", "proto=uci", limit_of(args), "-variant", args.variant, "-games", "2", "-rounds", str(pairs),
            "-repeat", "-concurrency", str(min(args.concurrency, 2 * pairs)), "-recover",
            "-resign", "movecount=3", "score=800", "-draw", "movenumber=40", "movecount=8", "score=10",
            "-maxmoves", "250"]
    if args.book:
        cmd += ["-openings", f"file={args.book}", "format=epd", "order=random"]
    return cmd


def play_match(args, plus, minus, pairs):
    """Plays a step's games, adds them to DIR/games.pgn, and returns the
    plus side's wins, losses and draws."""
    step_pgn = Path(args.out) / "step.pgn"
    run = subprocess.run(match_command(args, plus, minus, pairs) + ["-pgnout", str(step_pgn)],
                         capture_output=True, text=True)
    scores = re.findall(r"Score of plus vs minus: (\d+) - (\d+) - (\d+)", run.stdout)
    if run.returncode != 0 or not scores:
        raise SpsaError(f"protean match failed ({run.returncode}): {(run.stderr or run.stdout).strip()[-400:]}")
    # A game lost by an illegal move or a crash says the engines are broken
    # (or do not know the variant), not which values are better.
    broken = re.search(r"Finished game .*\{(.*(illegal move|stalls).*)\}", run.stdout)
    if broken:
        raise SpsaError(f"a game ended by {broken.group(1)!r}; nothing of this step counted")
    with open(Path(args.out) / "games.pgn", "a") as games:
        games.write(step_pgn.read_text())
    step_pgn.unlink()
    return tuple(int(x) for x in scores[-1])


def values_line(spsa, prefix=""):
    """The values as played, rounded: `prefix` before each name."""
    return " ".join(f"{prefix}{name}={round(v)}" for name, v in spsa.theta.items())


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--protean", required=True)
    p.add_argument("--variant", default="standard")
    p.add_argument("--variants", help="a variant file the binary loads first")
    p.add_argument("--param", nargs="+", required=True, help="spin options to tune, by name")
    p.add_argument("--games", type=int, required=True, help="games of the whole run (two a pair)")
    p.add_argument("--out", required=True, help="directory of the run's state")
    limit = p.add_mutually_exclusive_group()
    limit.add_argument("--tc", default="2+0.02")
    limit.add_argument("--nodes", type=int)
    p.add_argument("--book", help="EPD openings (default: the start position)")
    p.add_argument("--concurrency", type=int, default=2)
    p.add_argument("--c-end-fraction", type=float, default=0.05)
    p.add_argument("--r-end", type=float, default=0.002)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    try:
        run(args)
    except SpsaError as e:
        print(f"error: {e}", file=sys.stderr)
        sys.exit(1)


def run(args):
    if args.games < 2 or args.concurrency < 1:
        raise SpsaError("--games must be at least 2 and --concurrency at least 1")
    if not Path(args.protean).is_file():
        raise SpsaError(f"no binary at {args.protean}")
    options = spin_options(args)
    unknown = [n for n in args.param if n not in options]
    if unknown:
        raise SpsaError(f"not a spin option of {args.protean}: {', '.join(unknown)} "
                        f"(the search's numbers need a build with --features tune)")
    ranges = {name: options[name] for name in args.param}
    config = {"variant": args.variant, "variants": args.variants, "params": ranges, "pairs": args.games // 2,
              "limit": limit_of(args), "book": args.book,
              "c_end_fraction": args.c_end_fraction, "r_end": args.r_end, "seed": args.seed}
    out = Path(args.out)
    state_file = out / "state.json"
    if state_file.exists():
        state = json.loads(state_file.read_text())
        stored = json.loads(json.dumps(config))
        if state["config"] != stored:
            changed = [k for k in stored if state["config"].get(k) != stored[k]]
            raise SpsaError(f"{state_file} is a run with other settings ({', '.join(changed)}); give another --out")
        spsa = Spsa(ranges, config["pairs"], args.c_end_fraction, args.r_end, args.seed, state["theta"], state["k"],
                    state["record"])
        print(f"spsa: going on from pair {spsa.k} of {spsa.pairs}", file=sys.stderr)
    else:
        out.mkdir(parents=True, exist_ok=True)
        spsa = Spsa(ranges, config["pairs"], args.c_end_fraction, args.r_end, args.seed)
    start, first_k = time.monotonic(), spsa.k
    while not spsa.done():
        spsa.step(lambda plus, minus, pairs: play_match(args, plus, minus, pairs), args.concurrency)
        tmp = state_file.with_suffix(".tmp")
        tmp.write_text(json.dumps(spsa.state(config), indent=1) + "\n")
        tmp.replace(state_file)
        done = spsa.k - first_k
        eta = (time.monotonic() - start) / done * (spsa.pairs - spsa.k + 1)
        w, l, d = spsa.record
        print(f"spsa: {2 * (spsa.k - 1)}/{2 * spsa.pairs} games, ETA {eta / 60:.1f} min, plus-minus {w}-{l}-{d}; "
              f"{values_line(spsa)}", file=sys.stderr, flush=True)
    width = max(len(n) for n in ranges)
    print(f"{'option':<{width}}  default  tuned  range")
    for name, (default, lo, hi) in ranges.items():
        print(f"{name:<{width}}  {default:>7}  {round(spsa.theta[name]):>5}  {lo}..{hi}")
    print(values_line(spsa, "option."))


if __name__ == "__main__":
    main()
