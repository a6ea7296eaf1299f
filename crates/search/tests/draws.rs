//! How the search scores draws: by the contempt, from the side it plays.

use protean_rules::AnyRules;
use protean_search::{Engine, Limits, Options, Score};

/// The score a fixed-depth search of `fen` reports with `contempt`.
fn score_with_contempt(variant: &str, fen: &str, contempt: i32) -> Option<Score> {
    let pos = AnyRules::by_name(variant).unwrap().from_fen(fen).unwrap();
    let mut engine = Engine::new(pos);
    engine.set_options(Options { contempt, ..Options::default() });
    engine.search(Limits { depth: Some(4), ..Limits::default() }).score
}

#[test]
fn a_draw_costs_the_searching_side_its_contempt() {
    // Bare kings: every line is a draw by insufficient material at once,
    // whichever side is to move.
    for (fen, to_move) in [("8/8/3k4/8/8/4K3/8/8 w - - 0 1", "white"), ("8/8/3k4/8/8/4K3/8/8 b - - 0 1", "black")] {
        for contempt in [0, 35, -20] {
            assert_eq!(
                score_with_contempt("standard", fen, contempt),
                Some(Score::Centipawns(-contempt)),
                "{to_move} to move, contempt {contempt}"
            );
        }
    }
}
