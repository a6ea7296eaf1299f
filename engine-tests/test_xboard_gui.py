"""XBoard itself plays Perfect Chess between two Protean processes to the
end, and the PGN it saves is checked against Fairy-Stockfish: every move
legal, the start position and the variant named, a result given."""
import re

import pyffish

import references as ref
import xboard_gui


def tags_and_moves(pgn):
    tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', pgn, re.M))
    body = re.sub(r"^\[.*\]$", "", pgn, flags=re.M)
    body = re.sub(r"\{[^}]*\}", " ", body)
    tokens = [t for t in body.split() if not re.fullmatch(r"\d+\.+", t)]
    result = tokens.pop() if tokens and tokens[-1] in ("1-0", "0-1", "1/2-1/2", "*") else None
    return tags, tokens, result


def replay(variant, fen, tokens):
    """The moves, in coordinate notation, that the SAN tokens name; a
    castling token may be either castling move (XBoard names castling on a
    nine-file board its own way), so those are tried both ways."""
    if not tokens:
        return []
    token = tokens[0].rstrip("+#")
    legal = pyffish.legal_moves(variant, fen, [])
    if token.startswith("O-O"):
        candidates = [m for m in legal if pyffish.get_san(variant, fen, m).startswith("O-O")]
    else:
        candidates = [m for m in legal if pyffish.get_san(variant, fen, m).rstrip("+#") == token]
        if not candidates:
            # XBoard may disambiguate where it need not (B2f3); match on the
            # piece, the destination and any file/rank given.
            candidates = [m for m in legal if _loose_match(pyffish.get_san(variant, fen, m).rstrip("+#"), token)]
    for m in candidates:
        rest = replay(variant, pyffish.get_fen(variant, fen, [m]), tokens[1:])
        if rest is not None:
            return [m] + rest
    return None


def _loose_match(san, token):
    parse = re.compile(r"^([A-Z]?)([a-z]?)(\d*)(x?)([a-z]\d+)(=?[A-Z]?)$")
    a, b = parse.match(san), parse.match(token)
    if not a or not b:
        return False
    return a.group(1) == b.group(1) and a.group(5) == b.group(5) and a.group(6) == b.group(6)


def test_xboard_plays_perfect_chess_to_the_end(tmp_path):
    pgn_path = tmp_path / "game.pgn"
    status = xboard_gui.play("perfect", str(pgn_path))
    assert status == 0
    pgn = pgn_path.read_text()
    tags, tokens, result = tags_and_moves(pgn)
    assert tags["Variant"] == "perfect"
    assert tags["FEN"] == "rnbqkqbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBQKQBNR w KQkq - 0 1"
    assert tags["White"].startswith("Protean") and tags["Black"].startswith("Protean")
    assert result in ("1-0", "0-1", "1/2-1/2") and tags["Result"] == result
    assert len(tokens) >= 20, tokens
    variant = ref.load_perfect()
    moves = replay(variant, tags["FEN"], tokens)
    assert moves is not None, f"an illegal move in {tokens}"
    # A decisive result must be mate on the board XBoard reached; where it
    # is not, XBoard's reason (its last comment) and the end of its log say
    # what happened instead (a clock, an illegal move, an engine's exit).
    final = pyffish.get_fen(variant, tags["FEN"], moves)
    reason = re.findall(r"\{([^}]*)\}", pgn)[-1]
    log = pgn_path.with_suffix(".debug")
    tail = "\n".join(log.read_text(errors="replace").splitlines()[-40:]) if log.exists() else ""
    if result != "1/2-1/2":
        mated = pyffish.legal_moves(variant, final, []) == [] and pyffish.gives_check(variant, final, [])
        assert mated, f"{result} {{{reason}}} without mate at {final}\n{tail}"
    elif "agreed" in reason:
        # Agreed on the engines' offer: only where the placement came back
        # a third time (Perfect Chess's repetition, which XBoard's whole
        # positions do not see).
        placements = [pyffish.get_fen(variant, tags["FEN"], moves[:i]).split()[0] for i in range(len(moves) + 1)]
        assert placements.count(placements[-1]) >= 3, f"{{{reason}}} at {final}\n{tail}"
