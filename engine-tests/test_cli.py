"""The protean command as a user meets it: output formats, and one clear
error line with a non-zero exit for bad input, never a panic."""
import subprocess

import pytest

import references as ref


def protean(*args):
    return subprocess.run([ref.protean_binary(), *args], capture_output=True, text=True, timeout=60)


def test_perft_prints_stockfish_format():
    out = protean("perft", "--depth", "2", "--divide")
    assert out.returncode == 0
    lines = out.stdout.splitlines()
    moves = [l for l in lines if ": " in l and not l.startswith("Nodes")]
    assert len(moves) == 20 and all(int(l.split(": ")[1]) == 20 for l in moves)
    assert lines[-1] == "Nodes searched: 400"
    assert "nodes/second" in out.stderr


def test_perft_threads_give_the_same_count():
    one = protean("perft", "--variant", "perfect", "--depth", "3")
    two = protean("perft", "--variant", "perfect", "--depth", "3", "--threads", "2")
    assert one.stdout == two.stdout == "Nodes searched: 12228\n"


def test_perft_after_moves_in_nine_by_nine_coordinates():
    out = protean("perft", "--variant", "perfect", "--moves", "e2e4", "e8e6", "e1e2", "--depth", "1", "--divide")
    assert out.returncode == 0, out.stderr
    assert "e9e8: 1" in out.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (["perft", "--variant", "shogi", "--depth", "1"], "unknown variant 'shogi'"),
        (["perft", "--fen", "rnbqkbnr/pppppppp/8/8", "--depth", "1"], "invalid FEN: 4 ranks"),
        (["perft", "--fen", "", "--depth", "1"], "invalid FEN: empty"),
        (["perft", "--fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 junk", "--depth", "1"], "invalid FEN"),
        (["perft", "--variant", "perfect", "--fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "--depth", "1"], "8 ranks, but the perfect board has 9"),
        (["perft", "--moves", "e2e5", "--depth", "1"], "illegal move 'e2e5'"),
        (["perft", "--moves", "e2", "--depth", "1"], "malformed move 'e2'"),
        (["perft", "--variant", "perfect", "--moves", "e2e4", "e8e6", "e4e6", "--depth", "1"], "illegal move 'e4e6'"),
        (["perft", "--depth", "1", "--threads", "0"], "--threads"),
        (["perft", "--depth", "1", "--threads", "100000"], "--threads takes 1 to 256"),
        (["perft", "--depth", "65"], "--depth takes 0 to 64"),
    ],
)
def test_bad_input_gives_one_error_line(args, message):
    out = protean(*args)
    assert out.returncode != 0
    assert out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    assert message in lines[0]
    assert "panicked" not in out.stderr


def test_epd_skips_unreadable_lines_and_says_so_in_the_summary(tmp_path):
    suite = tmp_path / "suite.epd"
    suite.write_text(
        '6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Ra8#; id "mate";\n'
        "not a position at all\n"
        '6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - am Ra7; id "avoid";\n'
        '6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Qh8; id "no queen";\n'
    )
    out = protean("epd", str(suite), "--movetime", "100")
    assert out.returncode != 0
    lines = out.stdout.splitlines()
    assert lines[0].split()[:3] == ["mate", "solved", "Ra8"] and lines[0].endswith("(bm Ra8)")
    assert lines[1].endswith("(am Ra7)"), "no empty bm or am in the report"
    assert lines[-1] == "Solved: 2/2 at 100 ms a move, 2 lines skipped"
    assert "suite.epd:2:" in out.stderr and "suite.epd:4: illegal move 'Qh8'" in out.stderr
