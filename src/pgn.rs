//! PGN movetext, shared by `protean match` and `protean perplexichess`.

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
    use super::movetext;

    fn items(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn moves_are_numbered_from_the_start_position() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(movetext(start, &items(&["e4", "{a comment}", "e5", "Nf3"])), "1. e4 {a comment} e5 2. Nf3 ");
        let black = "4k3/8/8/8/8/8/8/4K3 b - - 0 12";
        assert_eq!(movetext(black, &items(&["Kd7", "Kd2", "Kc6"])), "12... Kd7 13. Kd2 Kc6 ");
    }
}
