//! Flexichess: rule changes as moves (RULINGS.md, Flexichess 1-5).

use protean_rules::variant::Role;
use protean_rules::{AnyPosition, AnyRules, Color, Outcome};
use std::sync::atomic::{AtomicU64, Ordering};

mod parallel;

fn flexi() -> AnyRules {
    AnyRules::by_name("flexichess").unwrap()
}

/// The Betza of the catalogue's movements for pawns or for other pieces.
fn catalogue(pawns: bool) -> Vec<String> {
    let variant = protean_rules::variants::by_name("flexichess").unwrap();
    variant.redefinitions.iter().filter(|r| (r.role == Role::Pawn) == pawns).map(|r| r.betza.clone()).collect()
}

fn changes(pos: &mut AnyPosition) -> Vec<String> {
    let mut v: Vec<String> = pos.legal_moves().into_iter().filter(|m| m.contains('=')).collect();
    v.sort();
    v
}

/// Whether `betza` is how `letter` moves in the variant's own rules.
fn own_movement(letter: char, betza: &str) -> bool {
    let variant = protean_rules::variants::by_name("standard").unwrap();
    variant.pieces.iter().any(|p| p.letter == letter && p.betza == betza)
}

/// The changes the rules allow, found the slow way: each catalogue
/// movement written into the FEN, kept if the mover's king is then safe
/// and the piece did not already move so.
/// A side in check, or with no legal piece move, has none (Flexichess 5):
/// in check is told by the same position with the other side to move,
/// which the FEN parser refuses when the side not to move is attacked.
fn changes_played_out(pos: &AnyPosition) -> Vec<String> {
    let fen = pos.fen();
    let fields: Vec<&str> = fen.split(' ').collect();
    let mut out = Vec::new();
    let other = if fields[1] == "w" { "b" } else { "w" };
    let flipped = format!("{} {other} {} - {} {} {}", fields[0], fields[2], fields[4], fields[5], fields[6]);
    let in_check = flexi().from_fen(&flipped).is_err();
    let has_piece_move = pos.clone().legal_moves().iter().any(|m| !m.contains('='));
    if in_check || !has_piece_move {
        return out;
    }
    for letter in ['P', 'N', 'B', 'R', 'Q'] {
        for betza in &catalogue(letter == 'P') {
            let current: Vec<&str> = if fields[6] == "-" { Vec::new() } else { fields[6].split(',').collect() };
            let mut rules: Vec<String> =
                current.iter().filter(|r| !r.starts_with(letter)).map(|r| r.to_string()).collect();
            // The field lists only movements other than the variant's own.
            if !own_movement(letter, betza) {
                rules.push(format!("{letter}={betza}"));
            }
            // The same position with the change made and the other side
            // to move: the FEN parser refuses it if the side not to move
            // (the mover) is in check.
            let field = if rules.is_empty() { "-".to_string() } else { rules.join(",") };
            let changed = format!("{} {other} {} - {} {} {field}", fields[0], fields[2], fields[4], fields[5]);
            let mover_safe = flexi().from_fen(&changed).is_ok();
            let noop = betza_same(pos, letter, betza);
            if mover_safe && !noop {
                out.push(format!("{letter}={betza}"));
            }
        }
    }
    out.sort();
    out
}

fn betza_same(pos: &AnyPosition, letter: char, betza: &str) -> bool {
    let fen = pos.fen();
    let current = fen.split(' ').nth(6).unwrap_or("-");
    let now = current.split(',').find(|r| r.starts_with(letter)).map(|r| r[2..].to_string());
    let original = match letter {
        'P' => "fmWfcFifmR2",
        'N' => "N",
        'B' => "B",
        'R' => "R",
        _ => "Q",
    };
    let now = now.unwrap_or_else(|| original.to_string());
    let a = protean_rules::betza::parse(&now).unwrap();
    let b = protean_rules::betza::parse(betza).unwrap();
    a == b
}

#[test]
fn rule_changes_at_the_start_spare_the_king_and_skip_no_ops() {
    let mut pos = flexi().start();
    let list = changes(&mut pos);
    // Four pieces with 15 movements each, less the one each has; the pawn
    // with 4, less its own.
    assert_eq!(list.len(), 4 * (catalogue(false).len() - 1) + catalogue(true).len() - 1);
    assert_eq!(pos.perft(1), 20 + list.len() as u64);
    assert!(!list.iter().any(|m| m.starts_with("K=")));
    for no_op in ["N=N", "B=B", "R=R", "Q=Q", "P=fmWfcFifmR2"] {
        assert!(!list.contains(&no_op.to_string()), "{no_op}");
    }
    assert!(list.contains(&"N=NN".to_string()) && list.contains(&"P=fmWfcF".to_string()));
}

#[test]
fn a_change_applies_to_both_colours() {
    let mut pos = flexi().start();
    pos.play("N=NN").unwrap();
    // Black's knight on b8 now rides b8-c6-d4-e2 and takes the pawn.
    assert!(pos.legal_moves().contains(&"b8e2".to_string()));
    pos.play("e7e6").unwrap();
    assert!(pos.legal_moves().contains(&"b1e7".to_string()) || pos.legal_moves().contains(&"b1d5".to_string()));
}

#[test]
fn a_change_may_not_expose_the_movers_king() {
    // A black knight on e3: as a dabbaba, rook, queen, chancellor or
    // amazon it would attack the white king on e1 down the file.
    let mut pos = flexi().from_fen("4k3/8/8/8/8/4n3/8/4K3 w - - 0 1 -").unwrap();
    let list = changes(&mut pos);
    for exposing in ["N=D", "N=R", "N=Q", "N=RN", "N=QN"] {
        assert!(!list.contains(&exposing.to_string()), "{exposing} in {list:?}");
    }
    for safe in ["N=W", "N=F", "N=B", "N=NN", "N=C"] {
        assert!(list.contains(&safe.to_string()), "{safe} missing from {list:?}");
    }
    assert_eq!(list, changes_played_out(&pos));
}

#[test]
fn a_check_is_answered_by_a_piece_move_only() {
    // The rook on e2 checks the king on e1. Redefining rooks (R=W, R=F,
    // ...) would have parried it; a check is answered by a piece move.
    let mut pos = flexi().from_fen("4k3/8/8/8/8/8/4r3/4K2N w - - 0 1 -").unwrap();
    assert!(pos.in_check());
    assert_eq!(changes(&mut pos), Vec::<String>::new());
    assert_eq!(changes_played_out(&pos), Vec::<String>::new());
    for parry in ["R=W", "R=F", "N=R", "P=fmW"] {
        assert!(pos.play(parry).is_err(), "{parry} accepted in check");
    }
    assert!(pos.legal_moves().contains(&"e1e2".to_string()));
    // Out of check, the same side may change rules again.
    pos.play("e1e2").unwrap();
    pos.play("e8d8").unwrap();
    assert!(!changes(&mut pos).is_empty());
}

#[test]
fn a_rule_change_may_give_checkmate() {
    // N=R turns the knight on e8 into a rook along the eighth rank: check,
    // and Black, whose own rule changes no longer parry it, is mated. No
    // piece move of White's mates here.
    let start = flexi().from_fen("4N2k/6pp/8/8/8/8/8/K7 w - - 0 1 -").unwrap();
    for m in start.clone().legal_moves() {
        let mut after = start.clone();
        after.play(&m).unwrap();
        let mated = after.outcome() == Some(Outcome::Checkmate { winner: Color::White });
        assert_eq!(mated, ["N=R", "N=Q", "N=RN", "N=QN"].contains(&m.as_str()), "{m}");
    }
    let mut pos = start.clone();
    pos.play("N=R").unwrap();
    assert!(pos.in_check());
    assert_eq!(pos.legal_moves(), Vec::<String>::new());
}

#[test]
fn stalemate_counts_piece_moves_only() {
    // White's king and pawn have no move and White is not in check; rule
    // changes (P=..., N=...) would be open, but the game is stalemated.
    let mut pos = flexi().from_fen("4k3/8/8/8/8/p7/P1q5/K7 w - - 0 1 -").unwrap();
    assert!(!pos.in_check());
    assert_eq!(pos.legal_moves(), Vec::<String>::new());
    assert_eq!(pos.outcome(), Some(Outcome::Stalemate));
    assert_eq!(pos.perft(1), 0);
    assert!(pos.play("P=fmWfcF").is_err());
    // The same position with Black's queen a file further has a king move
    // and so every rule change besides.
    let mut free = flexi().from_fen("4k3/8/8/8/8/p7/P2q4/K7 w - - 0 1 -").unwrap();
    assert!(changes(&mut free).len() > 40);
    assert_eq!(changes(&mut free), changes_played_out(&free));
}

#[test]
fn rule_changes_agree_with_playing_them_out() {
    // Through the tree of two plies from the start and from a middle
    // game with changed rules, the changes offered are exactly those that
    // leave the mover's king safe and change something.
    let mut positions = Vec::new();
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 -",
        "r1bqk2r/ppp2ppp/2n2n2/3pp3/1b1PP3/2N2N2/PPP2PPP/R1BQKB1R w KQkq - 0 5 B=NN,N=K",
        "4k3/4r3/8/8/8/8/3N4/4K3 w - - 0 30 R=W",
        "4k3/8/8/8/8/8/4r3/4K2N w - - 0 1 -",
    ] {
        let pos = flexi().from_fen(fen).unwrap();
        for first in pos.clone().legal_moves().into_iter().take(40) {
            let mut p = pos.clone();
            p.play(&first).unwrap();
            positions.push((format!("after {first} from {fen}"), p));
        }
        positions.push((fen.to_string(), pos));
    }
    parallel::for_each(&positions, |(name, pos)| {
        assert_eq!(changes(&mut pos.clone()), changes_played_out(pos), "{name}")
    });
}

/// Perft with the rule changes found the slow way (`changes_played_out`)
/// and only the piece moves taken from the generator.
fn perft_played_out(pos: &AnyPosition, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves: Vec<String> = pos.clone().legal_moves().into_iter().filter(|m| !m.contains('=')).collect();
    moves.extend(changes_played_out(pos));
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| {
            let mut child = pos.clone();
            child.play(m).unwrap();
            perft_played_out(&child, depth - 1)
        })
        .sum()
}

#[test]
fn perft_agrees_with_rule_changes_played_out() {
    // Two plies from the start, and from positions where a rule change
    // checks or mates at once (a knight that becomes a rook on the eighth
    // rank) or a check stands (a rook whose check the old rules let be
    // parried). The children are shared out over the cores: every rule
    // change played out compiles a rule set.
    let positions: Vec<AnyPosition> = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 -",
        "4N2k/6pp/8/8/8/8/8/K7 w - - 0 1 -",
        "4k3/8/8/8/8/8/4r3/4K2N w - - 0 1 -",
        "r1bqk2r/ppp2ppp/2n2n2/3pp3/1b1PP3/2N2N2/PPP2PPP/R1BQKB1R w KQkq - 0 5 B=NN,N=K",
    ]
    .iter()
    .map(|fen| flexi().from_fen(fen).unwrap())
    .collect();
    let children: Vec<(usize, AnyPosition)> = positions
        .iter()
        .enumerate()
        .flat_map(|(i, pos)| {
            pos.clone().legal_moves().into_iter().map(move |m| {
                let mut child = pos.clone();
                child.play(&m).unwrap();
                (i, child)
            })
        })
        .collect();
    let slow: Vec<AtomicU64> = positions.iter().map(|_| AtomicU64::new(0)).collect();
    parallel::for_each(&children, |(i, child)| {
        slow[*i].fetch_add(perft_played_out(child, 1), Ordering::Relaxed);
    });
    for (pos, slow) in positions.iter().zip(&slow) {
        assert_eq!(pos.clone().perft(2), slow.load(Ordering::Relaxed), "{}", pos.fen());
    }
}

#[test]
fn a_fen_carries_its_rules() {
    let mut pos = flexi().start();
    assert!(pos.fen().ends_with(" -"));
    pos.play("N=NN").unwrap();
    pos.play("B=W").unwrap();
    let fen = pos.fen();
    assert!(fen.ends_with(" N=NN,B=W"), "{fen}");
    let mut again = flexi().from_fen(&fen).unwrap();
    assert_eq!(again.fen(), fen);
    assert_eq!(again.perft(2), pos.perft(2));
    // Changing a piece back to its own movement removes it from the field.
    pos.play("N=N").unwrap();
    assert!(pos.fen().ends_with(" B=W"), "{}", pos.fen());
    for bad in ["K=Q", "N=", "X=N", "N=Jz", "NN"] {
        let text = format!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 {bad}");
        assert!(flexi().from_fen(&text).is_err(), "{bad} accepted");
    }
    assert!(pos.play("K=Q").is_err());
    assert!(pos.play("N=N").is_err(), "knights already move so");
}

/// Rules reached by rule changes, compiled from their parent's (each kind
/// the change left alone takes its tables from there), play as the same
/// rules compiled from nothing out of the FEN: the same moves and the same
/// perft, along random lines of changes and moves, pawns' changes too.
#[test]
fn rules_compiled_from_a_parent_play_as_rules_compiled_from_nothing() {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut random = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    for _line in 0..10 {
        let mut pos = flexi().start();
        for _ply in 0..8 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let changes: Vec<&String> = moves.iter().filter(|m| m.contains('=')).collect();
            let pick = if !changes.is_empty() && random(3) > 0 {
                changes[random(changes.len())].clone()
            } else {
                moves[random(moves.len())].clone()
            };
            pos.play(&pick).unwrap();
            let mut fresh = flexi().from_fen(&pos.fen()).unwrap();
            let mut ours = pos.legal_moves();
            let mut theirs = fresh.legal_moves();
            ours.sort();
            theirs.sort();
            assert_eq!(ours, theirs, "{}", pos.fen());
            assert_eq!(pos.perft(2), fresh.perft(2), "{}", pos.fen());
        }
    }
}
