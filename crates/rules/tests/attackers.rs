//! Who attacks a cell, as static exchanges ask it (`attackers_to`: both
//! colours at once, from reverse tables shared between the colours where
//! their pieces attack alike), checked against a deliberately simple
//! second answer: every piece still on the board asked, by its own capture
//! targets, whether it takes on the cell.

use protean_rules::{with_position, Bitboard, Position};

mod random_games;
use random_games::random_game;

/// The pieces in `occupied` that capture on `cell`, each asked alone.
fn attackers_one_by_one<B: Bitboard>(p: &Position<B>, cell: usize, occupied: B) -> B {
    let rules = p.rules();
    let blockers = occupied | p.rifts();
    occupied
        .cells()
        .filter(|&from| {
            let piece = p.piece_at(from).expect("an occupied cell holds a piece");
            rules.targets(piece.color(), piece.kind(), from, blockers, B::EMPTY, B::cell(cell)).1.has(cell)
        })
        .fold(B::EMPTY, |found, from| found | B::cell(from))
}

/// Every cell of `p`, with every piece on the board and with every other
/// one (as an exchange thins the board); returns the cells checked.
fn check_position<B: Bitboard>(p: &Position<B>, variant: &str) -> usize {
    let all = p.occupied();
    let thinned = all.cells().step_by(2).fold(B::EMPTY, |b, c| b | B::cell(c));
    let mut checked = 0;
    for occupied in [all, thinned] {
        for cell in p.rules().all_cells.cells() {
            assert_eq!(
                p.attackers_to(cell, occupied),
                attackers_one_by_one(p, cell, occupied),
                "{variant}, cell {cell}: {}",
                p.fen()
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn attackers_of_both_colours_agree_with_each_piece_asked_alone() {
    let mut checked = 0;
    for variant in ["standard", "chess960", "perfect", "onedim", "flexichess", "beyond"] {
        for seed in 1..=3u64 {
            for pos in random_game(variant, seed * 104_729, 60).iter().step_by(3) {
                checked += with_position!(pos, p => check_position(p, variant));
            }
        }
    }
    assert!(checked > 10_000, "only {checked} cells checked");
}
