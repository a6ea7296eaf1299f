//! PGN: games as `protean match`, `protean perplexichess` and `protean
//! serve` write them (one header and movetext writer for all three), and
//! games read back (for `-openings format=pgn`, and `protean match
//! -resume`'s results).

/// A game read from PGN: its tags and its moves in SAN.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Game {
    pub tags: Vec<(String, String)>,
    pub moves: Vec<String>,
}

impl Game {
    /// The value of tag `name`, if the game has it.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    /// The start position, if a FEN tag gives one.
    pub fn fen(&self) -> Option<&str> {
        self.tag("FEN")
    }
}

/// The games of a PGN file. Comments (`{...}` and `;` to the end of the
/// line), variations, NAGs (`$1`), move numbers and results are skipped.
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
            if let Some((name, value)) =
                trimmed.strip_prefix('[').and_then(|t| t.strip_suffix("\"]")).and_then(|t| t.split_once(" \""))
            {
                game.tags.push((name.to_string(), value.to_string()));
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
    if in_moves || !game.tags.is_empty() {
        games.push(game);
    }
    games
}

/// A game to write as PGN.
pub struct Record<'a> {
    pub event: &'a str,
    pub round: usize,
    /// White's name, then Black's.
    pub players: [&'a str; 2],
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: &'a str,
    /// Protean's name of the variant.
    pub variant: &'a str,
    pub start_fen: &'a str,
    /// Whether `start_fen` is the variant's own start position.
    pub standard_start: bool,
    /// Tags after the others (`TimeControl`, `Termination`).
    pub more_tags: Vec<(&'a str, String)>,
    /// Moves in SAN, comments (`{...}`) among them.
    pub moves: &'a [String],
    /// Said after the last move (why the game ended).
    pub closing_comment: Option<&'a str>,
}

impl Record<'_> {
    /// The Seven Tag Roster, `Variant` and `FEN`/`SetUp` where the game is
    /// not chess from its start, the other tags, a blank line, the
    /// movetext and the result.
    pub fn text(&self) -> String {
        let mut out =
            format!("[Event \"{}\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"{}\"]\n", self.event, self.round);
        out += &format!(
            "[White \"{}\"]\n[Black \"{}\"]\n[Result \"{}\"]\n",
            self.players[0], self.players[1], self.result
        );
        if self.variant != "standard" {
            out += &format!("[Variant \"{}\"]\n", self.variant);
        }
        if !self.standard_start || self.variant != "standard" {
            out += &format!("[FEN \"{}\"]\n[SetUp \"1\"]\n", self.start_fen);
        }
        for (tag, value) in &self.more_tags {
            out += &format!("[{tag} \"{value}\"]\n");
        }
        out += &format!("\n{}", movetext(self.start_fen, self.moves));
        if let Some(comment) = self.closing_comment {
            out += &format!("{{{comment}}} ");
        }
        out + self.result + "\n"
    }
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
    use super::{games, movetext, Record};

    fn items(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn games_are_read_back_with_tags_comments_and_variations_skipped() {
        let text = "[Event \"protean match\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 b - - 0 12\"]\n\n12... Kd7 {a comment\nover two lines} 13. Kd2 $1 (13. Ke2 Ke6) Kc6 ; rest\n1/2-1/2\n\n[Event \"second\"]\n\n1. e4 {White mates} e5 1-0\n";
        let read = games(text);
        assert_eq!(read.len(), 2, "{read:?}");
        assert_eq!(read[0].fen(), Some("4k3/8/8/8/8/8/8/4K3 b - - 0 12"));
        assert_eq!(read[0].tag("Event"), Some("protean match"));
        assert_eq!(read[0].moves, items(&["Kd7", "Kd2", "Kc6"]));
        assert_eq!(read[1].fen(), None);
        assert_eq!(read[1].tag("Event"), Some("second"));
        assert_eq!(read[1].moves, items(&["e4", "e5"]));
    }

    #[test]
    fn moves_are_numbered_from_the_start_position() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(movetext(start, &items(&["e4", "{a comment}", "e5", "Nf3"])), "1. e4 {a comment} e5 2. Nf3 ");
        let black = "4k3/8/8/8/8/8/8/4K3 b - - 0 12";
        assert_eq!(movetext(black, &items(&["Kd7", "Kd2", "Kc6"])), "12... Kd7 13. Kd2 Kc6 ");
    }

    #[test]
    fn a_record_writes_the_tags_a_game_needs_and_reads_back() {
        let moves = items(&["e4", "e5", "Qh5"]);
        let record = |variant, standard_start, comment| Record {
            event: "protean match",
            round: 3,
            players: ["A", "B"],
            result: "*",
            variant,
            start_fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            standard_start,
            more_tags: vec![("Termination", "unterminated".to_string())],
            moves: &moves,
            closing_comment: comment,
        };
        let chess = record("standard", true, Some("stopped")).text();
        assert!(chess.starts_with("[Event \"protean match\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"3\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n[Termination"), "{chess}");
        assert!(!chess.contains("[FEN") && !chess.contains("[Variant"), "{chess}");
        assert!(chess.ends_with("\n\n1. e4 e5 2. Qh5 {stopped} *\n"), "{chess}");
        for text in [record("flexichess", true, None).text(), record("standard", false, None).text()] {
            assert!(
                text.contains("[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n[SetUp \"1\"]"),
                "{text}"
            );
            let read = &games(&text)[0];
            assert_eq!((read.fen(), &read.moves), (Some(record("standard", true, None).start_fen), &moves));
        }
        assert!(record("flexichess", true, None).text().contains("[Variant \"flexichess\"]\n[FEN"));
    }
}
