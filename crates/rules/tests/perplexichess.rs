//! Perplexichess transfers (RULINGS.md, Perplexichess 3-4): between two
//! Flexichess boards, own pieces only, never the king, onto an empty cell,
//! not leaving one's own king in check, no pawn on the first or last rank,
//! no check on a board where one's own side is to move; finished boards
//! lose their kings and stay open.

use protean_rules::{AnyPosition, AnyRules, Color, Piece};

fn board(fen: &str) -> AnyPosition {
    AnyRules::by_name("flexichess").unwrap().from_fen(fen).unwrap()
}

fn transfer(from: &str, to: &str, cell: &str, color: Color) -> Result<(String, String), String> {
    let (mut a, mut b) = (board(from), board(to));
    a.transfer_to(&mut b, cell, color)?;
    Ok((a.fen(), b.fen()))
}

const EMPTYISH: &str = "4k3/8/8/8/8/8/8/4K3 w - - 0 1 -";

#[test]
fn a_piece_moves_to_the_same_cell_of_the_other_board() {
    let (a, b) = transfer("4k3/8/8/8/3N4/8/8/4K3 w - - 0 1 -", EMPTYISH, "d4", Color::White).unwrap();
    assert_eq!(a, "4k3/8/8/8/8/8/8/4K3 w - - 0 1 -");
    assert_eq!(b, "4k3/8/8/8/3N4/8/8/4K3 w - - 0 1 -");
}

#[test]
fn only_own_pieces_never_the_king_onto_an_empty_cell() {
    let from = "4k3/8/8/8/3n4/8/8/4K3 w - - 0 1 -";
    assert!(transfer(from, EMPTYISH, "d4", Color::White).unwrap_err().contains("no piece of that side"));
    assert!(transfer(from, EMPTYISH, "e1", Color::White).unwrap_err().contains("king"));
    let occupied = "4k3/8/8/8/3n4/8/8/4K3 w - - 0 1 -";
    assert!(transfer(from, occupied, "d4", Color::Black).unwrap_err().contains("not empty"));
    // Refused transfers change neither board.
    let (mut a, mut b) = (board(from), board(occupied));
    assert!(a.transfer_to(&mut b, "d4", Color::Black).is_err());
    assert_eq!((a.fen(), b.fen()), (from.to_string(), occupied.to_string()));
}

#[test]
fn a_transfer_may_not_leave_the_own_king_in_check() {
    // The bishop on e2 shields the king from the rook on e8.
    let pinned = "4r1k1/8/8/8/8/8/4B3/4K3 b - - 0 1 -";
    assert!(transfer(pinned, EMPTYISH, "e2", Color::White).unwrap_err().contains("own king in check"));
}

#[test]
fn a_transfer_may_not_give_check_where_its_side_is_to_move() {
    let from = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1 -";
    // On a board where White is to move, a rook on a1 would attack the
    // black king on a8; where Black is to move, it may check.
    assert!(transfer(from, "k7/8/8/8/8/8/8/4K3 w - - 0 1 -", "a1", Color::White).unwrap_err().contains("give check"));
    let (_, b) = transfer(from, "k7/8/8/8/8/8/8/4K3 b - - 0 1 -", "a1", Color::White).unwrap();
    assert!(board(&b).in_check());
}

#[test]
fn no_pawn_on_the_first_or_last_rank() {
    // Pawns never stand there on a legal board, so only a position built
    // for it shows the rule.
    let AnyPosition::Small(mut p) = board(EMPTYISH) else { panic!() };
    let pawn = Piece::new(Color::White, 0);
    assert_eq!(
        p.can_drop(60 - 4 + 1, pawn).map_err(|e| e.to_string()),
        Err("a pawn may not be put on the first or last rank".into())
    );
    assert_eq!(
        p.can_drop(1, pawn).map_err(|e| e.to_string()),
        Err("a pawn may not be put on the first or last rank".into())
    );
    assert!(p.can_drop(9, pawn).is_ok());
}

#[test]
fn a_finished_board_loses_its_kings_and_stays_open() {
    let mut done = board("4k3/8/8/8/3Q4/8/8/4K3 w - - 0 1 -");
    done.remove_kings();
    assert_eq!(done.piece_counts(), [1, 0]);
    assert!(done.fen().starts_with("8/8/8/8/3Q4/8/8/8 "));
    // Its pieces can still leave it (no king to expose) ...
    let mut live = board(EMPTYISH);
    done.transfer_to(&mut live, "d4", Color::White).unwrap();
    assert_eq!(live.piece_counts(), [2, 1]);
    // ... and come to it.
    live.transfer_to(&mut done, "d4", Color::White).unwrap();
    assert_eq!(done.piece_counts(), [1, 0]);
}
