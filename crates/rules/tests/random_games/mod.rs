//! Positions of random games, shared by the tests that check a fast
//! answer against a simple one on many positions.

/// Positions of a random game (a simple linear congruential choice of
/// moves), at most `plies` long.
pub fn random_game(variant: &str, seed: u64, plies: usize) -> Vec<protean_rules::AnyPosition> {
    let mut pos = protean_rules::AnyRules::by_name(variant).unwrap().start();
    let mut s = seed;
    let mut out = vec![pos.clone()];
    for _ in 0..plies {
        let moves = pos.legal_move_list();
        if moves.is_empty() || pos.clone().outcome().is_some() {
            break;
        }
        s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        pos.make(moves[(s >> 33) as usize % moves.len()]);
        out.push(pos.clone());
    }
    out
}
