//! One search thread: iterative deepening over principal variation search
//! with aspiration windows, quiescence search with static exchange
//! pruning, check and singular extensions, internal iterative reductions,
//! reverse futility, null-move, futility, late-move and static-exchange
//! pruning (margins that widen while the side is improving), late move
//! reductions by history, killer, history and continuation-history
//! ordering, a static evaluation corrected by its recent errors in the
//! same pawn structure (correction history), mate distance pruning, and
//! draws by repetition, the move counter and material inside the tree.
//!
//! Where tiles move (Beyond Chess) a turn is a piece move and a tile
//! shift. The root always sees whole turns, so the best move and the
//! MultiPV lines are turns; below it the search either does too, or
//! plays each turn as two plies by the same side (`Options::split_turns`):
//! the piece move (which costs no depth) and then the shift. A child of
//! the same side is searched with the window as it is, not negated.
//!
//! Lazy SMP: every thread runs this same search on its own copy of the
//! position; they share only the transposition table and the stop flag,
//! and helpers start at staggered depths so they explore different trees.
//!
//! This file holds a thread's [`Worker`] and what its nodes share (node
//! counting, the evaluation with its caches, histories' rewards); the
//! tree is in `negamax`, the captures-only search below it in
//! `quiescence`.

use crate::evaluate::{evaluate_cached, EvalTables};
use crate::history::Context;
use crate::move_picker::pack;
use crate::nnue::{Accumulator, Network};
use crate::params::SearchParams;
use crate::thread_data::ThreadData;
use crate::time::{Deadline, Limits};
use crate::tt::TranspositionTable;
use crate::{Options, Shared};
use protean_rules::variant::Role;
use protean_rules::{Bitboard, Move, MoveList, Position};
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::atomic::Ordering;

mod negamax;
mod quiescence;

pub const MAX_PLY: usize = 128;
pub const MATE: i32 = 30_000;
/// Scores beyond this are mates (in at most `MATE - score` plies).
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
const INFINITY: i32 = MATE + 1;
/// The static evaluation of a node in check (which has none).
pub(crate) const NO_EVAL: i32 = -INFINITY;

/// One thread's search of one position: the position it plays moves on,
/// its thread's data, and what it shares with the other threads.
pub(crate) struct Worker<'a, B: Bitboard> {
    pub pos: Position<B>,
    tt: &'a TranspositionTable,
    data: &'a mut ThreadData,
    /// Evaluation tables of the root's rules, and of rules that rule
    /// changes (Flexichess) reach in the tree, by the rules' key. Each
    /// thread builds its own: the reference counts are the thread's alone.
    eval: Rc<EvalTables<B>>,
    eval_by_rules: HashMap<u64, Rc<EvalTables<B>>>,
    /// The network, where `Use NNUE` is on and the variant has one (its
    /// built-in network, or `EvalFile`'s where that fits the board), with
    /// the key of the rules it was trained for: under a rule change the
    /// hand-made evaluation takes over.
    network: Option<(&'a Network, u64)>,
    /// The network's sums of the last position it evaluated.
    accumulator: Accumulator<B>,
    shared: &'a Shared,
    limits: &'a Limits,
    deadline: Deadline,
    pub main: bool,
    pub nodes: u64,
    unreported_nodes: u64,
    pub seldepth: usize,
    pub root_moves: Vec<Move>,
    /// Nodes searched below each root move (same order as `root_moves`),
    /// over every iteration so far: time management asks the best move's
    /// share.
    pub root_nodes: Vec<u64>,
    /// Root moves already given a line in this iteration (MultiPV).
    excluded: Vec<Move>,
    pub stopped: bool,
    /// The margins and reductions (`Options::params`), copied so that the
    /// tree reads them without following a pointer.
    pub params: SearchParams,
    /// Below the root, play a turn as two plies (see the module comment).
    split_turns: bool,
    /// What a draw is worth to the side to move, by side (see `draw`).
    draw_scores: [i32; 2],
    /// Tiles move (Beyond Chess): moves are generated with their turns.
    tiles_move: bool,
    /// The depth of the iteration: singular extensions stop at twice it,
    /// so that extended lines cannot run on to the ply cap.
    root_depth: i32,
}

/// How many rule sets' evaluation tables a search keeps (Flexichess).
const EVAL_TABLES_KEPT: usize = 2048;

impl<'a, B: Bitboard> Worker<'a, B> {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        mut pos: Position<B>,
        tt: &'a TranspositionTable,
        data: &'a mut ThreadData,
        shared: &'a Shared,
        limits: &'a Limits,
        deadline: Deadline,
        main: bool,
        options: &'a Options,
    ) -> Self {
        data.prepare(pos.rules().geometry.cells(), pos.rules().piece_types);
        data.reductions.prepare(&options.params);
        let mut root = MoveList::new();
        pos.legal_moves(&mut root);
        let mut root_moves: Vec<Move> = root.to_vec();
        if !limits.search_moves.is_empty() {
            root_moves.retain(|m| limits.search_moves.contains(m));
        }
        let tiles_move = pos.tiles_move();
        let split_turns = options.split_turns && tiles_move;
        // The root's side takes a draw as `contempt` lost, so the other
        // side takes it as that much won.
        let mut draw_scores = [options.contempt; 2];
        draw_scores[pos.side_to_move() as usize] = -options.contempt;
        let eval = Rc::new(options.eval_tables(pos.rules()));
        let network = options.network(pos.rules()).map(|net| (net, pos.rules().key));
        let kinds = pos.rules().piece_types;
        Worker {
            pos,
            tt,
            data,
            eval,
            eval_by_rules: HashMap::new(),
            network,
            accumulator: Accumulator::new(kinds),
            shared,
            limits,
            deadline,
            main,
            nodes: 0,
            unreported_nodes: 0,
            seldepth: 0,
            root_nodes: vec![0; root_moves.len()],
            root_moves,
            excluded: Vec::new(),
            stopped: false,
            params: options.params,
            split_turns,
            draw_scores,
            tiles_move,
            root_depth: 0,
        }
    }

    /// Counts a node and, every 1024, publishes the count and looks at the
    /// stop flag and the clock (the main thread only), so `stop` and time
    /// limits act within microseconds.
    #[inline]
    fn count_node(&mut self) {
        self.nodes += 1;
        self.unreported_nodes += 1;
        if let Some(limit) = self.limits.nodes {
            if self.main && self.shared.nodes.load(Ordering::Relaxed) + self.unreported_nodes >= limit {
                self.shared.stop.store(true, Ordering::Relaxed);
            }
        }
        if self.unreported_nodes >= 1024 {
            self.flush_nodes();
            if self.main && !self.shared.pondering.load(Ordering::Relaxed) {
                if let Some(hard) = self.deadline.hard {
                    if self.shared.elapsed() >= hard {
                        self.shared.stop.store(true, Ordering::Relaxed);
                    }
                }
            }
        }
        if self.shared.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
    }

    pub fn flush_nodes(&mut self) {
        self.shared.nodes.fetch_add(self.unreported_nodes, Ordering::Relaxed);
        self.unreported_nodes = 0;
    }

    /// A quiet move cut the node off: it becomes a killer, its histories
    /// rise and those of the quiet moves tried before it fall.
    fn reward_quiet(&mut self, m: Move, tried: &[Move], depth: i32, ply: usize, context: &Context) {
        let killers = &mut self.data.stack[ply].killers;
        if killers[0] != Some(m) {
            killers[1] = killers[0];
            killers[0] = Some(m);
        }
        let bonus = self.params.history_bonus(depth);
        let histories = &mut self.data.histories;
        histories.update(&self.pos, m, context, bonus);
        for &q in tried {
            histories.update(&self.pos, q, context, -bonus);
        }
    }

    /// The table's reduction of the `n`th move (from 0) at `depth`, before
    /// the node's and the move's adjustments.
    fn late_move_reduction(&self, depth: i32, n: usize) -> i32 {
        self.data.reductions.get(depth, n)
    }

    /// A draw's score for the side to move: below zero for the root's side
    /// with a contempt (`Options::contempt`), so that it plays on rather
    /// than take a draw it does not need, in particular by repeating moves,
    /// rule changes or tile shifts.
    fn draw(&self) -> i32 {
        self.draw_scores[self.pos.side_to_move() as usize]
    }

    /// The continuation tables of the moves one and two plies above `ply`.
    fn context(&self, ply: usize) -> Context {
        let before = |n: usize| if ply >= n { self.data.stack[ply - n].continuation } else { None };
        [before(1), before(2)]
    }

    /// The static evaluation, from the thread's cache when it has it,
    /// moved by the correction history.
    fn evaluate(&mut self, t: &EvalTables<B>) -> i32 {
        let network = self.network.filter(|&(_, rules)| rules == self.pos.rules().key).map(|(net, _)| net);
        // The cache outlives a search, and the next may evaluate the other way.
        let key = self.pos.key() ^ network.map_or(0, |net| net.key);
        let slot = &mut self.data.eval_cache[ThreadData::eval_slot(key)];
        let raw = if slot.0 == key {
            slot.1
        } else {
            let score = match network {
                Some(net) if net.on_top => {
                    evaluate_cached(&self.pos, t, &mut self.data.pawn_cache)
                        + net.evaluate_from(&self.pos, &mut self.accumulator)
                }
                Some(net) => net.evaluate_from(&self.pos, &mut self.accumulator),
                None => evaluate_cached(&self.pos, t, &mut self.data.pawn_cache),
            };
            *slot = (key, score);
            score
        };
        self.data.correction.corrected(&self.pos, raw).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// The evaluation tables of the rules in force: a piece redefined by a
    /// rule change is valued from its new mobility.
    fn tables(&mut self) -> Rc<EvalTables<B>> {
        let key = self.pos.rules().key;
        if key == self.eval.rules_key {
            return self.eval.clone();
        }
        if let Some(tables) = self.eval_by_rules.get(&key) {
            return tables.clone();
        }
        // About 12 KB a set on 8x8: beyond the bound the map starts again
        // (the nodes on the stack keep the tables they hold).
        if self.eval_by_rules.len() >= EVAL_TABLES_KEPT {
            self.eval_by_rules.clear();
        }
        let tables = Rc::new(self.eval.for_changed_rules(self.pos.rules()));
        self.eval_by_rules.insert(key, tables.clone());
        tables
    }

    fn has_pieces_beyond_pawns(&self) -> bool {
        let rules = self.pos.rules();
        let us = self.pos.side_to_move();
        (0..rules.piece_types).any(|k| rules.roles[k] == Role::Other && self.pos.pieces_of(us, k).any())
    }

    /// The share of the nodes below the root that `m`'s subtree took.
    pub fn node_share(&self, m: Move) -> f64 {
        let total: u64 = self.root_nodes.iter().sum();
        let mine = self.root_moves.iter().position(|&r| r == m).map_or(0, |i| self.root_nodes[i]);
        mine as f64 / total.max(1) as f64
    }

    pub fn principal_variation(&self) -> Vec<Move> {
        self.data.stack[0].pv.clone()
    }

    pub fn set_excluded(&mut self, excluded: Vec<Move>) {
        self.excluded = excluded;
    }

    /// The reply the engine expects after `best`, from the PV or the table.
    pub fn ponder_move(&mut self, best: Move, pv: &[Move]) -> Option<Move> {
        if let Some(&m) = pv.get(1) {
            return Some(m);
        }
        self.pos.make(best);
        let reply = self
            .tt
            .probe(self.pos.key())
            .and_then(|e| e.mv)
            .and_then(|p| self.pos.legal_move_list().into_iter().find(|&m| pack(m, self.tiles_move) == p));
        self.pos.unmake();
        reply
    }
}
