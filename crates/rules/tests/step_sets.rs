//! Counting a kind's moves by its steps (`step_sets`), and finding the
//! cells its pieces capture on, against doing so piece by piece from the
//! per-cell tables they were read off.

use protean_rules::tables::Rules;
use protean_rules::{AnyRules, Bitboard};

/// Every kind with steps, in every variant, counted by its steps and
/// piece by piece from its per-cell tables, on random boards: the same
/// number, and the same cells captured on. Returns how many kinds had
/// steps.
fn steps_count_as_the_tables<B: Bitboard>(rules: &Rules<B>) -> usize {
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    let mut random = move || {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        seed >> 33
    };
    let mut random_set = |one_in: u64| {
        (0..rules.geometry.cells()).filter(|_| random().is_multiple_of(one_in)).fold(B::EMPTY, |b, c| b | B::cell(c))
    };
    let mut stepped = 0;
    for (color, kinds) in rules.moves.iter().enumerate() {
        for pm in kinds {
            let Some(steps) = &pm.steps else { continue };
            stepped += 1;
            for _ in 0..200 {
                let (pieces, blockers, zone) = (random_set(4), random_set(3), random_set(5));
                let enemies = random_set(4) & blockers & !pieces;
                let empty = rules.all_cells & !blockers & !pieces;
                let blockers = blockers | pieces;
                let per_zone = 3;
                let one_by_one: usize = pieces
                    .cells()
                    .map(|from| {
                        let (quiet, captures) = rules.targets_of(pm, from, blockers, empty, enemies);
                        let both = quiet | captures;
                        (both & !zone).count() as usize + (both & zone).count() as usize * per_zone
                    })
                    .sum();
                assert_eq!(
                    steps.count(pieces, empty, enemies, blockers, zone, per_zone),
                    one_by_one,
                    "{} colour {color}",
                    rules.variant.name
                );
                let captured_on = pieces.cells().fold(B::EMPTY, |b, from| b | pm.leaps[from].capture);
                assert_eq!(steps.capture_targets(pieces), captured_on, "{} colour {color}", rules.variant.name);
            }
        }
    }
    stepped
}

#[test]
fn pawns_count_by_steps_as_by_their_tables() {
    // One-dimensional chess has no pawns, and one piece of each kind: none
    // is worth counting by steps.
    for (variant, kinds) in [("standard", 2), ("perfect", 2), ("onedim", 0), ("beyond", 2), ("flexichess", 2)] {
        let stepped = match AnyRules::by_name(variant).unwrap() {
            AnyRules::Small(r) => steps_count_as_the_tables(&r),
            AnyRules::Medium(r) => steps_count_as_the_tables(&r),
            AnyRules::Large(r) => steps_count_as_the_tables(&r),
        };
        // The pawns of both colours.
        assert_eq!(stepped, kinds, "{variant}: kinds with steps");
    }
}
