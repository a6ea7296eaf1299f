//! Derived values: what a piece is worth from how it moves, with no
//! piece named (see [`piece_value`]). The tables (`tables`) value every
//! kind of a rule set by it, and again a kind that a rule change
//! redefines; exchanges, move ordering and the game phase read those
//! values whatever the fitted weights say.

use protean_rules::betza::UNLIMITED;
use protean_rules::{Bitboard, Rules};

/// Centipawns per unit of effective mobility (see [`piece_value`]).
const VALUE_PER_MOVE: f64 = 61.0;
/// A pawn's middle-game and end-game worth (pawns are valued by role,
/// not by their moves).
pub(super) const PAWN_MG: i32 = 90;
pub(super) const PAWN_EG: i32 = 125;

/// The chance that the `k` cells before a rider's next one are all empty
/// on a board a quarter full, 0.75^k, for every `k` a ray on the largest
/// board can have (looked up: [`piece_value`] runs for every rule set a
/// Flexichess search meets).
static EMPTY_AHEAD: std::sync::LazyLock<[f64; protean_rules::geometry::MAX_CELLS + 1]> =
    std::sync::LazyLock::new(|| std::array::from_fn(|k| 0.75f64.powi(k as i32)));

/// A piece's value from its moves: the average, over all cells of the
/// board, of its effective mobility on a board a quarter full of pieces (a
/// rider's k-th cell along a ray counts 0.75^(k-1), the chance that the
/// cells before it are empty), times [`VALUE_PER_MOVE`]. Move-only or
/// capture-only legs count half, initial-only legs a tenth, and a piece
/// bound to one colour of cells loses 15%. A two-leg jumper counts each
/// landing cell once and each middle-cell capture as half. On 8x8 this
/// gives N 320, B 326, R 536, Q 920: close to the values chess players
/// use, with no piece named.
pub fn piece_value<B: Bitboard>(rules: &Rules<B>, kind: usize) -> i32 {
    let def = &rules.variant.pieces[kind];
    let g = rules.geometry;
    let mut total = 0.0;
    for cell in 0..g.cells() {
        for leg in &def.movement.legs {
            let mut weight = if leg.mode.moves && leg.mode.captures { 1.0 } else { 0.5 };
            if leg.initial_only {
                weight *= 0.1;
            }
            let mut here = cell;
            let mut k = 0;
            while leg.range == UNLIMITED || k < leg.range {
                match g.offset(here, leg.step) {
                    Some(next) => {
                        total += weight * EMPTY_AHEAD[k as usize];
                        here = next;
                    }
                    None => break,
                }
                k += 1;
                if k as usize > g.cells() {
                    break;
                }
            }
        }
    }
    // Two-leg jumps: each distinct landing cell counts as a leap, and a
    // capture on the middle cell as half of one.
    for cell in 0..g.cells() {
        let mut landings = Vec::new();
        for [first, second] in &def.paths {
            let Some(mid) = g.offset(cell, *first) else { continue };
            let Some(to) = g.offset(mid, *second) else { continue };
            if !landings.contains(&to) {
                landings.push(to);
                total += 1.0;
            }
            total += 0.5;
        }
    }
    let mut mobility = total / g.cells() as f64;
    if def.is_colourbound() {
        mobility *= 0.85;
    }
    (mobility * VALUE_PER_MOVE).round() as i32
}
