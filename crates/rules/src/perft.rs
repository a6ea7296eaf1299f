//! Perft: counts the leaves of the legal move tree, the standard test of a
//! move generator. Counts at the last ply are bulk counts, as Stockfish's
//! `go perft` makes them, but where Stockfish lists the legal moves and
//! takes the list's length, Protean counts the moves that cannot expose
//! the king from their target sets and lists only the rest
//! (`Position::count_legal_moves`; a test holds it to the list's length).

use crate::bitboard::Bitboard;
use crate::moves::MoveList;
use crate::position::Position;
use std::sync::atomic::{AtomicBool, Ordering};

pub fn perft<B: Bitboard>(pos: &mut Position<B>, depth: u32) -> u64 {
    perft_until(pos, depth, &AtomicBool::new(false))
}

/// Perft that gives up soon after `stop` is set (its count is then
/// meaningless): a protocol's `perft` must not block `stop` or `quit`.
pub fn perft_until<B: Bitboard>(pos: &mut Position<B>, depth: u32, stop: &AtomicBool) -> u64 {
    let mut buffers: Vec<MoveList> = (0..depth.max(1)).map(|_| MoveList::new()).collect();
    count(pos, depth, &mut buffers, stop)
}

fn count<B: Bitboard>(pos: &mut Position<B>, depth: u32, buffers: &mut [MoveList], stop: &AtomicBool) -> u64 {
    if depth == 0 {
        return 1;
    }
    // Looked at above the last ply only, where it costs nothing.
    if depth > 1 && stop.load(Ordering::Relaxed) {
        return 0;
    }
    let (moves, rest) = buffers.split_first_mut().expect("one buffer per ply");
    if depth == 1 {
        return pos.count_legal_moves(moves) as u64;
    }
    pos.legal_moves(moves);
    let mut nodes = 0;
    for &m in moves.iter() {
        pos.make(m);
        nodes += count(pos, depth - 1, rest, stop);
        pos.unmake();
    }
    nodes
}

/// Perft below each legal root move, in generation order; `None` if
/// `stop` was set before it finished.
pub fn divide<B: Bitboard>(
    pos: &mut Position<B>,
    depth: u32,
    stop: &AtomicBool,
) -> Option<Vec<(crate::moves::Move, u64)>> {
    let divide = pos
        .legal_move_list()
        .into_iter()
        .map(|m| {
            pos.make(m);
            let n = perft_until(pos, depth.saturating_sub(1), stop);
            pos.unmake();
            (m, n)
        })
        .collect();
    (!stop.load(Ordering::Relaxed)).then_some(divide)
}
