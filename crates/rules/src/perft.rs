//! Perft: counts the leaves of the legal move tree, the standard test of a
//! move generator. Counts at the last ply are bulk counts, as Stockfish's
//! `go perft` makes them, but where Stockfish lists the legal moves and
//! takes the list's length, Protean counts the moves that cannot expose
//! the king from their target sets and lists only the rest
//! (`Position::count_legal_moves`; a test holds it to the list's length).

use crate::bitboard::Bitboard;
use crate::moves::MoveList;
use crate::position::Position;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

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

/// The deepest perft counted: each ply keeps a move list.
pub const MAX_DEPTH: u32 = 64;

/// The most threads a perft shares its root moves among.
pub const MAX_THREADS: usize = 256;

/// What a perft found: the count below each legal root move, in
/// generation order, and the total (1 at depth 0, where the root is the
/// only leaf and no move is listed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divide<M> {
    pub moves: Vec<(M, u64)>,
    pub nodes: u64,
}

/// Perft below each legal root move, the root moves shared among
/// `threads` threads (each with its own copy of the position); `None` if
/// `stop` was set before it finished.
pub fn divide<B: Bitboard>(
    pos: &Position<B>,
    depth: u32,
    threads: usize,
    stop: &AtomicBool,
) -> Option<Divide<crate::moves::Move>> {
    if depth == 0 {
        return Some(Divide { moves: Vec::new(), nodes: 1 });
    }
    let roots = pos.clone().legal_move_list();
    let next = AtomicUsize::new(0);
    let count_some = || {
        let mut pos = pos.clone();
        let mut counted = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(&m) = roots.get(i) else { return counted };
            pos.make(m);
            counted.push((i, perft_until(&mut pos, depth - 1, stop)));
            pos.unmake();
        }
    };
    let mut counts = vec![0; roots.len()];
    let threads = threads.clamp(1, MAX_THREADS).min(roots.len().max(1));
    let counted: Vec<Vec<(usize, u64)>> = if threads == 1 {
        vec![count_some()]
    } else {
        std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads).map(|_| scope.spawn(count_some)).collect();
            workers.into_iter().map(|w| w.join().expect("a perft thread")).collect()
        })
    };
    for (i, n) in counted.into_iter().flatten() {
        counts[i] = n;
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let nodes = counts.iter().sum();
    Some(Divide { moves: roots.into_iter().zip(counts).collect(), nodes })
}
