//! Protean's grand strategist (Perplexichess): between moves it looks at
//! every transfer its team may make and makes the best one if a short
//! search of the two boards says it gains enough.

use protean_rules::{AnyPosition, Color};
use protean_search::{Engine, Limits, Options, Score};
use std::time::Duration;

/// A transfer worth less than this (centipawns, both boards together) is
/// not made: moving pieces about has costs a shallow search does not see.
const MIN_GAIN: i32 = 100;

/// One board as the strategist sees it.
pub struct BoardView<'a> {
    pub position: &'a AnyPosition,
    pub finished: bool,
}

/// A transfer: which board the piece leaves, its cell, which board it joins.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transfer {
    pub color: Color,
    pub from: usize,
    pub cell: String,
    pub to: usize,
}

/// The value of `pos` for `color` by a one-ply search with quiescence
/// (cheap enough to try every transfer between moves).
fn value(pos: &AnyPosition, color: Color, engine: &mut Engine) -> i32 {
    engine.set_position(pos.clone());
    let outcome = engine.search(Limits { depth: Some(1), ..Limits::default() });
    let score = match outcome.score {
        Some(Score::Centipawns(cp)) => cp,
        Some(Score::Mate(n)) if n > 0 => 10_000,
        Some(Score::Mate(_)) => -10_000,
        None => 0,
    };
    if pos.side_to_move() == color { score } else { -score }
}

/// The best transfer for `color`, if one gains at least [`MIN_GAIN`]; never
/// the reverse of `last` (a shallow search would happily shuttle a piece
/// between two boards as the side to move alternates).
pub fn choose(boards: &[BoardView], color: Color, last: Option<&Transfer>) -> Option<Transfer> {
    let mut engine = Engine::new(boards[0].position.clone());
    engine.resize_hash(1).expect("a 1 MiB table");
    engine.set_options(Options { move_overhead: Duration::ZERO, ..Options::default() });
    let before: Vec<i32> = boards.iter().map(|b| if b.finished { 0 } else { value(b.position, color, &mut engine) }).collect();
    let mut best: Option<(i32, Transfer)> = None;
    for (from, source) in boards.iter().enumerate() {
        let g = source.position.variant().geometry;
        for cell in (0..g.cells()).map(|c| g.name(c).to_string()) {
            for (to, target) in boards.iter().enumerate() {
                let reverse = last.is_some_and(|l| l.from == to && l.to == from && l.cell == cell);
                if to == from || target.finished || reverse {
                    continue;
                }
                let (mut a, mut b) = (source.position.clone(), target.position.clone());
                if a.transfer_to(&mut b, &cell, color).is_err() {
                    continue;
                }
                let after_source = if source.finished { 0 } else { value(&a, color, &mut engine) };
                let gain = value(&b, color, &mut engine) - before[to] + after_source - before[from];
                if gain >= MIN_GAIN && best.as_ref().is_none_or(|(g, _)| gain > *g) {
                    best = Some((gain, Transfer { color, from, cell: cell.clone(), to }));
                }
            }
        }
    }
    best.map(|(_, t)| t)
}
