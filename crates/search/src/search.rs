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

use crate::evaluate::{evaluate_cached, EvalTables};
use crate::history::Context;
use crate::move_picker::{capture_loses, is_quiet, legal_hash_move, order_score, pack, Exchange, MovePicker, Picking};
use crate::nnue::{Accumulator, Network};
use crate::params::SearchParams;
use crate::see::{quiet_see_at_least, see_at_least};
use crate::thread_data::ThreadData;
use crate::time::{Deadline, Limits};
use crate::tt::{prefetch, Bound, Entry, TranspositionTable};
use crate::{Options, Shared};
use protean_rules::variant::Role;
use protean_rules::{Bitboard, Move, MoveKind, MoveList, Position};
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::atomic::Ordering;

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

fn to_tt(score: i32, ply: usize) -> i16 {
    let s = if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    };
    s as i16
}

fn from_tt(score: i16, ply: usize) -> i32 {
    let s = score as i32;
    if s >= MATE_BOUND {
        s - ply as i32
    } else if s <= -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
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
        let eval = Rc::new(EvalTables::new(pos.rules()));
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

    /// Searches the root to `depth` inside (alpha, beta); the line found is
    /// the root frame's `pv`.
    pub fn root(&mut self, depth: i32, alpha: i32, beta: i32) -> i32 {
        self.root_depth = depth;
        self.negamax(alpha, beta, depth, 0, true, false)
    }

    /// The moves of this node: whole turns at the root, half turns below
    /// it when turns are split.
    fn generate(&mut self, moves: &mut MoveList, ply: usize, captures_only: bool) {
        if self.split_turns && ply > 0 {
            self.pos.legal_half_turns(moves, captures_only);
        } else if captures_only {
            self.pos.legal_captures(moves);
        } else {
            self.pos.legal_moves(moves);
        }
    }

    /// Searches the position after a move: negated for the opponent, as
    /// it is when the same side moves again (the shift of a split turn).
    #[allow(clippy::too_many_arguments)]
    fn child(
        &mut self,
        us: protean_rules::Color,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        pv_node: bool,
        can_null: bool,
    ) -> i32 {
        if self.pos.side_to_move() == us {
            self.negamax(alpha, beta, depth, ply, pv_node, can_null)
        } else {
            -self.negamax(-beta, -alpha, depth, ply, pv_node, can_null)
        }
    }

    fn negamax(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        pv_node: bool,
        can_null: bool,
    ) -> i32 {
        self.data.stack[ply].pv.clear();
        // Set while this node is searched without its hash move (a
        // singular extension's test).
        let excluded = self.data.stack[ply].excluded;
        if ply > 0 {
            if self.stopped {
                return 0;
            }
            if self.pos.draw_by_rule().is_some() {
                return self.draw();
            }
            // Mate distance pruning: no line here can beat a shorter mate.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.quiescence(alpha, beta, ply);
        }
        self.count_node();
        self.seldepth = self.seldepth.max(ply);
        let in_check = self.pos.in_check();
        let key = self.pos.key();
        let entry = self.tt.probe(key);
        let tt_move = entry.and_then(|e| e.mv);
        if let Some(e) = entry {
            if !pv_node && excluded.is_none() && e.depth as i32 >= depth {
                let s = from_tt(e.score, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    return s;
                }
            }
        }
        let t = self.tables();
        let static_eval = if in_check { NO_EVAL } else { self.evaluate(&t) };
        self.data.stack[ply].static_eval = static_eval;
        // The table's score, where its bound says it is at least as good a
        // guess, stands in for the static evaluation in the margins below.
        let eval = match entry {
            Some(e) if !in_check => {
                let s = from_tt(e.score, ply);
                let tighter = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s > static_eval,
                    Bound::Upper => s < static_eval,
                };
                if tighter && s.abs() < MATE_BOUND {
                    s
                } else {
                    static_eval
                }
            }
            _ => static_eval,
        };
        // Is the side to move better off than at its last move? Where it is,
        // a move is likelier to hold beta, so pruning may be bolder; where
        // it is not, the margins tighten. (Two plies up is the same side
        // unless turns are split, where it may not be.)
        let improving =
            !in_check && !self.split_turns && ply >= 2 && static_eval > self.data.stack[ply - 2].static_eval;

        // Internal iterative reduction: a node the table knows no move for
        // was never searched, or not usefully; a shallower search costs
        // less and finds it a hash move for the next iteration.
        let p = self.params;
        if ply > 0 && depth >= p.iir_depth && tt_move.is_none() && excluded.is_none() {
            depth -= 1;
        }

        if !pv_node && !in_check && ply > 0 && excluded.is_none() {
            // Reverse futility: far above beta at low depth, stay there.
            if depth <= p.rfp_depth && eval - p.rfp_margin * (depth - i32::from(improving)) >= beta && eval < MATE_BOUND
            {
                return eval;
            }
            // Null move: if passing still holds beta, a real move will too
            // (not with pawns only, where zugzwang is common).
            if can_null
                && depth >= p.nmp_depth
                && eval >= beta
                && static_eval >= beta
                && self.has_pieces_beyond_pawns()
                && !self.pos.shift_pending()
            {
                let r = p.nmp_base + depth / p.nmp_depth_divisor;
                self.data.stack[ply].continuation = None;
                self.pos.make(Move::NULL);
                let score = -self.negamax(-beta, -beta + 1, depth - 1 - r, ply + 1, false, false);
                self.pos.unmake();
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
        }

        // Singular extension: where the hash move holds a good lower bound
        // and every other move, searched shallower, falls well short of
        // it, the hash move is the only move here and is searched a ply
        // deeper. Where another move also holds beta, either would do: the
        // node is cut off (multi-cut). Where the hash move is not singular
        // but its bound beats beta, it is searched a ply shallower.
        let mut hash_extension = None;
        let may_extend = ply > 0
            && ply < 2 * self.root_depth as usize
            && depth >= p.se_depth
            && excluded.is_none()
            && !self.tiles_move;
        if let Some(e) = entry.filter(|_| may_extend) {
            let tt_score = from_tt(e.score, ply);
            if e.depth as i32 >= depth - p.se_entry_depth_margin
                && e.bound != Bound::Upper
                && tt_score.abs() < MATE_BOUND
            {
                if let Some(m) = e.mv.and_then(|p| legal_hash_move(&mut self.pos, p)) {
                    let singular_beta = tt_score - p.se_beta_margin * depth;
                    self.data.stack[ply].excluded = Some(m);
                    let score = self.negamax(singular_beta - 1, singular_beta, (depth - 1) / 2, ply, false, false);
                    self.data.stack[ply].excluded = None;
                    if self.stopped {
                        return 0;
                    }
                    if score < singular_beta {
                        hash_extension = Some(1);
                    } else if singular_beta >= beta {
                        return singular_beta;
                    } else if tt_score >= beta {
                        hash_extension = Some(-1);
                    }
                }
            }
        }

        let context = self.context(ply);
        let picking = if ply == 0 || self.tiles_move {
            Picking::All
        } else if in_check {
            Picking::HashThenAll
        } else {
            Picking::Staged
        };
        let mut picker = MovePicker::new(&mut self.data.stack[ply], picking, tt_move);
        if picking == Picking::All {
            let moves = picker.all_moves();
            self.generate(moves, ply, false);
            if ply == 0 {
                let (roots, excluded) = (&self.root_moves, &self.excluded);
                let mut i = 0;
                while i < moves.len() {
                    if !roots.contains(&moves[i]) || excluded.contains(&moves[i]) {
                        moves.swap_remove(i);
                    } else {
                        i += 1;
                    }
                }
            }
            picker.score_all(&self.pos, &t, &|p, m| self.data.histories.quiet(p, m, &context));
        }
        let us = self.pos.side_to_move();
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut quiets_tried = std::mem::take(&mut self.data.stack[ply].quiets_tried);
        quiets_tried.clear();
        let mut yielded = 0;
        loop {
            let histories = &self.data.histories;
            let Some(m) = picker.next(&mut self.pos, &t, &|p, m| histories.quiet(p, m, &context)) else { break };
            if Some(m) == excluded {
                continue;
            }
            let quiet = is_quiet(m);
            let n = yielded;
            yielded += 1;

            // Pruning at low depth, once a move has saved the node from
            // being mated: quiet moves far down the ordered list (late move
            // pruning), quiet moves that even a good positional gain would
            // leave below alpha (futility), and captures that lose more than
            // the depth can win back (static exchange). A move that gives
            // check is searched all the same, save for late move pruning.
            let mut prune_unless_check = false;
            if !pv_node && !in_check && ply > 0 && best > -MATE_BOUND {
                if quiet {
                    if depth <= p.lmp_depth && n >= p.late_move_count(depth, improving) {
                        continue;
                    }
                    // The margins read the depth the move would be searched
                    // to once reduced, as Stockfish's do: a late move is
                    // judged at the depth it would get.
                    let reduced = (depth - 1 - self.late_move_reduction(depth, n)).max(0);
                    // A quiet move that leaves its piece to be taken for
                    // more than the reduced depth could win back.
                    let see_margin = -p.quiet_see_quadratic * reduced * reduced - p.quiet_see_linear * reduced;
                    if reduced <= p.quiet_see_depth && !quiet_see_at_least(&self.pos, m, &t, see_margin) {
                        continue;
                    }
                    prune_unless_check =
                        reduced <= p.futility_depth && eval + p.futility_base + p.futility_margin * reduced <= alpha;
                } else if depth <= p.capture_see_depth
                    && m.is_capture()
                    && !see_at_least(&self.pos, m, &t, -p.capture_see_margin * depth)
                {
                    prune_unless_check = true;
                }
            }

            // A late quiet move may be reduced (unless it gives check); its
            // history, which scales the reduction, is read before the move
            // is made, and only for such a move.
            let reducible = depth >= p.lmr_depth && n >= p.lmr_moves + usize::from(pv_node) && quiet && !in_check;
            let move_history = if reducible { self.data.histories.quiet(&self.pos, m, &context) } else { 0 };
            self.data.stack[ply].continuation = self.data.histories.context(&self.pos, m);
            self.pos.make(m);
            // Fetched before the check test, whose attack lookups then
            // hide the memory's latency from the child's probe.
            let child_key = self.pos.key();
            self.tt.prefetch(child_key);
            prefetch(&self.data.eval_cache[ThreadData::eval_slot(child_key)]);
            let gives_check = self.pos.in_check();
            if prune_unless_check && !gives_check {
                self.pos.unmake();
                continue;
            }
            let nodes_before = self.nodes;
            let extension = match hash_extension {
                Some(e) if n == 0 => e,
                _ => i32::from(gives_check),
            };
            // The piece move of a split turn costs no depth: the shift does.
            let new_depth = if self.pos.shift_pending() { depth } else { depth - 1 + extension };
            let score = if n == 0 {
                self.child(us, alpha, beta, new_depth, ply + 1, pv_node, true)
            } else {
                let mut r = 0;
                if reducible && !gives_check {
                    r = self.late_move_reduction(depth, n);
                    if pv_node {
                        r -= p.lmr_pv;
                    }
                    if self.data.stack[ply].killers.contains(&Some(m)) {
                        r -= p.lmr_killer;
                    }
                    if !improving {
                        r += p.lmr_not_improving;
                    }
                    // A move with a good record is reduced less, a bad one more.
                    r -= move_history / p.lmr_history_divisor;
                    r = r.clamp(0, new_depth - 1);
                }
                let mut s = self.child(us, alpha, alpha + 1, new_depth - r, ply + 1, false, true);
                if s > alpha && r > 0 {
                    s = self.child(us, alpha, alpha + 1, new_depth, ply + 1, false, true);
                }
                if s > alpha && s < beta && pv_node {
                    s = self.child(us, alpha, beta, new_depth, ply + 1, true, true);
                }
                s
            };
            self.pos.unmake();
            if ply == 0 {
                if let Some(i) = self.root_moves.iter().position(|&r| r == m) {
                    self.root_nodes[i] += self.nodes - nodes_before;
                }
            }
            if self.stopped {
                picker.finish(&mut self.data.stack[ply]);
                self.data.stack[ply].quiets_tried = quiets_tried;
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(m);
                    let (head, tail) = self.data.stack.split_at_mut(ply + 1);
                    let pv = &mut head[ply].pv;
                    pv.clear();
                    pv.push(m);
                    pv.extend_from_slice(&tail[0].pv);
                    if score >= beta {
                        if quiet {
                            self.reward_quiet(m, &quiets_tried, depth, ply, &context);
                        }
                        break;
                    }
                }
            }
            if quiet {
                quiets_tried.push(m);
            }
        }
        picker.finish(&mut self.data.stack[ply]);
        self.data.stack[ply].quiets_tried = quiets_tried;
        if yielded == 0 {
            if excluded.is_some() {
                // The hash move was the only legal move: singular indeed.
                return alpha;
            }
            // No legal move: mate or stalemate (or, at the root, every
            // move already has its MultiPV line).
            return if ply == 0 && !self.excluded.is_empty() {
                -INFINITY
            } else if in_check {
                -MATE + ply as i32
            } else {
                self.draw()
            };
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // The static evaluation learns from the result, where the result
        // says something about it: not where a capture decided it, and not
        // where the bound leaves the gap's direction open.
        let best_is_capture = best_move.is_some_and(|m| !is_quiet(m));
        if excluded.is_none()
            && !in_check
            && !best_is_capture
            && best.abs() < MATE_BOUND
            && !(bound == Bound::Lower && best <= static_eval)
            && !(bound == Bound::Upper && best >= static_eval)
        {
            self.data.correction.update(&self.pos, depth, best, static_eval);
        }
        if excluded.is_none() {
            self.tt.store(
                key,
                Entry {
                    mv: best_move.map(|m| pack(m, self.tiles_move)),
                    score: to_tt(best, ply),
                    depth: depth.clamp(0, 255) as u8,
                    bound,
                },
            );
        }
        best
    }

    fn quiescence(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.data.stack[ply].pv.clear();
        self.count_node();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = self.pos.in_check();
        // Owing a tile shift, the side may not stand pat: the turn goes on.
        let pending = self.pos.shift_pending();
        let t = self.tables();
        let stand_pat = if in_check || pending { -INFINITY } else { self.evaluate(&t) };
        if ply >= MAX_PLY {
            return if in_check || pending { 0 } else { stand_pat };
        }
        if stand_pat >= beta {
            return stand_pat;
        }
        alpha = alpha.max(stand_pat);
        let mut moves = std::mem::replace(&mut self.data.stack[ply].moves, MoveList::empty());
        self.generate(&mut moves, ply, true);
        let us = self.pos.side_to_move();
        if moves.is_empty() {
            self.data.stack[ply].moves = moves;
            return if in_check { -MATE + ply as i32 } else { stand_pat };
        }
        // In check with only rule changes to answer it (Flexichess): each
        // change may check back, and a line of them never ends (it ran to
        // the ply cap after `e2e4 N=NN`). Not mate, not quiet: the static
        // score stands, and the main search looks at such lines properly.
        if in_check && moves.iter().all(|m| m.kind == MoveKind::Redefine) {
            self.data.stack[ply].moves = moves;
            return self.evaluate(&t);
        }
        let mut order = std::mem::take(&mut self.data.stack[ply].ordered);
        order.clear();
        let (histories, killers) = (&self.data.histories, &self.data.stack[ply].killers);
        // Out of check a losing capture is never searched, so its exchange
        // is looked at only when it is reached (and not at all behind a
        // cutoff or delta pruning); the captures that are searched come in
        // the same order. In check every move is searched, losing captures
        // last.
        let exchange = if in_check { Exchange::Now } else { Exchange::Later };
        order.extend(moves.iter().map(|&m| {
            (order_score(&self.pos, m, None, killers, &t, &|p, m| histories.quiet(p, m, &[None, None]), exchange), m)
        }));
        order.sort_unstable_by_key(|o| std::cmp::Reverse(o.0));
        let mut best = stand_pat;
        for &(_, m) in &order {
            if !in_check && m.is_capture() {
                // Delta pruning, then losing exchanges are not looked at
                // (a promotion's exchange weighs the new piece). The
                // victim is weighed as the evaluation weighs it: by
                // exchange values a recapture of a queen would be pruned
                // wherever the evaluation rates a queen above 1,120.
                let victim = m
                    .capture_cell()
                    .and_then(|c| self.pos.piece_at(c).map(|p| t.placed_worth(p.color(), p.kind(), c)))
                    .unwrap_or(0);
                if m.promotion().is_none() && stand_pat + victim + self.params.delta_margin < alpha {
                    continue;
                }
                let loses = if m.promotion().is_some() {
                    !see_at_least(&self.pos, m, &t, 0)
                } else {
                    capture_loses(&self.pos, m, &t)
                };
                if loses {
                    continue;
                }
            }
            self.pos.make(m);
            let score = if self.pos.side_to_move() == us {
                self.quiescence(alpha, beta, ply + 1)
            } else {
                -self.quiescence(-beta, -alpha, ply + 1)
            };
            self.pos.unmake();
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.data.stack[ply].moves = moves;
        self.data.stack[ply].ordered = order;
        best
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

#[cfg(test)]
mod tests {
    use super::*;
    use protean_rules::{with_position, AnyRules};

    /// Quiescence's score of the standard position `fen` (a ply below
    /// the root) in the null window just above its static evaluation
    /// plus `needed`, and that evaluation.
    fn quiescence_above(fen: &str, needed: i32) -> (i32, i32) {
        let pos = AnyRules::by_name("standard").unwrap().from_fen(fen).unwrap();
        let (tt, shared, limits, options) =
            (TranspositionTable::new(1), Shared::default(), Limits::default(), Options::default());
        let mut data = ThreadData::new();
        with_position!(&pos, p => {
            let mut w = Worker::new(p.clone(), &tt, &mut data, &shared, &limits, Deadline { soft: None, hard: None }, true, &options);
            let t = w.tables();
            let stand_pat = w.evaluate(&t);
            let alpha = stand_pat + needed;
            (w.quiescence(alpha, alpha + 1, 1), alpha)
        })
    }

    #[test]
    fn quiescence_takes_back_a_queen_the_evaluation_rates_above_its_exchange_value() {
        // White's queen has just taken Black's on d5; the e6 pawn takes
        // it back. The evaluation rates a queen in the middle game far
        // above its exchange value (920), so winning back 1,500 is within
        // reach of the recapture and must not be pruned as out of reach.
        let queen_taken = "rnb1kbnr/ppp2ppp/4p3/3Q4/8/8/PPPP1PPP/RNB1KBNR b KQkq - 0 1";
        let (score, alpha) = quiescence_above(queen_taken, 1_500);
        assert!(score > alpha, "{score} <= {alpha}");
        // Out of the recapture's reach, the window still fails low.
        let (score, alpha) = quiescence_above(queen_taken, 4_000);
        assert!(score <= alpha, "{score} > {alpha}");
    }
}
