//! PGN: movetext as `protean match` and `protean perplexichess` write it,
//! and games read back (for `-openings format=pgn`).

/// A game read from PGN: its start position if a FEN tag gives one, and
/// its moves in SAN.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Game {
    pub fen: Option<String>,
    pub moves: Vec<String>,
}

/// The games of a PGN file. Tags are read for the FEN; comments (`{...}`
/// and `;` to the end of the line), variations, NAGs (`$1`), move numbers
/// and results are skipped.
pub fn games(text: &str) -> Vec<Game> {
    let mut games = Vec::new();
    let mut game = Game::default();
    let mut in_moves = false;
    // Depth of `{}` comments and `()` variations still open.
    let (mut comment, mut variation) = (false, 0usize);
    for line in text.lines() {
        let trimmed = line.trim();
        if !comment && trimmed.starts_with('[') {
            if in_moves {
                games.push(std::mem::take(&mut game));
                in_moves = false;
            }
            if let Some(fen) = trimmed.strip_prefix("[FEN \"").and_then(|f| f.strip_suffix("\"]")) {
                game.fen = Some(fen.to_string());
            }
            continue;
        }
        let mut token = String::new();
        let flush = |token: &mut String, game: &mut Game| {
            let raw = std::mem::take(token);
            let t = raw.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
            let is_result = matches!(raw.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*");
            if !is_result && !t.is_empty() && !t.starts_with('$') {
                game.moves.push(t.to_string());
            }
        };
        for c in line.chars() {
            if comment {
                comment = c != '}';
                continue;
            }
            match c {
                '{' => comment = true,
                ';' => break,
                '(' => variation += 1,
                ')' => variation = variation.saturating_sub(1),
                c if c.is_whitespace() => {
                    if variation == 0 {
                        flush(&mut token, &mut game);
                    }
                    token.clear();
                }
                c if variation == 0 => token.push(c),
                _ => {}
            }
            in_moves |= !token.is_empty();
        }
        if variation == 0 {
            flush(&mut token, &mut game);
        }
        token.clear();
    }
    if in_moves || game.fen.is_some() {
        games.push(game);
    }
    games
}

/// Moves numbered from the start position's FEN (its move number and side
/// to move: `12... Nf6` when Black starts), with comments (`{...}`) kept
/// in place and not counted as moves.
pub fn movetext(start_fen: &str, items: &[String]) -> String {
    let fields: Vec<&str> = start_fen.split_whitespace().collect();
    let mut move_number: u32 = fields.get(5).and_then(|n| n.parse().ok()).unwrap_or(1);
    let mut white_to_move = fields.get(1) != Some(&"b");
    let mut first = true;
    let mut text = String::new();
    for item in items {
        if !item.starts_with('{') {
            if white_to_move {
                text += &format!("{move_number}. ");
            } else if first {
                text += &format!("{move_number}... ");
            }
            if !white_to_move {
                move_number += 1;
            }
            white_to_move = !white_to_move;
            first = false;
        }
        text += item;
        text.push(' ');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::{games, movetext};

    fn items(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn games_are_read_back_with_tags_comments_and_variations_skipped() {
        let text = "[Event \"protean match\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 b - - 0 12\"]\n\n12... Kd7 {a comment\nover two lines} 13. Kd2 $1 (13. Ke2 Ke6) Kc6 ; rest\n1/2-1/2\n\n[Event \"second\"]\n\n1. e4 {White mates} e5 1-0\n";
        let read = games(text);
        assert_eq!(read.len(), 2, "{read:?}");
        assert_eq!(read[0].fen.as_deref(), Some("4k3/8/8/8/8/8/8/4K3 b - - 0 12"));
        assert_eq!(read[0].moves, items(&["Kd7", "Kd2", "Kc6"]));
        assert_eq!(read[1], super::Game { fen: None, moves: items(&["e4", "e5"]) });
    }

    #[test]
    fn moves_are_numbered_from_the_start_position() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(movetext(start, &items(&["e4", "{a comment}", "e5", "Nf3"])), "1. e4 {a comment} e5 2. Nf3 ");
        let black = "4k3/8/8/8/8/8/8/4K3 b - - 0 12";
        assert_eq!(movetext(black, &items(&["Kd7", "Kd2", "Kc6"])), "12... Kd7 13. Kd2 Kc6 ");
    }
}
