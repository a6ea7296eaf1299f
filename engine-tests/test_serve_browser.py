"""`protean serve` played in a real headless Chromium (Debian's, driven by
Playwright): each test starts the server on a free port, plays through the
page as a person would (clicks on the board, the choosers, the rules
panel), then reads the game back from the server and checks the position
it holds. The page decides nothing: a wrong click must not reach the game.
"""

import json
import os
import re
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from references import protean_binary

# Where the pictures of each variant's page go: `PROTEAN_SCREENSHOTS=docs`
# renews those of docs/serve.md.
SCREENSHOTS = Path(os.environ.get("PROTEAN_SCREENSHOTS", tempfile.gettempdir()))
CHROMIUM = "/usr/bin/chromium"
# Chromium as root, headless, with nothing that reaches for the network.
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture
def server():
    proc = subprocess.Popen([str(protean_binary()), "serve", "--port", "0"], stdout=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    url = re.search(r"http://\S+/", line)
    assert url, f"no URL in {line!r}"
    yield url.group(0)
    proc.terminate()
    proc.wait(10)


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser, server):
    context = browser.new_context(viewport={"width": 1400, "height": 950})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server)
    page.wait_for_function("document.querySelectorAll('#variant option').length > 0")
    page.wait_for_function("document.getElementById('connection').textContent === 'connected'")
    yield page
    context.close()
    assert not errors, f"script errors on the page: {errors}"


def start(page, variant, white="human", black="human", fen=None, strength=None):
    page.select_option("#variant", variant)
    page.select_option("#white", white)
    page.select_option("#black", black)
    if fen:
        page.fill("#fen", fen)
    if strength:
        kind, amount = strength
        page.select_option("#strength-kind", kind)
        page.fill("#strength", str(amount))
    page.click("#start")
    page.wait_for_selector("#game-number:not(:empty)")
    page.wait_for_selector('rect.hit[data-cell]')
    return int(page.inner_text("#game-number").split()[-1])


def whole_state(server, game):
    with urllib.request.urlopen(f"{server}api/games/{game}") as reply:
        return json.load(reply)


def server_state(server, game, board=0):
    """One board of the game as the server holds it."""
    return whole_state(server, game)["boards"][board]


def wait_for(server, game, condition, seconds=30, board=0):
    deadline = time.time() + seconds
    while time.time() < deadline:
        state = server_state(server, game, board)
        if condition(state):
            return state
        time.sleep(0.1)
    raise AssertionError(f"game {game} never reached the condition: {state['fen']} {state['moves']}")


def click(page, cell):
    page.click(f'rect.hit[data-cell="{cell}"]')


def move(page, server, game, cells, plies_after):
    """Clicks the cells (piece, destination, then any tiles), then waits
    for the server to have `plies_after` moves."""
    for cell in cells:
        click(page, cell)
    state = wait_for(server, game, lambda s: len(s["moves"]) >= plies_after)
    page.wait_for_function(f"document.querySelectorAll('#moves span').length >= {plies_after}")
    return state


def shot(page, name):
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"serve-{name}.png"))


def test_a_standard_game_against_the_engine_to_mate(page, server):
    # White mates in two: 1. Ra7 (the king's only reply is Kg8) 2. Rb8#.
    game = start(page, "standard", "human", "engine", fen="7k/8/8/8/8/8/R7/1R4K1 w - - 0 1", strength=("depth", 4))
    move(page, server, game, ["a2", "a7"], 1)
    state = wait_for(server, game, lambda s: len(s["moves"]) == 2 and not s["thinking"])
    assert state["moves"] == ["Ra7", "Kg8"]
    page.wait_for_function("document.querySelectorAll('#moves span').length === 2")
    # A click on a cell the rook cannot reach plays nothing.
    click(page, "b1")
    click(page, "c2")
    time.sleep(0.3)
    assert len(server_state(server, game)["moves"]) == 2
    click(page, "b1")
    state = move(page, server, game, ["b8"], 3)
    assert state["result"] == {"result": "1-0", "reason": "checkmate"}
    assert state["fen"].startswith("1R4k1/R7/")
    page.wait_for_function("document.getElementById('status').textContent.includes('checkmate')")
    assert "Rb8#" in page.input_value("#pgn-out")
    shot(page, "standard")


def test_perfect_chess_castling_and_no_promotion(page, server):
    game = start(page, "perfect", fen="4k4/2P6/9/9/9/9/9/9/R3K3R w KQ - 0 1")
    # Castling is the king's move to its destination: e1 to h1, the rook
    # from i1 to g1.
    state = move(page, server, game, ["e1", "h1"], 1)
    assert state["moves"] == ["O-O"]
    assert state["fen"].split()[0].endswith("/R5RK1")
    move(page, server, game, ["e9", "e8"], 2)
    # The pawn reaches the last rank: the chooser offers the pieces and
    # "No promotion"; the pawn stays a pawn.
    click(page, "c8")
    click(page, "c9")
    page.wait_for_selector('#chooser:not([hidden]) button[data-choice="promotion-none"]')
    choices = page.eval_on_selector_all("#chooser button", "bs => bs.map(b => b.dataset.choice)")
    assert "promotion-Q" in choices and "promotion-none" in choices
    shot(page, "perfect-promotion")
    page.click('button[data-choice="promotion-none"]')
    state = wait_for(server, game, lambda s: len(s["moves"]) == 3)
    assert state["fen"].split()[0].startswith("2P6/4k4/"), state["fen"]
    assert state["moves"][-1] == "c9"


def test_one_dimensional_middle_cell_capture_chosen(page, server):
    # The knight on c1 jumps to h1 either over the rook on e1 or taking it.
    game = start(page, "onedim", fen="K1N1r10k w - - 0 1")
    click(page, "c1")
    click(page, "h1")
    page.wait_for_selector('#chooser:not([hidden]) button[data-choice="leg-e1"]')
    assert page.is_visible('button[data-choice="leg-over"]')
    shot(page, "onedim")
    page.click('button[data-choice="leg-e1"]')
    state = wait_for(server, game, lambda s: len(s["moves"]) == 1)
    assert state["fen"] == "K6N7k b - - 0 1"
    assert state["moves"] == ["Nxe1,h1"]


def test_beyond_chess_a_geret_and_a_turn_with_a_tile_shift(page, server):
    game = start(page, "beyond")
    move(page, server, game, ["e2", "e4"], 1)
    # Black's edge pawn rides its tile into the rift beside it: a geret.
    state = move(page, server, game, ["a7", "z7"], 2)
    assert state["moves"][-1] == "a7z7"
    cells = {c["name"]: c for c in state["board"]["cells"]}
    assert not cells["z7"]["rift"] and cells["z7"]["piece"] == "p" and cells["a7"]["rift"]
    # White: d2-d4, then a tile shift the server offers for that move.
    turn = next(m for m in state["legal"]["d2"] if m["to"] == "d4" and m["shift"])
    tile, rift = turn["shift"]
    click(page, "d2")
    click(page, "d4")
    page.wait_for_selector('#chooser:not([hidden]) button[data-choice="cancel"]')
    assert not page.is_visible('button[data-choice="shift-none"]'), "every turn here has a shift"
    click(page, tile)
    shot(page, "beyond-shift")
    state = move(page, server, game, [rift], 3)
    assert state["moves"][-1] == f"d4,{tile}{rift}"
    cells = {c["name"]: c for c in state["board"]["cells"]}
    assert cells[rift]["rift"] is False and cells[tile]["rift"] is True
    assert cells["d4"]["piece"] == "P"


def test_flexichess_rule_change_then_a_move_with_the_changed_piece(page, server):
    game = start(page, "flexichess")
    page.wait_for_selector("#rules:not([hidden])")
    page.select_option("#change-piece", "N")
    page.select_option("#change-movement", "N=NN")
    page.click("#change")
    state = wait_for(server, game, lambda s: len(s["moves"]) == 1)
    knight = next(r for r in state["piece_rules"] if r["piece"] == "N")
    assert knight["betza"] == "NN" and knight["changed"]
    page.wait_for_selector('#rules-table tr.changed[data-piece="N"]')
    # A change written by hand that the rules refuse: named, nothing played.
    page.fill("#change-text", "K=Q")
    page.click("#change-typed")
    page.wait_for_function("document.getElementById('error').textContent.includes('K=Q')")
    assert len(server_state(server, game)["moves"]) == 1
    move(page, server, game, ["e7", "e6"], 2)
    # A nightrider rides two knight's leaps: b1 over c3 to d5.
    state = move(page, server, game, ["b1", "d5"], 3)
    assert state["fen"].split()[0].split("/")[3] == "3N4"
    assert state["fen"].split()[6] == "N=NN"
    shot(page, "flexichess")


def test_flexichess_in_check_the_rule_panel_says_why_it_is_closed(page, server):
    # The rook on e2 checks White's king: rule changes would parry it, but
    # a check is answered by a piece move only (RULINGS.md, Flexichess 5).
    game = start(page, "flexichess", fen="4k3/pppp4/8/8/8/8/4r3/4K2N w - - 0 1 -")
    page.wait_for_selector("#rules:not([hidden])")
    page.wait_for_selector("#rules-closed:not([hidden])")
    assert "piece move" in page.inner_text("#rules-closed")
    assert page.is_disabled("#change") and page.is_disabled("#change-typed")
    state = server_state(server, game)
    assert state["rule_changes"] == [] and state["rule_changes_closed"]
    # Out of check the panel opens again.
    state = move(page, server, game, ["e1", "e2"], 1)
    assert state["rule_changes"] and state["rule_changes_closed"] is None
    page.wait_for_selector("#rules-closed", state="hidden")
    assert not page.is_disabled("#change")


def test_analysis_and_undo_against_the_engine(page, server):
    game = start(page, "standard", "human", "engine", strength=("nodes", 3000))
    move(page, server, game, ["e2", "e4"], 1)
    wait_for(server, game, lambda s: len(s["moves"]) == 2 and not s["thinking"])
    page.wait_for_function("document.querySelectorAll('#moves span').length === 2")
    page.click("#analyse")
    page.wait_for_function("document.getElementById('engine-line').textContent.startsWith('depth')")
    page.click("#analyse")
    page.click("#undo")
    state = wait_for(server, game, lambda s: len(s["moves"]) == 0)
    assert state["fen"] == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    assert not state["analysing"]


def transfer_candidate(state):
    """A white piece (not the king, not a pawn) whose cell is empty on
    another board still playing: (from, cell, to, letter)."""
    boards = state["boards"]
    for i, a in enumerate(boards):
        for j, b in enumerate(boards):
            if i == j or b["result"]:
                continue
            for here, there in zip(a["board"]["cells"], b["board"]["cells"]):
                p = here["piece"]
                if p and p.isupper() and p not in "KP" and there["piece"] is None:
                    return i, here["name"], j, p
    return None


def test_perplexichess_a_transfer_by_the_grand_strategist(page, server):
    page.select_option("#variant", "perplexichess")
    page.select_option("#board-count", "3")
    page.select_option("#seat", "strategist-white")
    page.select_option("#strength-kind", "movetime")
    page.fill("#strength", "300")
    page.click("#start")
    page.wait_for_selector('svg[data-board="2"] rect.hit[data-cell="e1"]', state="attached")
    game = int(page.inner_text("#game-number").split()[-1])
    assert "white's grand strategist" in page.inner_text("#team-status")
    # The boards start alike; the engines and Black's strategist make them
    # differ. Then a piece goes to the same cell of another board: click
    # it, then that board. The engines play on meanwhile, so a try may be
    # refused by the server and is made again.
    deadline = time.time() + 60
    while time.time() < deadline:
        state = whole_state(server, game)
        found = transfer_candidate(state)
        if not found:
            time.sleep(0.2)
            continue
        i, cell, j, letter = found
        page.click(f'svg[data-board="{i}"] rect.hit[data-cell="{cell}"]')
        page.click(f'svg[data-board="{j}"] rect.hit[data-cell="{cell}"]')
        time.sleep(0.5)
        comment = f"{{transfer in: white {letter} {cell} from board {i + 1}}}"
        board = whole_state(server, game)["boards"][j]
        if comment in board["moves"]:
            shot(page, "perplexichess")
            return
    raise AssertionError("no transfer was made through the page in 60 s")
