//! Hand-made positions for the rules of standard chess and Perfect Chess
//! (shared/rules/RULINGS.md), each with its exact legal moves or outcome.

use protean_rules::{AnyPosition, AnyRules, Color, Outcome};

fn pos(variant: &str, fen: &str) -> AnyPosition {
    AnyRules::by_name(variant).unwrap().from_fen(fen).unwrap()
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

fn moves_from(p: &mut AnyPosition, from: &str) -> Vec<String> {
    sorted(p.legal_moves().into_iter().filter(|m| m.starts_with(from)).collect())
}

fn play(p: &mut AnyPosition, moves: &str) {
    for m in moves.split_whitespace() {
        p.play(m).unwrap_or_else(|e| panic!("{e} in {}", p.fen()));
    }
}

#[test]
fn standard_castling_needs_safe_empty_path() {
    let mut p = pos("standard", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert!(moves_from(&mut p, "e1").contains(&"e1g1".to_string()));
    assert!(moves_from(&mut p, "e1").contains(&"e1c1".to_string()));
    // A rook on f8 covers f1: no short castling; b1 attacked does not stop long castling.
    let mut p = pos("standard", "1r2kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    let king = moves_from(&mut p, "e1");
    assert!(!king.contains(&"e1g1".to_string()) && king.contains(&"e1c1".to_string()), "{king:?}");
    // Not out of check.
    let mut p = pos("standard", "4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1");
    assert!(!moves_from(&mut p, "e1").iter().any(|m| m == "e1g1" || m == "e1c1"));
}

#[test]
fn standard_en_passant_and_its_horizontal_pin() {
    let mut p = pos("standard", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
    assert_eq!(moves_from(&mut p, "e5"), ["e5d6", "e5e6"]);
    // Taking would clear the fifth rank between the king and the rook.
    let mut p = pos("standard", "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 2");
    assert_eq!(moves_from(&mut p, "b5"), ["b5b6"]);
    assert_eq!(p.san("b5b6").unwrap(), "b6");
}

#[test]
fn standard_promotion_is_mandatory() {
    let mut p = pos("standard", "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(moves_from(&mut p, "a7"), ["a7a8b", "a7a8n", "a7a8q", "a7a8r", "a7b8b", "a7b8n", "a7b8q", "a7b8r"]);
    assert_eq!(p.san("a7b8q").unwrap(), "axb8=Q+");
}

#[test]
fn perfect_castling_is_symmetric() {
    let mut p = pos("perfect", "r3k3r/p7p/9/9/9/9/9/P7P/R3K3R w KQkq - 0 1");
    let king = moves_from(&mut p, "e1");
    assert!(king.contains(&"e1b1".to_string()) && king.contains(&"e1h1".to_string()), "{king:?}");
    assert_eq!(p.san("e1b1").unwrap(), "O-O-O");
    assert_eq!(p.san("e1h1").unwrap(), "O-O");
    play(&mut p, "e1b1");
    assert_eq!(p.fen(), "r3k3r/p7p/9/9/9/9/9/P7P/1KR5R b kq - 1 1");
    play(&mut p, "e9h9");
    assert_eq!(p.fen(), "r5rk1/p7p/9/9/9/9/9/P7P/1KR5R w - - 2 2");
    // An open file to the castle's cell forbids castling on that side.
    let mut p = pos("perfect", "r3k3r/9/9/9/9/9/9/9/R3K3R w KQkq - 0 1");
    assert!(!moves_from(&mut p, "e1").iter().any(|m| m == "e1b1" || m == "e1h1"));
}

#[test]
fn perfect_castling_refused_when_the_castle_is_attacked() {
    // The black rook on a5 attacks a1 only: Fairy-Stockfish castles left
    // here, RULINGS.md 4 does not.
    let mut p = pos("perfect", "4k4/9/9/9/r8/9/9/9/R3K3R w KQ - 0 1");
    assert!(!p.in_check());
    let king = moves_from(&mut p, "e1");
    assert!(!king.contains(&"e1b1".to_string()) && king.contains(&"e1h1".to_string()), "{king:?}");
    // Path squares must be empty: a knight on h1 blocks the right side.
    let mut p = pos("perfect", "4k4/9/9/9/9/9/9/9/R3K2NR w KQ - 0 1");
    assert!(!moves_from(&mut p, "e1").contains(&"e1h1".to_string()));
}

#[test]
fn perfect_promotion_is_optional_and_a_pawn_on_the_last_rank_is_stuck() {
    let mut p = pos("perfect", "4k4/7P1/9/9/9/9/9/9/4K4 w - - 0 1");
    assert_eq!(moves_from(&mut p, "h8"), ["h8h9", "h8h9b", "h8h9n", "h8h9q", "h8h9r"]);
    play(&mut p, "h8h9 e9e8");
    assert_eq!(moves_from(&mut p, "h9"), Vec::<String>::new());
}

#[test]
fn perfect_en_passant_from_the_sixth_rank() {
    let mut p = pos("perfect", "4k4/3p5/9/4P4/9/9/9/9/4K4 b - - 0 1");
    play(&mut p, "d8d6");
    assert_eq!(p.fen(), "4k4/9/9/3pP4/9/9/9/9/4K4 w - d7 0 2");
    assert_eq!(moves_from(&mut p, "e6"), ["e6d7", "e6e7"]);
    assert_eq!(p.san("e6d7").unwrap(), "exd7");
}

#[test]
fn slide_bishop_steps_sideways() {
    let mut p = pos("perfect", "4k4/9/9/9/9/9/9/9/2B1K4 w - - 0 1");
    assert_eq!(
        moves_from(&mut p, "c1"),
        ["c1a3", "c1b1", "c1b2", "c1d1", "c1d2", "c1e3", "c1f4", "c1g5", "c1h6", "c1i7"]
    );
}

#[test]
fn mate_and_stalemate() {
    let mut p = AnyRules::by_name("standard").unwrap().start();
    play(&mut p, "f2f3 e7e5 g2g4 d8h4");
    assert_eq!(p.outcome(), Some(Outcome::Checkmate { winner: Color::Black }));
    let mut p = pos("standard", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert_eq!(p.outcome(), Some(Outcome::Stalemate));
    let mut p = pos("perfect", "8k/9/7QK/9/9/9/9/9/9 b - - 0 1");
    assert_eq!(p.outcome(), Some(Outcome::Stalemate));
}

#[test]
fn fifty_move_rule() {
    let mut p = pos("standard", "4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
    assert_eq!(p.outcome(), None);
    play(&mut p, "a1a2");
    assert_eq!(p.outcome(), Some(Outcome::QuietMoves));
    // Mate on the hundredth half-move still wins.
    let mut p = pos("standard", "7k/8/6K1/8/8/8/8/R7 w - - 99 80");
    play(&mut p, "a1a8");
    assert_eq!(p.outcome(), Some(Outcome::Checkmate { winner: Color::White }));
}

#[test]
fn standard_repetition_counts_castling_rights() {
    // The start position had castling rights; after the rook's round trip
    // it has none, so the first return is not a repetition of it.
    let mut p = pos("standard", "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    play(&mut p, "h1h2 e8d8 h2h1 d8e8 h1h2 e8d8 h2h1 d8e8");
    assert_eq!(p.outcome(), None);
    play(&mut p, "h1h2 e8d8 h2h1 d8e8");
    assert_eq!(p.outcome(), Some(Outcome::Repetition));
}

#[test]
fn perfect_repetition_compares_placement_only() {
    let mut p = pos("perfect", "4k4/9/9/9/9/9/9/9/4K3R w K - 0 1");
    play(&mut p, "i1i2 e9d9 i2i1 d9e9 i1i2 e9d9 i2i1");
    assert_eq!(p.outcome(), None);
    play(&mut p, "d9e9");
    assert_eq!(p.outcome(), Some(Outcome::Repetition));
}

#[test]
fn insufficient_material() {
    let dead = [
        ("standard", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"),
        ("standard", "4k3/8/8/8/8/8/8/4KB2 w - - 0 1"),
        ("standard", "4k3/8/8/8/8/8/8/3BKB2 w - - 0 1"),
        ("standard", "4k3/8/8/8/8/8/8/4KN2 w - - 0 1"),
        ("standard", "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1"),
        ("perfect", "4k4/9/9/9/9/9/9/9/4KN3 w - - 0 1"),
    ];
    let alive = [
        ("standard", "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1"),
        ("standard", "4kb2/8/8/8/8/8/8/3BK3 w - - 0 1"),
        ("standard", "4k3/8/8/8/8/8/8/3NKN2 w - - 0 1"),
        ("standard", "4k3/8/8/8/8/8/P7/4K3 w - - 0 1"),
        ("perfect", "4k4/9/9/9/9/9/9/9/4KB3 w - - 0 1"),
    ];
    for (v, fen) in dead {
        assert_eq!(pos(v, fen).outcome(), Some(Outcome::InsufficientMaterial), "{fen}");
    }
    for (v, fen) in alive {
        assert_eq!(pos(v, fen).outcome(), None, "{fen}");
    }
}

#[test]
fn moves_are_parsed_strictly() {
    let mut p = AnyRules::by_name("perfect").unwrap().start();
    assert!(p.play("e2e5").unwrap_err().to_string().contains("illegal move 'e2e5'"));
    assert!(p.play("e2").unwrap_err().to_string().contains("malformed"));
    assert!(p.play("j2j3").unwrap_err().to_string().contains("malformed"));
    assert!(p.play("e2e4x").unwrap_err().to_string().contains("malformed"));
    let before = p.fen();
    assert!(p.play("e1e2").is_err());
    assert_eq!(p.fen(), before, "a refused move changes nothing");
    play(&mut p, "e2e4 e8e6");
    assert_eq!(p.san("b1c3").unwrap(), "Nc3");
}

#[test]
fn san_disambiguates() {
    let mut p = pos("standard", "4k3/8/8/8/8/8/4K3/R6R w - - 0 1");
    assert_eq!(p.san("a1d1").unwrap(), "Rad1");
    let mut p = pos("standard", "4k3/8/8/8/8/8/8/R3K2R w - - 0 1");
    assert_eq!(p.san("a1d1").unwrap(), "Rd1");
    let mut p = pos("standard", "4k3/8/8/8/R7/8/8/R3K3 w - - 0 1");
    assert_eq!(p.san("a1a2").unwrap(), "R1a2");
    let mut p = pos("standard", "4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1");
    assert_eq!(p.san("a1b2").unwrap(), "Qa1b2");
}
