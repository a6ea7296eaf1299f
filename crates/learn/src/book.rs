//! The opening book a learning run starts its games from: positions a
//! few random plies from the start that Protean's own search scores
//! level, so that self-play sees many openings and the gate's games
//! start even.

use protean_rules::{AnyPosition, AnyRules};
use protean_search::skill::Random;
use protean_search::{Engine, Limits, Score};

/// Random plies from the start: at least, at most.
const PLIES: (u64, u64) = (4, 8);
/// A position is kept when the search scores it within this many
/// centipawns of level ...
const LEVEL_CP: i32 = 80;
/// ... searching this many nodes (a fixed count: the book does not depend
/// on the machine).
const NODES: u64 = 20_000;

/// `count` distinct level positions of `rules`' variant as FENs, the same
/// for the same `seed`; fewer where the variant has fewer (after fifty
/// tries a position).
pub fn make_book(rules: &AnyRules, count: usize, seed: u64) -> Vec<String> {
    let mut engine = Engine::new(rules.start());
    let mut random = Random::seeded(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) << 1);
    let mut fens: Vec<String> = Vec::new();
    for _ in 0..50 * count {
        if fens.len() == count {
            break;
        }
        let Some(pos) = random_opening(rules.start(), &mut random) else { continue };
        let fen = pos.fen();
        if fens.contains(&fen) {
            continue;
        }
        engine.clear();
        engine.set_position(pos);
        let outcome = engine.search(Limits { nodes: Some(NODES), ..Limits::default() });
        if matches!(outcome.score, Some(Score::Centipawns(cp)) if cp.abs() <= LEVEL_CP) {
            fens.push(fen);
        }
    }
    fens
}

/// The start after a random number of random legal plies; `None` where
/// the game ended on the way.
fn random_opening(mut pos: AnyPosition, random: &mut Random) -> Option<AnyPosition> {
    let plies = PLIES.0 + random.below(PLIES.1 - PLIES.0 + 1);
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        let chosen = &moves[random.below(moves.len() as u64) as usize];
        pos.play(chosen).ok()?;
    }
    (!pos.legal_moves().is_empty() && pos.outcome().is_none()).then_some(pos)
}
