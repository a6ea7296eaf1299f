//! A whole 3-board Perplexichess game between Protean teams at a fast
//! time control, its PGNs read back: every move replayed legally under the
//! rules in force, transfers applied where the comments put them, at least
//! one transfer and one rule change, results consistent with the summary.

use protean_rules::{fen, AnyPosition, AnyRules, Color, Piece};
use std::io::Write;
use std::process::{Command, Stdio};

/// Plays a SAN move (or rule change) by finding the legal move whose SAN
/// it is.
fn play_san(pos: &mut AnyPosition, san: &str) {
    let text = pos
        .legal_moves()
        .into_iter()
        .find(|m| pos.clone().san(m).is_ok_and(|s| s == san))
        .unwrap_or_else(|| panic!("{san} is not legal in {}", pos.fen()));
    pos.play(&text).unwrap();
}

/// Edits a board's placement for a transfer comment.
fn apply_transfer(pos: &mut AnyPosition, comment: &str) {
    // {transfer in|out: SIDE LETTER CELL ...}
    let words: Vec<&str> = comment.trim_matches(|c| c == '{' || c == '}').split_whitespace().collect();
    let (direction, side, letter, cell) = (words[1], words[2], words[3], words[4]);
    let g = pos.variant().geometry;
    let cell = g.parse_cell(cell).unwrap();
    let fen = pos.fen();
    let fields: Vec<&str> = fen.split(' ').collect();
    let mut placement = fen::parse_placement(pos.variant(), fields[0]).unwrap();
    let there = placement.pieces.iter().position(|&(c, _)| c == cell);
    let kind = pos.variant().piece_by_letter(letter.chars().next().unwrap()).unwrap();
    let piece = Piece::new(if side == "white" { Color::White } else { Color::Black }, kind);
    if direction == "out:" {
        let i = there.unwrap_or_else(|| panic!("{comment}: nothing there in {fen}"));
        assert_eq!(placement.pieces.remove(i).1, piece, "{comment} in {fen}");
    } else {
        assert!(there.is_none(), "{comment}: the cell is taken in {fen}");
        placement.pieces.push((cell, piece));
    }
    let variant = pos.variant().clone();
    let rows = fen::board_rows(g, |c| {
        placement.pieces.iter().find(|(at, _)| *at == c).map(|(_, p)| {
            let l = variant.pieces[p.kind()].letter;
            if p.color() == Color::White {
                l
            } else {
                l.to_ascii_lowercase()
            }
        })
    });
    let (file, rank) = (g.file(cell), g.rank(cell));
    // Castling rights whose pieces left are dropped; en passant lapses.
    let mut rights = String::new();
    for (r, cell) in [('K', "h1"), ('Q', "a1"), ('k', "h8"), ('q', "a8")] {
        if fields[2].contains(r) && !(direction == "out:" && cell == g.name(g.cell(file, rank)).to_string()) {
            rights.push(r);
        }
    }
    let rights = if rights.is_empty() { "-".to_string() } else { rights };
    let new = format!("{rows} {} {rights} - {} {} {}", fields[1], fields[4], fields[5], fields[6]);
    *pos =
        AnyRules::by_name("flexichess").unwrap().from_fen(&new).unwrap_or_else(|e| panic!("{comment}: {e} in {new}"));
}

/// Plays one game, replays its PGNs under the rules, and returns the
/// transfers and rule changes seen in them.
fn play_and_replay(attempt: usize) -> (usize, usize) {
    let pgn = std::env::temp_dir().join(format!("protean-perplexichess-{}-{attempt}.pgn", std::process::id()));
    let mut child = Command::new(env!("CARGO_BIN_EXE_protean"))
        .args(["perplexichess", "--boards", "3", "--tc", "2+0.05", "--stdin-transfers", "--pgnout"])
        .arg(&pgn)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A transfer by hand besides the strategists' own: board 2's g1 is
    // taken, so it is refused and the game goes on.
    child.stdin.take().unwrap().write_all(b"transfer white 1 g1 2\n").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let summary = String::from_utf8(out.stdout).unwrap();
    // Progress while it plays: a line per round with each board's move.
    let progress = String::from_utf8(out.stderr).unwrap();
    let rounds: Vec<&str> = progress.lines().filter(|l| l.starts_with("round ")).collect();
    assert!(!rounds.is_empty(), "{progress}");
    assert!(
        rounds[0].starts_with("round 1 at ") && rounds[0].contains("1: ") && rounds[0].contains("3: "),
        "{}",
        rounds[0]
    );
    let text = std::fs::read_to_string(&pgn).unwrap();
    let games: Vec<&str> = text.split("[Event ").filter(|g| !g.trim().is_empty()).collect();
    assert_eq!(games.len(), 3, "{text}");
    let (mut transfers, mut rule_changes) = (0, 0);
    for (i, game) in games.iter().enumerate() {
        let result = game.lines().find_map(|l| l.strip_prefix("[Result \"")).unwrap().trim_end_matches("\"]");
        assert!(summary.contains(&format!("board {}: {result}", i + 1)), "{summary}");
        assert!(game.contains("[Variant \"flexichess\"]"));
        let moves = game.split("\n\n").nth(1).unwrap();
        let mut pos = AnyRules::by_name("flexichess").unwrap().start();
        let mut comment = String::new();
        for token in moves.split_whitespace() {
            if !comment.is_empty() || token.starts_with('{') {
                comment += token;
                comment.push(' ');
                if token.ends_with('}') {
                    // Transfers after the board's end touch a board with no kings.
                    if pos.outcome().is_none() {
                        apply_transfer(&mut pos, &comment);
                    }
                    transfers += 1;
                    comment.clear();
                }
                continue;
            }
            if token.ends_with('.') || token == result {
                continue;
            }
            if token.contains('=')
                && token.chars().next().is_some_and(|c| c.is_ascii_uppercase())
                && !token.contains('x')
            {
                rule_changes += usize::from(token.len() > 2 && token.as_bytes()[1] == b'=');
            }
            play_san(&mut pos, token);
        }
        if game.contains("[Termination \"checkmate\"]") {
            assert!(
                matches!(pos.outcome(), Some(protean_rules::Outcome::Checkmate { .. })),
                "board {} {}",
                i + 1,
                pos.fen()
            );
        }
    }
    assert!(summary.contains("transfers ") && summary.contains("result: "), "{summary}");
    let _ = std::fs::remove_file(pgn);
    (transfers, rule_changes)
}

#[test]
fn a_three_board_game_plays_to_the_end_and_its_pgns_replay() {
    // Every game is replayed in full. The boards may all end in a draw by
    // repetition within a few rounds (one side changes a rule, the other
    // changes it back), before a strategist has moved a piece: about one
    // game in six at this time control before quiescence saw its trades,
    // about six in ten since (2026-11-27). So up to sixteen games (a few
    // seconds each) are played, until one shows a transfer (on both
    // boards) and a rule change.
    for attempt in 0..16 {
        let (transfers, rule_changes) = play_and_replay(attempt);
        if transfers >= 2 && rule_changes >= 1 {
            return;
        }
    }
    panic!("sixteen games without a transfer and a rule change");
}
