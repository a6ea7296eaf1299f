//! What a search thread keeps from one search to the next: its move
//! ordering histories and a stack of per-ply frames whose buffers, once
//! grown, serve every later node at that ply, so that the tree allocates
//! nothing. `Engine::clear` (UCI's `ucinewgame`, XBoard's `new`) empties
//! it; between the moves of one game it carries what the last search
//! learned into the next.

use crate::correction::CorrectionHistory;
use crate::evaluate::PawnCache;
use crate::history::Histories;
use crate::params::{LateMoveReductions, SearchParams};
use crate::search::MAX_PLY;
use protean_rules::{Move, MoveList};

/// One ply of the search stack.
pub(crate) struct Frame {
    /// The node's noisy (or all) moves and their ordering scores; while a
    /// node uses them the slot holds an empty list (see `MoveList::empty`).
    pub moves: MoveList,
    pub scores: Vec<i32>,
    /// The node's quiet moves and their ordering scores.
    pub quiet_moves: MoveList,
    pub quiet_scores: Vec<i32>,
    /// Quiet moves searched without a cutoff (their history falls).
    pub quiets_tried: Vec<Move>,
    /// Quiescence's moves in the order they are tried.
    pub ordered: Vec<(i32, Move)>,
    /// The principal variation from this ply.
    pub pv: Vec<Move>,
    /// Quiet moves that cut off at this ply, most recent first.
    pub killers: [Option<Move>; 2],
    /// The node's static evaluation (`search::NO_EVAL` in check), which
    /// the node two plies down compares with its own: is the side
    /// improving?
    pub static_eval: i32,
    /// The continuation table of answers to the move being searched at
    /// this ply (see `Histories::context`).
    pub continuation: Option<u32>,
    /// The move a singular extension's test searches this node without.
    pub excluded: Option<Move>,
}

impl Frame {
    fn new() -> Frame {
        // Room for the moves of any position of the standard-sized boards,
        // so that no node grows a buffer (a larger list grows once).
        const ROOM: usize = 256;
        Frame {
            moves: MoveList::new(),
            scores: Vec::with_capacity(ROOM),
            quiet_moves: MoveList::new(),
            quiet_scores: Vec::with_capacity(ROOM),
            quiets_tried: Vec::with_capacity(ROOM),
            ordered: Vec::with_capacity(ROOM),
            pv: Vec::with_capacity(MAX_PLY + 1),
            killers: [None; 2],
            static_eval: 0,
            continuation: None,
            excluded: None,
        }
    }
}

/// A search thread's own data (Stockfish's per-thread `Worker` state,
/// viridithas's `ThreadData`).
pub(crate) struct ThreadData {
    /// Quiet-move histories.
    pub histories: Histories,
    /// The static evaluation's errors by pawn structure.
    pub correction: CorrectionHistory,
    pub stack: Vec<Frame>,
    /// Static evaluations by position key: the same position is evaluated
    /// again and again (re-searches, transpositions, the next iteration).
    pub eval_cache: Vec<(u64, i32)>,
    /// Pawn structure terms by the pawns' cells.
    pub pawn_cache: PawnCache,
    /// The late move reductions of the search's `SearchParams`.
    pub reductions: LateMoveReductions,
}

/// Entries of the evaluation cache (a power of two: 1 MiB a thread).
const EVAL_CACHE_ENTRIES: usize = 1 << 16;

impl ThreadData {
    pub fn new() -> ThreadData {
        ThreadData {
            histories: Histories::new(),
            correction: CorrectionHistory::new(),
            stack: (0..=MAX_PLY).map(|_| Frame::new()).collect(),
            eval_cache: vec![(0, 0); EVAL_CACHE_ENTRIES],
            pawn_cache: PawnCache::new(),
            reductions: LateMoveReductions::new(&SearchParams::DEFAULT),
        }
    }

    /// Forgets what earlier searches learned (a new game).
    pub fn clear(&mut self) {
        self.histories.clear();
        self.correction.clear();
        self.forget_evaluations();
        for frame in &mut self.stack {
            frame.killers = [None; 2];
        }
    }

    /// Forgets the evaluations kept (the weights changed).
    pub fn forget_evaluations(&mut self) {
        self.eval_cache.fill((0, 0));
        self.pawn_cache.clear();
    }

    /// Where the evaluation cache keeps the position of `key`.
    pub fn eval_slot(key: u64) -> usize {
        key as usize & (EVAL_CACHE_ENTRIES - 1)
    }

    /// Readies the data for a board of `cells` cells and `kinds` piece
    /// kinds: what was learned on another board starts again.
    pub fn prepare(&mut self, cells: usize, kinds: usize) {
        if self.histories.prepare(cells, kinds) {
            self.clear();
        }
    }
}
