//! Staged move picking (Stockfish's `MovePicker`): a node's moves come one
//! at a time, and each stage is generated only when the stages before it
//! did not cut the node off:
//!
//! 1. the hash move, tested for legality without generating anything;
//! 2. noisy moves (captures of every kind, the One-dimensional knight's
//!    middle-cell captures among them, and pawn moves onto the promotion
//!    zone) that do not lose material, by most valuable victim and least
//!    valuable attacker;
//! 3. the killers, tested like the hash move;
//! 4. quiet moves, Flexichess rule changes among them, by history;
//! 5. the noisy moves that lose material (by static exchange).
//!
//! Where a node must see every move at once it is one stage of all moves,
//! ordered by the same scores: at the root (its moves are filtered), in
//! check (evasions are few), and where tiles move (a Beyond Chess turn, a
//! geret or a tile shift is generated with its whole turn).
//!
//! The picker owns its node's move buffers while it works; they come from
//! and go back to the node's stack frame, so nothing is allocated.

use crate::evaluate::EvalTables;
use crate::see::see_at_least;
use crate::thread_data::Frame;
use crate::tt::PackedMove;
use protean_rules::movegen::{KingSafety, MoveSet};
use protean_rules::moves::{TileShift, NO_PROMOTION};
use protean_rules::{Bitboard, Move, MoveKind, MoveList, Position};

/// Order scores: captures that do not lose and promotions before killers
/// and history, captures that lose last.
const GOOD_CAPTURE: i32 = 2_000_000;
const PROMOTION: i32 = 1_900_000;
const KILLER: i32 = 1_800_000;
const BAD_CAPTURE: i32 = -1_000_000;
/// Noisy moves scored below this wait for the last stage.
const GOOD_NOISY_FLOOR: i32 = BAD_CAPTURE / 2;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    HashMove,
    GenerateNoisy,
    GoodNoisy,
    Killers,
    GenerateQuiets,
    Quiets,
    BadNoisy,
    GenerateAll,
    All,
    Done,
}

/// How a node gets its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Picking {
    /// Stage by stage.
    Staged,
    /// The hash move, then every other move at once (in check).
    HashThenAll,
    /// Every move at once, the caller having generated them into
    /// `MovePicker::all_moves` (the root, boards whose tiles move).
    All,
}

pub(crate) struct MovePicker<B: Bitboard> {
    stage: Stage,
    picking: Picking,
    /// The hash move as stored, and as a legal move of this position once
    /// tested (when it comes first, not in one stage of all).
    packed_hash: Option<PackedMove>,
    hash_move: Option<Move>,
    killers: [Option<Move>; 2],
    killers_tried: usize,
    killers_yielded: [Option<Move>; 2],
    safety: Option<KingSafety<B>>,
    /// Noisy moves, or all moves; then the quiet ones, each with scores.
    moves: MoveList,
    scores: Vec<i32>,
    quiets: MoveList,
    quiet_scores: Vec<i32>,
    /// How many of `moves` and of `quiets` have been given.
    next: usize,
    next_quiet: usize,
}

/// Packs a move for the transposition table in 32 bits. Where tiles stay
/// put the move is whole (from 8 | to 8 | kind 4 | promotion 4 | aux 8),
/// so that it can be unpacked and tested without generating moves; where
/// they move, the tile shift takes the place of kind and aux (from 8 | to
/// 8 | promotion 4 | shift 12: none, follows, or its tile's cell and one of
/// four directions) and the move is found by packing the generated ones.
pub(crate) fn pack(m: Move, tiles_move: bool) -> PackedMove {
    let cells = m.from as u32 | (m.to as u32) << 8;
    if !tiles_move {
        return PackedMove(cells | (m.kind as u32) << 16 | (m.promotion as u32 & 15) << 20 | (m.aux as u32) << 24);
    }
    let shift = match m.shift {
        TileShift::NONE => 0,
        TileShift::FOLLOWS => 1,
        TileShift(from, to) => {
            let delta = to as i32 - from as i32;
            let dir = match delta {
                1 => 0,
                -1 => 1,
                d if d > 1 => 2,
                _ => 3,
            };
            2 + from as u32 * 4 + dir
        }
    };
    PackedMove(cells | (m.promotion as u32 & 15) << 16 | shift << 20)
}

/// The move `pack` packed where tiles stay put (not yet known to be legal).
fn unpack(p: PackedMove) -> Option<Move> {
    let kind = MoveKind::from_index((p.0 >> 16 & 15) as u8)?;
    let mut m = Move::new((p.0 & 255) as usize, (p.0 >> 8 & 255) as usize, kind);
    let promotion = (p.0 >> 20 & 15) as u8;
    m.promotion = if promotion == 15 { NO_PROMOTION } else { promotion };
    m.aux = (p.0 >> 24) as u8;
    Some(m)
}

/// The hash move `p` as a legal move of `pos`, where tiles stay put.
pub(crate) fn legal_hash_move<B: Bitboard>(pos: &mut Position<B>, p: PackedMove) -> Option<Move> {
    let safety = pos.king_safety();
    unpack(p).filter(|&m| pos.is_legal_move(m, &safety))
}

pub(crate) fn is_quiet(m: Move) -> bool {
    !m.is_capture() && m.promotion().is_none()
}

impl<B: Bitboard> MovePicker<B> {
    /// Takes the frame's buffers for a node whose hash move is `hash`.
    pub fn new(frame: &mut Frame, picking: Picking, hash: Option<PackedMove>) -> MovePicker<B> {
        let stage = match picking {
            Picking::Staged | Picking::HashThenAll => Stage::HashMove,
            Picking::All => Stage::All,
        };
        let mut moves = std::mem::replace(&mut frame.moves, MoveList::empty());
        moves.clear();
        MovePicker {
            stage,
            picking,
            packed_hash: hash,
            hash_move: None,
            killers: frame.killers,
            killers_tried: 0,
            killers_yielded: [None; 2],
            safety: None,
            moves,
            scores: std::mem::take(&mut frame.scores),
            quiets: std::mem::replace(&mut frame.quiet_moves, MoveList::empty()),
            quiet_scores: std::mem::take(&mut frame.quiet_scores),
            next: 0,
            next_quiet: 0,
        }
    }

    /// Gives the buffers back to the frame.
    pub fn finish(self, frame: &mut Frame) {
        frame.moves = self.moves;
        frame.scores = self.scores;
        frame.quiet_moves = self.quiets;
        frame.quiet_scores = self.quiet_scores;
    }

    /// Where the caller generates every move (`Picking::All`), before the
    /// first `next`.
    pub fn all_moves(&mut self) -> &mut MoveList {
        &mut self.moves
    }

    /// The next move to search, or `None` when all have been given.
    pub fn next(
        &mut self,
        pos: &mut Position<B>,
        t: &EvalTables<B>,
        history: &dyn Fn(&Position<B>, Move) -> i32,
    ) -> Option<Move> {
        loop {
            match self.stage {
                Stage::HashMove => {
                    self.stage =
                        if self.picking == Picking::Staged { Stage::GenerateNoisy } else { Stage::GenerateAll };
                    if let Some(m) = self.packed_hash.and_then(unpack) {
                        if pos.is_legal_move(m, self.safety(pos)) {
                            self.hash_move = Some(m);
                            return Some(m);
                        }
                    }
                }
                Stage::GenerateNoisy => {
                    let safety = *self.safety(pos);
                    pos.legal_piece_moves_with(&mut self.moves, MoveSet::Noisy, &safety);
                    self.remove_hash_move();
                    self.scores.clear();
                    for &m in self.moves.iter() {
                        self.scores.push(noisy_score(pos, m, t, history, Exchange::Later));
                    }
                    self.stage = Stage::GoodNoisy;
                }
                Stage::GoodNoisy => match self.pick_best(false) {
                    Some(i) if self.scores[i] >= GOOD_NOISY_FLOOR => {
                        // The exchange is looked at only now, for a move
                        // about to be searched: a node cut off by an earlier
                        // move never pays for it. A losing capture keeps its
                        // place and waits for the last stage, so the order
                        // is the one scoring every exchange at once gives.
                        let m = self.moves[i];
                        if let Some((victim, attacker)) = capture_values(pos, m, t) {
                            if loses_exchange(pos, m, t, victim, attacker) {
                                self.scores[i] = capture_score(victim, attacker, true);
                                continue;
                            }
                        }
                        return Some(self.take(i, false));
                    }
                    _ => self.stage = Stage::Killers,
                },
                Stage::Killers => {
                    if self.killers_tried == 2 {
                        self.stage = Stage::GenerateQuiets;
                        continue;
                    }
                    let k = self.killers[self.killers_tried];
                    self.killers_tried += 1;
                    let Some(k) = k else { continue };
                    // A killer that is noisy here came in the noisy stages.
                    if Some(k) == self.hash_move || !is_quiet(k) || self.moves.contains(&k) {
                        continue;
                    }
                    if pos.is_legal_move(k, self.safety(pos)) {
                        self.killers_yielded[self.killers_tried - 1] = Some(k);
                        return Some(k);
                    }
                }
                Stage::GenerateQuiets => {
                    let safety = *self.safety(pos);
                    pos.legal_piece_moves_with(&mut self.quiets, MoveSet::Quiet, &safety);
                    // A quiet piece move just listed settles that the side
                    // has one, which rule changes need; else the rules look.
                    if self.quiets.is_empty() {
                        pos.legal_redefinitions(&mut self.quiets);
                    } else {
                        pos.legal_redefinitions_beside(&mut self.quiets, true);
                    }
                    let skip = [self.hash_move, self.killers_yielded[0], self.killers_yielded[1]];
                    let mut i = 0;
                    while i < self.quiets.len() {
                        if skip.contains(&Some(self.quiets[i])) {
                            self.quiets.swap_remove(i);
                        } else {
                            i += 1;
                        }
                    }
                    self.quiet_scores.clear();
                    for &m in self.quiets.iter() {
                        self.quiet_scores.push(history(pos, m));
                    }
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => match self.pick_best(true) {
                    Some(i) => return Some(self.take(i, true)),
                    None => self.stage = Stage::BadNoisy,
                },
                Stage::BadNoisy => match self.pick_best(false) {
                    Some(i) => return Some(self.take(i, false)),
                    None => self.stage = Stage::Done,
                },
                Stage::GenerateAll => {
                    pos.legal_moves(&mut self.moves);
                    self.remove_hash_move();
                    self.score_all(pos, t, history);
                    self.stage = Stage::All;
                }
                Stage::All => match self.pick_best(false) {
                    Some(i) => return Some(self.take(i, false)),
                    None => self.stage = Stage::Done,
                },
                Stage::Done => return None,
            }
        }
    }

    /// Scores every move for one stage of all (after the caller generated
    /// them, or `GenerateAll`): the hash move first, killers after good
    /// noisy moves.
    pub fn score_all(&mut self, pos: &Position<B>, t: &EvalTables<B>, history: &dyn Fn(&Position<B>, Move) -> i32) {
        self.scores.clear();
        for &m in self.moves.iter() {
            self.scores.push(order_score(pos, m, self.packed_hash, &self.killers, t, history, Exchange::Now));
        }
    }

    fn safety(&mut self, pos: &Position<B>) -> &KingSafety<B> {
        self.safety.get_or_insert_with(|| pos.king_safety())
    }

    fn remove_hash_move(&mut self) {
        if let Some(h) = self.hash_move {
            if let Some(i) = self.moves.iter().position(|&m| m == h) {
                self.moves.swap_remove(i);
            }
        }
    }

    /// The index of the best-scored move not yet given, in the quiet list
    /// or the other (the first of equals, as a selection sort takes them).
    fn pick_best(&self, quiet: bool) -> Option<usize> {
        let (scores, start) = if quiet { (&self.quiet_scores, self.next_quiet) } else { (&self.scores, self.next) };
        let rest = scores.get(start..)?;
        // Two plain passes, the highest score and then the first move
        // that has it: the first pass has no branch to mispredict and
        // the compiler runs it over several scores at once.
        let best_score = rest.iter().copied().fold(i32::MIN, i32::max);
        rest.iter().position(|&score| score == best_score).map(|best| start + best)
    }

    /// Swaps the move at `i` to the front of the moves not yet given and
    /// gives it.
    fn take(&mut self, i: usize, quiet: bool) -> Move {
        let (moves, scores, next) = if quiet {
            (&mut self.quiets, &mut self.quiet_scores, &mut self.next_quiet)
        } else {
            (&mut self.moves, &mut self.scores, &mut self.next)
        };
        let n = *next;
        moves.swap(n, i);
        scores.swap(n, i);
        *next += 1;
        moves[n]
    }
}

/// Ordering score of any move: the hash move first, noisy moves (see
/// `noisy_score`) with killers after promotions, quiet moves by history.
pub(crate) fn order_score<B: Bitboard>(
    pos: &Position<B>,
    m: Move,
    hash: Option<PackedMove>,
    killers: &[Option<Move>; 2],
    t: &EvalTables<B>,
    history: &dyn Fn(&Position<B>, Move) -> i32,
    exchange: Exchange,
) -> i32 {
    if hash.is_some() && Some(pack(m, pos.tiles_move())) == hash {
        i32::MAX
    } else if !is_quiet(m) {
        noisy_score(pos, m, t, history, exchange)
    } else if killers[0] == Some(m) {
        KILLER
    } else if killers[1] == Some(m) {
        KILLER - 1000
    } else {
        history(pos, m)
    }
}

/// Whether a noisy move's order score is decided by static exchange: a
/// capture by a piece worth more than its victim.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Exchange {
    /// Look at the exchange now.
    Now,
    /// Score the capture as if it did not lose; the caller looks at the
    /// exchange before giving the move (the good-noisy stage).
    Later,
}

/// Capture values: the victim's and the capturing piece's.
fn capture_values<B: Bitboard>(pos: &Position<B>, m: Move, t: &EvalTables<B>) -> Option<(i32, i32)> {
    let cell = m.capture_cell()?;
    let victim = pos.piece_at(cell).map_or(0, |p| t.value(p.kind()));
    let attacker = pos.piece_at(m.from()).map_or(0, |p| t.value(p.kind()));
    Some((victim, attacker))
}

/// Whether capture `m`, of a victim worth `victim` by a piece worth
/// `attacker`, loses material by static exchange. A piece worth no more
/// than its victim cannot.
fn loses_exchange<B: Bitboard>(pos: &Position<B>, m: Move, t: &EvalTables<B>, victim: i32, attacker: i32) -> bool {
    attacker > victim && !see_at_least(pos, m, t, 0)
}

/// Whether capture `m` loses material by static exchange (a capture
/// scored with [`Exchange::Later`] is looked at so when it is reached).
pub(crate) fn capture_loses<B: Bitboard>(pos: &Position<B>, m: Move, t: &EvalTables<B>) -> bool {
    capture_values(pos, m, t).is_some_and(|(victim, attacker)| loses_exchange(pos, m, t, victim, attacker))
}

/// A capture's order score: by most valuable victim and least valuable
/// attacker, among the captures that do not lose or among those that do.
fn capture_score(victim: i32, attacker: i32, loses: bool) -> i32 {
    let mvv_lva = victim * 16 - attacker / 16;
    if loses {
        BAD_CAPTURE + mvv_lva
    } else {
        GOOD_CAPTURE + mvv_lva
    }
}

/// Ordering score of a noisy move: captures that do not lose material
/// (most valuable victim, least valuable attacker), promotions, then a
/// pawn stepping onto the zone without promoting (by history), captures
/// that lose last.
fn noisy_score<B: Bitboard>(
    pos: &Position<B>,
    m: Move,
    t: &EvalTables<B>,
    history: &dyn Fn(&Position<B>, Move) -> i32,
    exchange: Exchange,
) -> i32 {
    if let Some((victim, attacker)) = capture_values(pos, m, t) {
        let loses = exchange == Exchange::Now && loses_exchange(pos, m, t, victim, attacker);
        return capture_score(victim, attacker, loses);
    }
    if let Some(k) = m.promotion() {
        return PROMOTION + t.value(k);
    }
    history(pos, m)
}
