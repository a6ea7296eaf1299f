"""What the bench scripts share: a UCI engine kept running as a child
process, and the Fairy-Stockfish they measure against. A script in
benches/ imports it as `uci` (its own directory is on Python's path)."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


class UciEngine:
    """A UCI engine at `path`, sent `setup` (lines) and `isready` at the start;
    what it writes to stderr goes to ours unless `quiet`."""

    def __init__(self, path, setup=(), quiet=False):
        self.p = subprocess.Popen([str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL if quiet else None, text=True, bufsize=1)
        self.send(*setup, "isready")
        self.until("readyok")

    def send(self, *lines):
        self.p.stdin.write("".join(line + "\n" for line in lines))

    def until(self, prefix):
        """The lines the engine prints up to and with the first that starts with `prefix`."""
        lines = []
        for line in self.p.stdout:
            lines.append(line.rstrip("\n"))
            if line.startswith(prefix):
                return lines
        raise RuntimeError(f"{self.p.args[0]} quit before {prefix!r}")

    def close(self):
        self.send("quit")
        self.p.wait()


def fairy_stockfish(given=None):
    """Fairy-Stockfish's path: `given`, or target/fairy-stockfish, built from
    PyPI's pyffish source where it is missing (about 2 minutes on 2 cores;
    needs g++ and pip)."""
    if given:
        return str(given)
    path = ROOT / "target/fairy-stockfish"
    if not path.exists():
        print(f"building Fairy-Stockfish into {path}", file=sys.stderr)
        path.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([ROOT / "benches/build-fairy-stockfish", path], check=True)
    return str(path)
