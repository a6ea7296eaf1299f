//! The text of UCI's `eval` (Stockfish's layout): a table of the
//! hand-made evaluation's terms, each side's middle-game and end-game
//! parts in pawns, then the evaluations that make the search's first
//! score, all from White's side.

use protean_search::weights::Score;
use protean_search::StaticEvaluation;

const NAME_WIDTH: usize = 25;

fn pawns(centipawns: i32) -> String {
    format!("{:+.2}", centipawns as f64 / 100.0)
}

fn parts(s: Score) -> String {
    format!("{:>7}{:>7}", pawns(s.mg), pawns(s.eg))
}

/// A row of the table: a term's name, each side's parts and White's less
/// Black's.
fn row(name: &str, white: Score, black: Score) -> String {
    let diff = Score::new(white.mg - black.mg, white.eg - black.eg);
    format!("|{:>NAME_WIDTH$}|{}|{}|{}|", format!("{name} "), parts(white), parts(black), parts(diff))
}

/// The lines `eval` prints for `e`.
pub fn lines(e: &StaticEvaluation) -> Vec<String> {
    let rule = format!("+{}+{}", "-".repeat(NAME_WIDTH), "--------------+".repeat(3));
    let mut out = vec![
        String::new(),
        " Contributing terms for the hand-made evaluation:".to_string(),
        rule.clone(),
        format!("|{:^NAME_WIDTH$}|    White     |    Black     |    Total     |", "Term"),
        format!("|{:NAME_WIDTH$}|     MG     EG|     MG     EG|     MG     EG|", ""),
        rule.clone(),
    ];
    let mut totals = [Score::default(); 2];
    for term in &e.trace.rows {
        let [white, black] = term.sides;
        totals[0] += white;
        totals[1] += black;
        out.push(row(&term.name, white, black));
    }
    let [white, black] = totals;
    out.push(rule.clone());
    out.push(row("Total", white, black));
    out.push(rule);
    out.push(String::new());
    out.push(format!("Game phase             {} of 256 (256 the middle game, 0 the end game)", e.trace.phase));
    let hand_made = if e.network_alone { " (not used: the network evaluates alone)" } else { "" };
    out.push(format!("Hand-made evaluation   {} (white side){hand_made}", pawns(e.trace.white_view)));
    if let Some(net) = e.network {
        let how = if e.network_alone { "" } else { ", added to the hand-made" };
        out.push(format!("Network evaluation     {} (white side{how})", pawns(net)));
    }
    out.push(format!("Final evaluation       {} (white side)", pawns(e.white_view)));
    out
}
