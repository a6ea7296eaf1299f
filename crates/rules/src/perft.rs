//! Perft: counts the leaves of the legal move tree, the standard test of a
//! move generator. Counts at the last ply are bulk counts (the length of
//! the legal move list), as Stockfish's `go perft` does.

use crate::bitboard::Bitboard;
use crate::moves::MoveList;
use crate::position::Position;

pub fn perft<B: Bitboard>(pos: &mut Position<B>, depth: u32) -> u64 {
    let mut buffers: Vec<MoveList> = (0..depth.max(1)).map(|_| MoveList::new()).collect();
    count(pos, depth, &mut buffers)
}

fn count<B: Bitboard>(pos: &mut Position<B>, depth: u32, buffers: &mut [MoveList]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (moves, rest) = buffers.split_first_mut().expect("one buffer per ply");
    pos.legal_moves(moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for &m in moves.iter() {
        pos.make(m);
        nodes += count(pos, depth - 1, rest);
        pos.unmake();
    }
    nodes
}

/// Perft below each legal root move, in generation order.
pub fn divide<B: Bitboard>(pos: &mut Position<B>, depth: u32) -> Vec<(crate::moves::Move, u64)> {
    pos.legal_move_list()
        .into_iter()
        .map(|m| {
            pos.make(m);
            let n = perft(pos, depth.saturating_sub(1));
            pos.unmake();
            (m, n)
        })
        .collect()
}
