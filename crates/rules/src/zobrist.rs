//! Zobrist keys, shared by every variant and board size.
//!
//! Keys come from a fixed-seed generator so that hashes (and so search
//! signatures) are the same on every run and machine.

use crate::geometry::MAX_CELLS;
use crate::variant::MAX_PIECE_TYPES;
use std::sync::OnceLock;

pub struct Zobrist {
    pub pieces: Vec<[u64; MAX_CELLS]>,
    pub black_to_move: u64,
    pub castling: [u64; 256],
    pub en_passant: [u64; MAX_CELLS],
    /// A cell without a tile (Beyond Chess).
    pub rifts: [u64; MAX_CELLS],
    pub shift_pending: u64,
}

/// splitmix64: small, fast and good enough for hash keys.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

pub fn keys() -> &'static Zobrist {
    static KEYS: OnceLock<Zobrist> = OnceLock::new();
    KEYS.get_or_init(|| {
        let mut s = 0x5052_4F54_4541_4E00; // "PROTEAN"
        let mut pieces = vec![[0; MAX_CELLS]; 2 * MAX_PIECE_TYPES];
        for table in pieces.iter_mut() {
            for k in table.iter_mut() {
                *k = next(&mut s);
            }
        }
        let black_to_move = next(&mut s);
        let mut castling = [0; 256];
        // Castling rights are a bit set; the key of a set is the xor of its bits' keys.
        let bits: Vec<u64> = (0..8).map(|_| next(&mut s)).collect();
        for (set, k) in castling.iter_mut().enumerate() {
            *k = (0..8).filter(|b| set >> b & 1 == 1).fold(0, |acc, b| acc ^ bits[b]);
        }
        let mut en_passant = [0; MAX_CELLS];
        for k in en_passant.iter_mut() {
            *k = next(&mut s);
        }
        let mut rifts = [0; MAX_CELLS];
        for k in rifts.iter_mut() {
            *k = next(&mut s);
        }
        let shift_pending = next(&mut s);
        Zobrist { pieces, black_to_move, castling, en_passant, rifts, shift_pending }
    })
}
