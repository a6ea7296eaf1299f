//! Lazy SMP as the protocols see it: with helper threads a fixed-depth
//! search still ends at the depth asked, whichever thread finished it,
//! and an infinite search still waits for `stop`.

use protean_rules::AnyRules;
use protean_search::{AfterMove, Engine, Limits, Listener, Options, Score};
use std::time::Duration;

fn engine(variant: &str, fen: Option<&str>, threads: usize) -> Engine {
    let rules = AnyRules::by_name(variant).unwrap();
    let pos = match fen {
        Some(fen) => rules.from_fen(fen).unwrap(),
        None => rules.start(),
    };
    let mut engine = Engine::new(pos);
    engine.set_options(Options { threads, ..Options::default() });
    engine
}

#[test]
fn a_fixed_depth_search_with_helpers_reports_that_depth_and_a_legal_move() {
    for (variant, depth) in [("standard", 10), ("perfect", 8), ("onedim", 12), ("flexichess", 5), ("beyond", 3)] {
        for _ in 0..3 {
            let mut engine = engine(variant, None, 3);
            let outcome = engine.search(Limits { depth: Some(depth), ..Limits::default() });
            assert_eq!(outcome.depth, depth, "{variant}");
            let best = outcome.best.expect("a move");
            assert!(engine.position().clone().legal_move_list().contains(&best), "{variant}: {best:?}");
        }
    }
}

#[test]
fn an_infinite_search_with_helpers_waits_for_stop_even_where_every_depth_is_quick() {
    // Mate in one: every iteration ends at once, so helpers run through
    // every depth there is long before anyone says stop.
    let mut engine = engine("standard", Some("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"), 2);
    let listener = Listener { info: Box::new(|_, _| {}), best_move: Box::new(|_, _| AfterMove::Done) };
    engine.go(Limits { infinite: true, ..Limits::default() }, listener);
    std::thread::sleep(Duration::from_millis(300));
    assert!(engine.is_searching(), "ended before stop");
    engine.halt();
    let outcome = engine.search(Limits { depth: Some(20), ..Limits::default() });
    assert_eq!(outcome.score, Some(Score::Mate(1)));
}
