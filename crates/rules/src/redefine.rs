//! Rule changes (Flexichess): a move that redefines how one kind of piece
//! moves, for both colours.
//!
//! A position holds its rules as an `Arc<Rules>`; a rule change compiles
//! the variant with that one piece's Betza replaced and swaps the `Arc`,
//! and `unmake` swaps it back, so the hot paths never ask whether rules
//! can change. Compiled rule sets are kept in a cache that a position and
//! its clones share, keyed by the rules' own hash key and confirmed by their Betza, so a
//! search that changes rules back and forth compiles each set once.

use crate::betza::Movement;
use crate::bitboard::Bitboard;
use crate::piece::Color;
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::Position;
use crate::tables::{Rules, RulesError};
use crate::variant::{PieceDef, Role};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Compiled rule sets by key, shared by a position and its clones.
pub type RulesCache<B> = Arc<Mutex<HashMap<u64, Arc<Rules<B>>>>>;

/// Beyond this many sets the cache starts again (positions keep theirs).
const CACHE_LIMIT: usize = 4096;

/// The hash of `kind` moving as `betza` (FNV-1a over the kind and text).
fn movement_hash(kind: usize, betza: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ (kind as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    for b in betza.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}

/// A rule set's key: zero for the variant's own rules, else a hash of
/// every kind that moves otherwise, in kind order. Each step goes through
/// a non-linear mix, so that keys of different sets do not cancel out the
/// way a plain XOR of per-kind hashes does (`N=C,Q=B` and `N=W,Q=N` once
/// shared a key, and with it a compiled rule set).
fn rules_key<'a>(original: &[String], betzas: impl Iterator<Item = &'a str>) -> u64 {
    let mut key = 0u64;
    for (kind, (betza, own)) in betzas.zip(original).enumerate() {
        if betza != own {
            key = mix(key ^ movement_hash(kind, betza));
        }
    }
    key
}

/// SplitMix64's finaliser.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

impl<B: Bitboard> Position<B> {
    /// The rules with `kind` moving as `betza`, compiled once per set.
    pub fn rules_with(&self, kind: usize, betza: &str) -> Result<Arc<Rules<B>>, RulesError> {
        let rules = self.rules();
        fn wanted<'a>(kind: usize, betza: &'a str, i: usize, p: &'a PieceDef) -> &'a str {
            if i == kind { betza } else { p.betza.as_str() }
        }
        let key = rules_key(&rules.original_betza, rules.variant.pieces.iter().enumerate().map(|(i, p)| wanted(kind, betza, i, p)));
        // The key picks the entry; the Betza of every kind confirms it, so
        // that even a 64-bit collision cannot hand out other rules.
        let same = |r: &Rules<B>| r.variant.pieces.iter().zip(&rules.variant.pieces).enumerate().all(|(i, (have, p))| have.betza == wanted(kind, betza, i, p));
        if let Some(r) = self.rules_cache().lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
            if same(r) {
                return Ok(r.clone());
            }
        }
        let old = &rules.variant.pieces[kind];
        let mut variant = rules.variant.clone();
        variant.pieces[kind] = PieceDef::new(&old.name, old.letter, betza, old.role).map_err(|e| RulesError(e.to_string()))?;
        let mut compiled = Rules::compile(variant, rules.line_tables.clone())?;
        compiled.key = key;
        compiled.original_betza = rules.original_betza.clone();
        let compiled = Arc::new(compiled);
        let mut cache = self.rules_cache().lock().unwrap_or_else(|e| e.into_inner());
        if cache.len() >= CACHE_LIMIT {
            cache.clear();
        }
        cache.insert(key, compiled.clone());
        Ok(compiled)
    }

    /// Legal rule changes for the side to move: every catalogue movement,
    /// for every kind but the king, that the kind does not already have
    /// and after which the mover's king is not attacked: no enemy piece of
    /// that kind attacks it under the new movement (the change applies to
    /// both colours), and no piece of another kind gives check. Tested by
    /// walking the new movement from the enemy pieces, so that no rule
    /// set is compiled for a change that search may never play.
    pub fn legal_redefinitions(&self, out: &mut MoveList) {
        let rules = self.rules();
        if rules.variant.redefinitions.is_empty() {
            return;
        }
        let checkers = self.checkers();
        for kind in 0..rules.piece_types {
            for i in 0..rules.variant.redefinitions.len() {
                if self.redefinition_allowed(kind, i, checkers) {
                    out.push(Move::new(kind, i, MoveKind::Redefine));
                }
            }
        }
    }

    /// Whether the side to move may make `kind` move as entry `i` of the
    /// catalogue (a legal rule change).
    pub(crate) fn may_redefine(&self, kind: usize, i: usize) -> bool {
        self.redefinition_allowed(kind, i, self.checkers())
    }

    fn checkers(&self) -> B {
        let us = self.side_to_move();
        self.king(us).map_or(B::EMPTY, |k| self.attackers_to(k, self.occupied()) & self.pieces(!us))
    }

    fn redefinition_allowed(&self, kind: usize, i: usize, checkers: B) -> bool {
        let rules = self.rules();
        let piece = &rules.variant.pieces[kind];
        let (r, movement) = (&rules.variant.redefinitions[i], &rules.redefinition_movements[i]);
        // In check, only a change of the checking pieces' kind can help.
        piece.role != Role::Royal
            && (checkers & !self.kind_bb(kind)).is_empty()
            && r.role == piece.role
            && *movement != piece.movement
            && !self.would_attack_king(kind, movement, !self.side_to_move())
    }

    /// Whether a piece of `by` and `kind` would attack the other side's
    /// king if it moved as `movement`.
    fn would_attack_king(&self, kind: usize, movement: &Movement, by: Color) -> bool {
        let Some(king) = self.king(!by) else { return false };
        let g = self.rules().geometry;
        let blockers = self.blockers();
        for from in self.pieces_of(by, kind).cells() {
            let at_start = self.rules().initial_region[by as usize][kind].has(from);
            for leg in movement.legs.iter().filter(|l| l.mode.captures && (!l.initial_only || at_start)) {
                let step = if by == Color::White { leg.step } else { leg.step.for_black() };
                let mut cell = from;
                for _ in 0..leg.range.min(g.cells().min(255) as u8) {
                    let Some(next) = g.offset(cell, step) else { break };
                    if next == king {
                        return true;
                    }
                    if blockers.has(next) {
                        break;
                    }
                    cell = next;
                }
            }
        }
        false
    }

    /// The `kind=BETZA` list of every kind that moves other than in the
    /// variant's own rules (`N=NN,B=BW`), or `-`.
    pub fn redefinitions_text(&self) -> String {
        let rules = self.rules();
        let changed: Vec<String> = rules
            .variant
            .pieces
            .iter()
            .zip(&rules.original_betza)
            .filter(|(p, original)| p.betza != **original)
            .map(|(p, _)| format!("{}={}", p.letter, p.betza))
            .collect();
        if changed.is_empty() { "-".into() } else { changed.join(",") }
    }
}
