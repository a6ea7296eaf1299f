//! What a position of a variant whose rules change (Flexichess) holds
//! beyond pieces: the rules before each change still on its history, and
//! the compiled rule sets it and its clones have met. A position of any
//! other variant has none of it (`Position`'s `rule_changes` is `None`).
//!
//! A position holds its rules as an `Arc<Rules>`; a rule change compiles
//! the variant with that one piece's Betza replaced and swaps the `Arc`,
//! and `unmake` swaps it back, so the hot paths never ask whether rules
//! can change. Compiled rule sets are kept in a cache that a position and
//! its clones share, keyed by the rules' own hash key and confirmed by
//! their Betza, so a search that changes rules back and forth compiles
//! each set once. Which changes are legal is worked out in `redefine`.

use crate::bitboard::Bitboard;
use crate::tables::{Rules, RulesError};
use crate::variant::PieceDef;
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

#[derive(Clone)]
pub struct RuleChangeState<B> {
    /// The rules before each rule change still on the history.
    before: Vec<Arc<Rules<B>>>,
    cache: RulesCache<B>,
}

impl<B: Bitboard> RuleChangeState<B> {
    pub(crate) fn new() -> RuleChangeState<B> {
        RuleChangeState { before: Vec::new(), cache: RulesCache::default() }
    }

    /// A rule change made: `rules` were in force before it.
    pub(crate) fn push(&mut self, rules: Arc<Rules<B>>) {
        self.before.push(rules);
    }

    /// A rule change taken back: the rules in force before it.
    pub(crate) fn pop(&mut self) -> Arc<Rules<B>> {
        self.before.pop().expect("the rules before the change")
    }

    /// The rules with `kind` moving as `betza`, compiled once per set.
    pub(crate) fn rules_with(&self, rules: &Rules<B>, kind: usize, betza: &str) -> Result<Arc<Rules<B>>, RulesError> {
        fn wanted<'a>(kind: usize, betza: &'a str, i: usize, p: &'a PieceDef) -> &'a str {
            if i == kind {
                betza
            } else {
                p.betza.as_str()
            }
        }
        let key = rules_key(
            &rules.original_betza,
            rules.variant.pieces.iter().enumerate().map(|(i, p)| wanted(kind, betza, i, p)),
        );
        // The key picks the entry; the Betza of every kind confirms it, so
        // that even a 64-bit collision cannot hand out other rules.
        let same = |r: &Rules<B>| {
            r.variant
                .pieces
                .iter()
                .zip(&rules.variant.pieces)
                .enumerate()
                .all(|(i, (have, p))| have.betza == wanted(kind, betza, i, p))
        };
        if let Some(r) = self.cache.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
            if same(r) {
                return Ok(r.clone());
            }
        }
        let old = &rules.variant.pieces[kind];
        let mut variant = rules.variant.clone();
        variant.pieces[kind] =
            PieceDef::new(&old.name, old.letter, betza, old.role).map_err(|e| RulesError(e.to_string()))?;
        let mut compiled = Rules::compile(variant, Some(rules))?;
        compiled.key = key;
        compiled.original_betza = rules.original_betza.clone();
        let compiled = Arc::new(compiled);
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if cache.len() >= CACHE_LIMIT {
            cache.clear();
        }
        cache.insert(key, compiled.clone());
        Ok(compiled)
    }
}
