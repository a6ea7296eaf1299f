//! How search should see a Beyond Chess turn: as one compound move (piece
//! move and tile shift) or as two plies by the same side. Plays a match
//! between the two at a fixed time per move, from the start and from
//! openings of two random turns each, colours alternating:
//!
//!     cargo bench --bench beyond_turns            # 20 games, 200 ms a move
//!     GAMES=40 MOVETIME_MS=500 SEED=7 cargo bench --bench beyond_turns
//!
//! Each side is an engine with one thread and its own 32 MiB table; the
//! referee is the rules crate. A game still going after 300 plies is scored a draw.

use protean_rules::{AnyRules, Color, Outcome};
use protean_search::{Engine, Limits, Options};
use std::time::Duration;

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn main() {
    let games = env("GAMES", 20);
    let movetime = Duration::from_millis(env("MOVETIME_MS", 200));
    let rules = AnyRules::by_name("beyond").expect("beyond");
    let mut seed = env("SEED", 0x5eed);
    let (mut split_points, mut results) = (0.0, [0u32; 3]);
    for game in 0..games {
        let mut pos = rules.start();
        // Two random turns per side, the same for both colourings.
        if game % 2 == 0 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        }
        let mut s = seed;
        for _ in 0..4 {
            let moves = pos.legal_moves();
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            pos.play(&moves[(s >> 33) as usize % moves.len()]).expect("a legal move");
        }
        let split_is_white = game % 2 == 0;
        let mut engines = [false, true].map(|split| {
            let mut e = Engine::new(pos.clone());
            e.resize_hash(32).expect("a 32 MiB table");
            e.set_options(Options { split_turns: split, move_overhead: Duration::ZERO, ..Options::default() });
            e
        });
        let mut outcome = None;
        for _ in 0..300 {
            if let Some(o) = pos.outcome() {
                outcome = Some(o);
                break;
            }
            let white = pos.side_to_move() == Color::White;
            let split = white == split_is_white;
            let engine = &mut engines[split as usize];
            engine.set_position(pos.clone());
            let outcome = engine.search(Limits { movetime: Some(movetime), ..Limits::default() });
            pos.make(outcome.best.expect("a move"));
        }
        let split_score = match outcome {
            Some(Outcome::Checkmate { winner }) => f64::from(u8::from((winner == Color::White) == split_is_white)),
            _ => 0.5,
        };
        split_points += split_score;
        results[(2.0 - split_score * 2.0) as usize] += 1;
        eprintln!(
            "game {}: split turns {} White, {:?}, {}",
            game + 1,
            if split_is_white { "as" } else { "not as" },
            outcome,
            pos.fen()
        );
    }
    println!(
        "split turns against whole turns, {games} games at {} ms a move: +{} ={} -{} ({:.1}%)",
        movetime.as_millis(),
        results[0],
        results[1],
        results[2],
        100.0 * split_points / games as f64
    );
}
