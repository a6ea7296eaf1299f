"""XBoard itself (Debian's xboard, under Xvfb) running an engine-vs-engine
game between two Protean processes, saving the PGN and optionally a
screenshot of the board part-way through.

    python3 engine-tests/xboard_gui.py --variant perfect --pgn game.pgn --screenshot board.png
"""
import argparse
import shutil
import subprocess
import tempfile
from pathlib import Path

import references as ref

XBOARD = shutil.which("xboard") or "/usr/games/xboard"


def play(variant, pgn, screenshot=None, tc="0:10", inc="0.1", timeout=400):
    """Runs one game; returns XBoard's exit status. The screenshot, if
    asked for, is taken 12 seconds in."""
    engine = ref.protean_binary()
    shot = f"sleep 12; import -window root {screenshot};" if screenshot else ""
    script = (
        f"'{XBOARD}' -fcp '{engine}' -scp '{engine}' -variant {variant} -tc {tc} -inc {inc} "
        f"-mg 1 -sgf '{pgn}' -xexit -size 49 -debug -nameOfDebugFile '{Path(pgn).with_suffix('.debug')}' & "
        f"XB=$!; {shot} wait $XB"
    )
    run = subprocess.run(
        ["xvfb-run", "-a", "-s", "-screen 0 1000x900x24", "bash", "-c", script],
        capture_output=True, text=True, timeout=timeout,
    )
    return run.returncode


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--variant", default="perfect")
    parser.add_argument("--pgn", default=str(Path(tempfile.gettempdir()) / "protean-xboard.pgn"))
    parser.add_argument("--screenshot")
    args = parser.parse_args()
    status = play(args.variant, args.pgn, args.screenshot)
    print(Path(args.pgn).read_text())
    raise SystemExit(status)


if __name__ == "__main__":
    main()
