//! What a staged move picker relies on, checked against the full legal
//! move generator on positions of random games in every variant whose
//! tiles stay put:
//! - the noisy and the quiet legal moves (with the rule changes) are
//!   exactly the legal moves, none twice;
//! - `is_legal_move` accepts exactly the legal moves, given every move
//!   legal in any position of the same game (moves from elsewhere, as the
//!   hash table and killers hand them over);
//! - `count_legal_moves`, perft's last ply, which counts most moves
//!   without listing them, counts exactly the legal moves.

use protean_rules::movegen::MoveSet;
use protean_rules::{with_position, Bitboard, Move, MoveList, Position};
use std::collections::HashSet;

mod random_games;
use random_games::random_game;

fn check_position<B: Bitboard>(p: &mut Position<B>, candidates: &HashSet<Move>) {
    let legal: HashSet<Move> = p.legal_move_list().into_iter().collect();
    let mut staged = Vec::new();
    let mut list = MoveList::new();
    for set in [MoveSet::Noisy, MoveSet::Quiet] {
        p.legal_piece_moves(&mut list, set);
        staged.extend_from_slice(&list);
    }
    list.clear();
    p.legal_redefinitions(&mut list);
    staged.extend_from_slice(&list);
    let staged_set: HashSet<Move> = staged.iter().copied().collect();
    assert_eq!(staged.len(), staged_set.len(), "a move in two stages: {}", p.fen());
    assert_eq!(staged_set, legal, "stages differ from the legal moves: {}", p.fen());
    assert_eq!(p.count_legal_moves(&mut list), legal.len(), "counted moves: {}", p.fen());
    let safety = p.king_safety();
    for &m in candidates {
        assert_eq!(p.is_legal_move(m, &safety), legal.contains(&m), "is_legal_move({m:?}) in {}", p.fen());
    }
}

#[test]
fn stages_partition_the_legal_moves_hash_moves_are_tested_and_counts_are_exact() {
    for variant in ["standard", "chess960", "perfect", "onedim", "flexichess"] {
        for seed in 1..=6u64 {
            let game = random_game(variant, seed * 7919, 120);
            // Every move legal somewhere in the game is a candidate everywhere.
            let mut candidates = HashSet::new();
            for pos in &game {
                candidates.extend(pos.clone().legal_move_list());
            }
            for pos in &game {
                let mut pos = pos.clone();
                with_position!(&mut pos, p => check_position(p, &candidates));
            }
        }
    }
}
